/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet: jobs, the security domains of AF_UET endpoints.
 *
 * A job is created by the administrator of a network namespace (uetctl job
 * add) and names who may bind endpoints in it: one user, one group, or
 * both.  bind() (and the implicit bind of connect() and sendmsg()) checks
 * the caller against it; a caller with CAP_NET_ADMIN over the namespace
 * may bind any job, created or not.
 */
#ifndef _UET_JOB_H
#define _UET_JOB_H

#include <linux/rcupdate.h>
#include <linux/types.h>
#include <linux/uidgid.h>

struct net;
struct netlink_ext_ack;

/* Jobs one namespace may hold. */
#define UET_JOBS_MAX	4096

/**
 * struct uet_job - one job of a namespace
 * @id: job id, 0..UET_JOB_MAX; immutable
 * @uid: the user allowed to bind it, INVALID_UID for none; immutable
 * @gid: the group allowed to bind it, INVALID_GID for none; immutable
 * @rcu: frees the job after the readers that might still see it
 *
 * A job never changes once created: it is replaced by deleting and
 * adding it again.  Readers find it under rcu_read_lock() and need no
 * other lock.
 */
struct uet_job {
	u32 id;
	kuid_t uid;
	kgid_t gid;
	struct rcu_head rcu;
};

/**
 * typedef uet_job_fill_t - writes one job into a dump message
 * @job: the job
 * @arg: the caller's argument
 *
 * Return: 0, or a negative errno that stops the walk (-EMSGSIZE: the
 * message is full).
 */
typedef int (*uet_job_fill_t)(const struct uet_job *job, void *arg);

int uet_job_add(struct net *net, u32 id, kuid_t uid, kgid_t gid,
		struct netlink_ext_ack *extack);
int uet_job_del(struct net *net, u32 id, struct netlink_ext_ack *extack);
int uet_job_walk(struct net *net, unsigned long *pos, uet_job_fill_t fill,
		 void *arg);
int uet_job_get(struct net *net, u32 id, uet_job_fill_t fill, void *arg);
int uet_job_may_bind(struct net *net, u32 id);

int uet_job_init(void);
void uet_job_exit(void);

#endif /* _UET_JOB_H */
