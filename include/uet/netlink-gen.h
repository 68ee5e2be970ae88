/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/uet.yaml */
/* YNL-GEN kernel header */

#ifndef _LINUX_UET_GEN_H
#define _LINUX_UET_GEN_H

#include <net/netlink.h>
#include <net/genetlink.h>

#include <linux/uet_netlink.h>
#include <uet/config.h>

extern const struct nla_policy uet_config_set_nl_policy[UET_A_CFG_SUPERPACKETS + 1];

extern const struct nla_policy uet_job_add_nl_policy[UET_A_JOB_GID + 1];

extern const struct nla_policy uet_job_del_nl_policy[UET_A_JOB_ID + 1];

extern const struct nla_policy uet_job_get_nl_policy[UET_A_JOB_ID + 1];

extern const struct nla_policy uet_dest_get_nl_policy[UET_A_DEST_ADDR + 1];

extern const struct nla_policy uet_pdc_get_nl_policy[UET_A_PDC_RADDR + 1];

#endif /* _LINUX_UET_GEN_H */
