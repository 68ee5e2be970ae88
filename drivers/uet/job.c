// SPDX-License-Identifier: GPL-2.0
/*
 * uet: the jobs of each network namespace and the bind() check against
 * them.  A job is the security domain of AF_UET endpoints (a socket sends
 * to and receives from its own job only), so who may bind in it is what
 * isolates one job's traffic from another's local users.
 *
 * Jobs live in an xarray indexed by job id: lookups under RCU, changes
 * serialised by a mutex that also keeps the count bounded.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include <net/net_namespace.h>
#include <net/netlink.h>
#include <net/netns/generic.h>
#include <uet/job.h>

/**
 * struct uet_job_net - the jobs of one namespace
 * @lock: serialises adding and deleting jobs; protects @count
 * @jobs: struct uet_job by job id; changed under @lock (and the xarray's
 *	own spinlock), read under RCU
 * @count: jobs in @jobs, at most UET_JOBS_MAX; under @lock
 */
struct uet_job_net {
	struct mutex lock;		/* see kernel-doc above */
	struct xarray jobs;
	unsigned int count;
};

static unsigned int uet_job_net_id __read_mostly;

static struct uet_job_net *uet_job_net(const struct net *net)
{
	return net_generic(net, uet_job_net_id);
}

/**
 * uet_job_add() - create a job
 * @net: its namespace
 * @id: job id, 0..UET_JOB_MAX (the netlink policy checks the range)
 * @uid: the user who may bind it, or INVALID_UID
 * @gid: the group that may bind it, or INVALID_GID
 * @extack: why it failed
 *
 * Context: process; may sleep.  The caller checked CAP_NET_ADMIN.
 * Return: 0, -EEXIST if @id exists, -ENOSPC if the namespace has
 * UET_JOBS_MAX jobs, or -ENOMEM.
 */
int uet_job_add(struct net *net, u32 id, kuid_t uid, kgid_t gid,
		struct netlink_ext_ack *extack)
{
	struct uet_job_net *jn = uet_job_net(net);
	struct uet_job *job;
	int err;

	job = kzalloc(sizeof(*job), GFP_KERNEL);
	if (!job) {
		NL_SET_ERR_MSG(extack, "Out of memory for the job");
		return -ENOMEM;
	}
	job->id = id;
	job->uid = uid;
	job->gid = gid;

	mutex_lock(&jn->lock);
	if (jn->count >= UET_JOBS_MAX) {
		NL_SET_ERR_MSG(extack, "Too many jobs in this namespace");
		err = -ENOSPC;
		goto out;
	}
	err = xa_insert(&jn->jobs, id, job, GFP_KERNEL);
	if (err == -EBUSY) {
		NL_SET_ERR_MSG(extack, "Job exists (delete it first)");
		err = -EEXIST;
	} else if (err) {
		NL_SET_ERR_MSG(extack, "Out of memory for the job table");
	} else {
		jn->count++;
	}
out:
	mutex_unlock(&jn->lock);
	if (err)
		kfree(job);
	return err;
}

/**
 * uet_job_del() - delete a job
 * @net: its namespace
 * @id: job id
 * @extack: why it failed
 *
 * Sockets bound in the job stay bound; only new binds are refused.
 *
 * Context: process; may sleep.  The caller checked CAP_NET_ADMIN.
 * Return: 0 or -ENOENT.
 */
int uet_job_del(struct net *net, u32 id, struct netlink_ext_ack *extack)
{
	struct uet_job_net *jn = uet_job_net(net);
	struct uet_job *job;

	mutex_lock(&jn->lock);
	job = xa_erase(&jn->jobs, id);
	if (job)
		jn->count--;
	mutex_unlock(&jn->lock);
	if (!job) {
		NL_SET_ERR_MSG(extack, "No such job");
		return -ENOENT;
	}
	kfree_rcu(job, rcu);
	return 0;
}

/**
 * uet_job_walk() - hand the jobs of a namespace to @fill in id order
 * @net: the namespace
 * @pos: the id to start from; on return, the id after the last job
 *	@fill took, where a resumed walk starts
 * @fill: called for each job under rcu_read_lock(); must not sleep
 * @arg: passed to @fill
 *
 * Context: process.
 * Return: 0 when every job was handed over, else what @fill returned.
 */
int uet_job_walk(struct net *net, unsigned long *pos, uet_job_fill_t fill,
		 void *arg)
{
	struct uet_job_net *jn = uet_job_net(net);
	struct uet_job *job;
	unsigned long id;
	int err = 0;

	rcu_read_lock();
	xa_for_each_start(&jn->jobs, id, job, *pos) {
		err = fill(job, arg);
		if (err)
			break;
		*pos = id + 1;
	}
	rcu_read_unlock();
	return err;
}

/**
 * uet_job_get() - hand one job to @fill
 * @net: the namespace
 * @id: job id
 * @fill: called under rcu_read_lock(); must not sleep
 * @arg: passed to @fill
 *
 * Context: process.
 * Return: -ENOENT if there is no such job, else what @fill returned.
 */
int uet_job_get(struct net *net, u32 id, uet_job_fill_t fill, void *arg)
{
	struct uet_job *job;
	int err = -ENOENT;

	rcu_read_lock();
	job = xa_load(&uet_job_net(net)->jobs, id);
	if (job)
		err = fill(job, arg);
	rcu_read_unlock();
	return err;
}

/* Is the current task the job's user or in its group? */
static bool uet_job_cred_match(const struct uet_job *job)
{
	return (uid_valid(job->uid) && uid_eq(job->uid, current_euid())) ||
	       (gid_valid(job->gid) && in_egroup_p(job->gid));
}

/**
 * uet_job_may_bind() - may the current task bind an endpoint in a job?
 * @net: the socket's namespace
 * @id: job id
 *
 * Allowed when the job exists and its user is the caller's effective uid
 * or its group the caller's effective gid or one of its supplementary
 * groups; a job with neither is for CAP_NET_ADMIN only.  A caller with
 * CAP_NET_ADMIN over @net's user namespace may bind any job, existing or
 * not (it can create the job anyway).  The capability is checked last so
 * that a permitted user is not audited as using it.
 *
 * Context: process (bind(), connect(), sendmsg()); does not sleep.
 * Return: 0, -EPERM if the job exists and is not the caller's, -ENOENT if
 * there is no such job.
 */
int uet_job_may_bind(struct net *net, u32 id)
{
	struct uet_job *job;
	int err = -ENOENT;

	rcu_read_lock();
	job = xa_load(&uet_job_net(net)->jobs, id);
	if (job)
		err = uet_job_cred_match(job) ? 0 : -EPERM;
	rcu_read_unlock();
	if (err && ns_capable(net->user_ns, CAP_NET_ADMIN))
		err = 0;
	return err;
}

static int __net_init uet_job_net_init(struct net *net)
{
	struct uet_job_net *jn = uet_job_net(net);

	mutex_init(&jn->lock);
	xa_init(&jn->jobs);
	return 0;
}

static void __net_exit uet_job_net_exit(struct net *net)
{
	struct uet_job_net *jn = uet_job_net(net);
	struct uet_job *job;
	unsigned long id;

	/* Nobody binds or asks any more; the module's exit waits for RCU. */
	xa_for_each(&jn->jobs, id, job)
		kfree_rcu(job, rcu);
	xa_destroy(&jn->jobs);
}

static struct pernet_operations uet_job_net_ops = {
	.init	= uet_job_net_init,
	.exit	= uet_job_net_exit,
	.id	= &uet_job_net_id,
	.size	= sizeof(struct uet_job_net),
};

/**
 * uet_job_init() - set up the job tables of every namespace
 *
 * Return: 0 or a negative errno from register_pernet_subsys().
 */
int uet_job_init(void)
{
	return register_pernet_subsys(&uet_job_net_ops);
}

/**
 * uet_job_exit() - free the job tables of every namespace
 *
 * Context: process; may sleep.
 */
void uet_job_exit(void)
{
	unregister_pernet_subsys(&uet_job_net_ops);
}
