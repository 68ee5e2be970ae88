/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet: debugfs files for developers, one directory per namespace under
 * /sys/kernel/debug/uet/.  Not ABI: operators use netlink (uetctl).
 */
#ifndef _UET_DEBUGFS_H
#define _UET_DEBUGFS_H

struct uet_net;

void uet_debugfs_init(void);
void uet_debugfs_exit(void);
void uet_debugfs_net_init(struct uet_net *un);
void uet_debugfs_net_exit(struct uet_net *un);

#endif /* _UET_DEBUGFS_H */
