// SPDX-License-Identifier: GPL-2.0
/*
 * uet: the AF_UET socket family.  SOCK_RDM sockets send and receive whole
 * messages; the endpoint table maps (job, endpoint) to the bound socket.
 *
 * Memory: a message being sent is charged to the sender's send budget
 * (uet_sock.wmem against SO_SNDBUF) from sendmsg() until every packet of
 * it is acknowledged; a message being received is charged to the
 * receiver's sk_rmem_alloc, page by page as its bytes arrive (or as the
 * truesize of the one packet kept as it), until recvmsg() takes it, and
 * to the namespace's rx-mem and the receiver's memory cgroup, within room
 * reserved for it whole against SO_RCVBUF when it starts.  Neither side
 * goes over its buffer: a message that can never fit SO_SNDBUF fails in
 * sendmsg() with EMSGSIZE, one that can never fit the receiver's
 * SO_RCVBUF is refused for good (its sender gets EMSGSIZE on its error
 * queue).  Since a message must fit whole, a new socket
 * takes its SO_SNDBUF and SO_RCVBUF from the namespace's sndbuf and
 * rcvbuf, as TCP takes tcp_wmem[1] and tcp_rmem[1], rather than from
 * wmem_default and rmem_default; setsockopt() overrides them.  What
 * sendmsg() allocates is charged to the sender's memory cgroup.
 */
#include <linux/errno.h>
#include <linux/hash.h>
#include <linux/module.h>
#include <linux/net.h>
#include <linux/poll.h>
#include <linux/random.h>
#include <linux/sched/signal.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/socket.h>
#include <linux/uio.h>
#include <asm/ioctls.h>
#include <net/addrconf.h>
#include <net/ipv6.h>
#include <net/route.h>
#include <net/sock.h>
#include <uet/config.h>
#include <uet/job.h>
#include <uet/msg.h>
#include <uet/net.h>
#include <uet/pdc.h>
#include <uet/route.h>
#include <uet/sock.h>
#include <uet/stats.h>

/*
 * Socket memory accounting (sk_rmem_schedule()) for what the receive path
 * keeps as it came: the packets a message holds (uet_sock_rx_keep()).
 * It charges the socket's memory cgroup, as UDP does for its datagrams;
 * pages the receive path allocates are charged there as they are
 * allocated (__GFP_ACCOUNT).  The namespace's rx-mem is the limit: the
 * protocol-wide one is never reached, so none of the core's memory
 * pressure applies.
 */
static atomic_long_t uet_memory_allocated;
static DEFINE_PER_CPU(int, uet_memory_per_cpu_fw_alloc);
static long uet_sysctl_mem[3] = { LONG_MAX, LONG_MAX, LONG_MAX };
static int uet_sysctl_rmem[3] = { SOCK_MIN_RCVBUF, UET_SOCKBUF_MIN,
				  UET_SOCKBUF_MIN };

static struct proto uet_proto = {
	.name			= "UET",
	.owner			= THIS_MODULE,
	.obj_size		= sizeof(struct uet_sock),
	.memory_allocated	= &uet_memory_allocated,
	.per_cpu_fw_alloc	= &uet_memory_per_cpu_fw_alloc,
	.sysctl_mem		= uet_sysctl_mem,
	.sysctl_rmem		= uet_sysctl_rmem,
};

static const struct proto_ops uet_ops;

static u64 uet_ep_key(u32 job, u16 ep)
{
	return ((u64)job << 12) | ep;
}

/**
 * uet_sock_net_init() - set up a namespace's endpoint table
 * @un: the namespace
 */
void uet_sock_net_init(struct uet_net *un)
{
	spin_lock_init(&un->ep_lock);
	hash_init(un->ep_hash);
}

static struct uet_sock *uet_ep_find(struct uet_net *un, u32 job, u16 ep)
{
	struct uet_sock *us;

	hash_for_each_possible_rcu(un->ep_hash, us, ep_node,
				   uet_ep_key(job, ep))
		if (us->job == job && us->ep == ep)
			return us;
	return NULL;
}

/**
 * uet_ep_get() - the socket bound to an endpoint, for a packet to it
 * @un: the namespace
 * @job: the packet's job id
 * @ep: the packet's destination endpoint
 * @daddr: the packet's destination address
 *
 * Context: rcu_read_lock() held.
 * Return: the socket with a reference held, or NULL when no socket is
 * bound to (@job, @ep) on @daddr or on any address.
 */
struct sock *uet_ep_get(struct uet_net *un, u32 job, u16 ep,
			const struct in6_addr *daddr)
{
	struct uet_sock *us = uet_ep_find(un, job, ep);

	if (!us)
		return NULL;
	if (!ipv6_addr_any(&us->laddr) && !ipv6_addr_equal(&us->laddr, daddr))
		return NULL;
	if (!refcount_inc_not_zero(&us->sk.sk_refcnt))
		return NULL;
	return &us->sk;
}

/* Insert @us at (@job, @ep), or at a free ephemeral endpoint if @ep is 0. */
static int uet_ep_hash(struct uet_net *un, struct uet_sock *us, u32 job,
		       u16 ep)
{
	u32 span = UET_EP_MAX - UET_EP_EPHEMERAL_MIN + 1;
	u32 i, first = get_random_u32_below(span);
	int err = 0;

	spin_lock_bh(&un->ep_lock);
	if (ep) {
		if (uet_ep_find(un, job, ep))
			err = -EADDRINUSE;
	} else {
		err = -EADDRNOTAVAIL;
		for (i = 0; i < span; i++) {
			u16 cand = UET_EP_EPHEMERAL_MIN + (first + i) % span;

			if (!uet_ep_find(un, job, cand)) {
				ep = cand;
				err = 0;
				break;
			}
		}
	}
	if (!err) {
		us->job = job;
		us->ep = ep;
		hash_add_rcu(un->ep_hash, &us->ep_node, uet_ep_key(job, ep));
	}
	spin_unlock_bh(&un->ep_lock);
	return err;
}

static void uet_ep_unhash(struct uet_net *un, struct uet_sock *us)
{
	spin_lock_bh(&un->ep_lock);
	hash_del_rcu(&us->ep_node);
	spin_unlock_bh(&un->ep_lock);
}

/**
 * uet_addr_to_sockaddr() - build a struct sockaddr_uet
 * @a: the address (IPv4 as v4-mapped IPv6)
 * @job: job id
 * @ep: endpoint id
 * @sa: filled in
 */
void uet_addr_to_sockaddr(const struct in6_addr *a, u32 job, u16 ep,
			  struct sockaddr_uet *sa)
{
	memset(sa, 0, sizeof(*sa));
	sa->suet_family = AF_UET;
	sa->suet_job = job;
	sa->suet_ep = ep;
	if (ipv6_addr_v4mapped(a)) {
		sa->suet_ip_family = AF_INET;
		sa->suet_addr4.s_addr = a->s6_addr32[3];
	} else {
		sa->suet_ip_family = AF_INET6;
		sa->suet_addr6 = *a;
	}
}

/*
 * Check a user address and convert its IP address to IPv6 form.  A bind
 * address may be AF_UNSPEC (any) and endpoint 0 (pick one); a destination
 * must name a unicast address and an endpoint.
 */
static int uet_addr_get(const struct sockaddr *uaddr, int len, bool bind,
			struct sockaddr_uet *sa, struct in6_addr *a)
{
	if (len < (int)sizeof(*sa))
		return -EINVAL;
	memcpy(sa, uaddr, sizeof(*sa));
	if (sa->suet_family != AF_UET)
		return -EAFNOSUPPORT;
	if (sa->suet_job > UET_JOB_MAX || sa->suet_ep > UET_EP_MAX ||
	    sa->__suet_pad || sa->suet_scope_id ||
	    (!bind && sa->suet_ep == UET_EP_ANY))
		return -EINVAL;

	switch (sa->suet_ip_family) {
	case AF_UNSPEC:
		if (!bind)
			return -EINVAL;
		*a = in6addr_any;
		return 0;
	case AF_INET:
		if (!bind && (ipv4_is_multicast(sa->suet_addr4.s_addr) ||
			      ipv4_is_lbcast(sa->suet_addr4.s_addr) ||
			      ipv4_is_zeronet(sa->suet_addr4.s_addr)))
			return -EINVAL;
		ipv6_addr_set_v4mapped(sa->suet_addr4.s_addr, a);
		return 0;
	case AF_INET6:
		if (!bind && (ipv6_addr_any(&sa->suet_addr6) ||
			      ipv6_addr_is_multicast(&sa->suet_addr6)))
			return -EINVAL;
		/* Link-local scopes are not kept in a PDC: global only. */
		if (ipv6_addr_type(&sa->suet_addr6) & IPV6_ADDR_LINKLOCAL)
			return -EINVAL;
		*a = sa->suet_addr6;
		return 0;
	}
	return -EAFNOSUPPORT;
}

static bool uet_addr_is_local(struct net *net, const struct in6_addr *a)
{
	if (ipv6_addr_any(a))
		return true;
	if (ipv6_addr_v4mapped(a))
		return inet_addr_type(net, a->s6_addr32[3]) == RTN_LOCAL;
#if IS_ENABLED(CONFIG_IPV6)
	return ipv6_chk_addr(net, a, NULL, 0);
#else
	return false;
#endif
}

/*
 * Bind @us: caller holds lock_sock().  Every bind, explicit or implicit
 * (connect(), sendmsg()), is checked against the job: see
 * uet_job_may_bind().
 */
static int uet_do_bind(struct uet_sock *us, const struct in6_addr *a,
		       u16 ip_family, u32 job, u16 ep)
{
	struct net *net = sock_net(&us->sk);
	int err;

	if (us->bound)
		return -EINVAL;
	if (!uet_addr_is_local(net, a))
		return -EADDRNOTAVAIL;
	err = uet_job_may_bind(net, job);
	if (err)
		return err;
	us->laddr = *a;
	us->ip_family = ip_family;
	err = uet_ep_hash(uet_net(net), us, job, ep);
	if (err)
		return err;
	us->bound = true;
	return 0;
}

static int uet_bind(struct socket *sock, struct sockaddr *uaddr, int len)
{
	struct uet_sock *us = uet_sk(sock->sk);
	struct sockaddr_uet sa;
	struct in6_addr a;
	int err;

	err = uet_addr_get(uaddr, len, true, &sa, &a);
	if (err)
		return err;
	lock_sock(&us->sk);
	err = uet_do_bind(us, &a, sa.suet_ip_family, sa.suet_job, sa.suet_ep);
	release_sock(&us->sk);
	return err;
}

/* Give an unbound socket an ephemeral endpoint in the job of @dst. */
static int uet_autobind(struct uet_sock *us, const struct sockaddr_uet *dst)
{
	if (us->bound)
		return 0;
	return uet_do_bind(us, &in6addr_any, AF_UNSPEC, dst->suet_job, 0);
}

/* May a socket bound as @us send to @a in @job? */
static int uet_dst_check(const struct uet_sock *us, const struct in6_addr *a,
			 u32 job)
{
	if (job != us->job)
		return -EINVAL;
	if (!ipv6_addr_any(&us->laddr) &&
	    ipv6_addr_v4mapped(&us->laddr) != ipv6_addr_v4mapped(a))
		return -EAFNOSUPPORT;
	if (us->ip_family == AF_INET && !ipv6_addr_v4mapped(a))
		return -EAFNOSUPPORT;
	if (us->ip_family == AF_INET6 && ipv6_addr_v4mapped(a))
		return -EAFNOSUPPORT;
	return 0;
}

static int uet_connect(struct socket *sock, struct sockaddr *uaddr, int len,
		       int flags)
{
	struct uet_sock *us = uet_sk(sock->sk);
	struct sockaddr_uet sa;
	struct in6_addr a;
	int err;

	if (len >= (int)sizeof(sa_family_t) && uaddr->sa_family == AF_UNSPEC) {
		lock_sock(&us->sk);
		us->connected = false;
		sock->state = SS_UNCONNECTED;
		release_sock(&us->sk);
		return 0;
	}
	err = uet_addr_get(uaddr, len, false, &sa, &a);
	if (err)
		return err;
	lock_sock(&us->sk);
	err = uet_autobind(us, &sa);
	if (!err)
		err = uet_dst_check(us, &a, sa.suet_job);
	if (!err) {
		us->peer = sa;
		us->connected = true;
		sock->state = SS_CONNECTED;
	}
	release_sock(&us->sk);
	return err;
}

static int uet_getname(struct socket *sock, struct sockaddr *uaddr, int peer)
{
	struct uet_sock *us = uet_sk(sock->sk);
	struct sockaddr_uet *sa = (struct sockaddr_uet *)uaddr;
	int err = sizeof(*sa);

	lock_sock(&us->sk);
	if (peer) {
		if (us->connected)
			*sa = us->peer;
		else
			err = -ENOTCONN;
	} else {
		uet_addr_to_sockaddr(&us->laddr, us->job, us->ep, sa);
		if (ipv6_addr_any(&us->laddr))
			sa->suet_ip_family = us->ip_family;
	}
	release_sock(&us->sk);
	return err;
}

/*
 * Is there room for @charge now?  Also true once SEND_SHUTDOWN is set, so
 * that a waiting sender wakes up to fail.
 */
static bool uet_sndbuf_ok(struct uet_sock *us, u32 charge)
{
	return (u64)atomic_read(&us->wmem) + charge <=
	       (u64)READ_ONCE(us->sk.sk_sndbuf) ||
	       (READ_ONCE(us->sk.sk_shutdown) & SEND_SHUTDOWN);
}

/* Can a message charged @charge ever be sent, with nothing else charged? */
static bool uet_sndbuf_fits(struct uet_sock *us, u32 charge)
{
	return charge <= (u32)READ_ONCE(us->sk.sk_sndbuf);
}

static int uet_wait_sndbuf(struct uet_sock *us, u32 charge, long *timeo)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	struct sock *sk = &us->sk;
	int err = 0;

	add_wait_queue(sk_sleep(sk), &wait);
	while (!uet_sndbuf_ok(us, charge)) {
		/* SO_SNDBUF lowered meanwhile below what the message needs */
		if (!uet_sndbuf_fits(us, charge)) {
			err = -EMSGSIZE;
			break;
		}
		if (!*timeo) {
			err = -EAGAIN;
			break;
		}
		if (signal_pending(current)) {
			err = sock_intr_errno(*timeo);
			break;
		}
		sk_wait_event(sk, timeo, uet_sndbuf_ok(us, charge), &wait);
	}
	remove_wait_queue(sk_sleep(sk), &wait);
	return err;
}

/* The most pages @sk's ring may keep: its send buffer's worth. */
static u32 uet_sock_ring_max(const struct sock *sk)
{
	return (u32)READ_ONCE(sk->sk_sndbuf) >> PAGE_SHIFT;
}

static u32 uet_tx_charge(u32 len)
{
	return uet_buf_truesize(len) + sizeof(struct uet_tx_msg);
}

static struct uet_tx_msg *uet_tx_msg_alloc(struct uet_sock *us,
					   struct msghdr *msg, u32 len,
					   const struct sockaddr_uet *dst)
{
	size_t embed = uet_buf_embed_size(len);
	struct uet_page_ring *r;
	struct uet_tx_msg *m;
	int err = -ENOBUFS;
	u32 reused = 0;

	/* A message shorter than a page holds its buffer: one allocation. */
	m = kzalloc(sizeof(*m) + embed, GFP_KERNEL_ACCOUNT);
	if (!m)
		return ERR_PTR(err);
	if (len >= PAGE_SIZE && !us->pages) {
		r = uet_page_ring_alloc(GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
		WRITE_ONCE(us->pages, r);
	}
	if (embed) {
		m->buf = (struct uet_buf *)(m + 1);
		if (uet_buf_init_shared(m->buf, len, sk_page_frag(&us->sk),
					GFP_KERNEL_ACCOUNT))
			m->buf = NULL;
	} else {
		m->buf = uet_buf_alloc(len, sk_page_frag(&us->sk), us->pages,
				       &reused, GFP_KERNEL_ACCOUNT);
	}
	if (m->buf)
		err = uet_buf_from_iter(m->buf, &msg->msg_iter);
	if (err) {
		uet_buf_free(m->buf, us->pages, uet_sock_ring_max(&us->sk));
		kfree(m);
		return ERR_PTR(err);
	}
	if (reused)
		uet_stat_add(uet_net(sock_net(&us->sk)), UET_STAT_TX_PAGES_REUSED,
			     reused);
	INIT_LIST_HEAD(&m->node);
	INIT_LIST_HEAD(&m->sq_node);
	m->charge = uet_tx_charge(len);
	m->seq = us->tx_seq;
	m->job = us->job;
	m->src_ep = us->ep;
	m->dst_ep = dst->suet_ep;
	m->sk = &us->sk;
	return m;
}

/**
 * uet_tx_msg_free() - release a message that is done or given up
 * @m: the message, off every PDC list
 *
 * Context: any; may run under a PDC lock.
 */
void uet_tx_msg_free(struct uet_tx_msg *m)
{
	struct sock *sk = m->sk;
	struct uet_page_ring *r = READ_ONCE(uet_sk(sk)->pages);
	bool dead = sock_flag(sk, SOCK_DEAD);
	int left;

	left = atomic_sub_return(m->charge, &uet_sk(sk)->wmem);
	sk->sk_write_space(sk);
	/* A closed socket sends nothing more: its pages go at once. */
	uet_buf_free(m->buf, r, dead ? 0 : uet_sock_ring_max(sk));
	/*
	 * The last in flight: the ring goes if nothing follows soon.  The
	 * timer's reference is taken before it is armed, not after as
	 * sk_reset_timer() does: this runs without the socket's lock, and a
	 * release stopping the timer in between would drop a reference not
	 * yet taken, the socket's last.
	 */
	if (!left && r && !dead) {
		sock_hold(sk);
		if (mod_timer(&sk->sk_timer, jiffies + UET_RING_IDLE))
			__sock_put(sk);	/* it was armed: it holds one */
		/* Closed meanwhile, after release stopped the timer. */
		if (sock_flag(sk, SOCK_DEAD))
			sk_stop_timer(sk, &sk->sk_timer);
	}
	kfree(m);
	sock_put(sk);
}

/*
 * sk_timer: no message of the socket has been in flight for UET_RING_IDLE
 * (each one that was the last re-armed it), unless one is now.
 */
static void uet_sock_ring_idle(struct timer_list *t)
{
	struct sock *sk = from_timer(sk, t, sk_timer);
	struct uet_sock *us = uet_sk(sk);
	u32 n;

	if (!atomic_read(&us->wmem)) {
		n = uet_page_ring_drain(READ_ONCE(us->pages));
		if (n)
			uet_stat_add(uet_net(sock_net(sk)),
				     UET_STAT_TX_PAGES_RELEASED, n);
	}
	sock_put(sk);
}

/*
 * What moves when an address of @net comes, goes or changes state: an
 * IPv6 route's cookie does not move when an address is added, completes
 * DAD or is deprecated, though the source a lookup picks may change.
 */
static u32 uet_sock_addr_genid(const struct net *net)
{
	u32 genid = atomic_read(&net->ipv4.dev_addr_genid);

#if IS_ENABLED(CONFIG_IPV6)
	genid += atomic_read(&net->ipv6.dev_addr_genid);
#endif
	return genid;
}

/*
 * The source address of a message to @daddr from a socket bound to the
 * wildcard address: the one the route to the socket's last destination
 * chose while that route stands (dst_check()) and no address changed,
 * else a FIB lookup's, whose route the socket then keeps in
 * sk_dst_cache.  Messages to one peer cost one lookup, not one each.
 * Under lock_sock().
 */
static int uet_sock_saddr(struct uet_sock *us, const struct in6_addr *daddr,
			  struct in6_addr *saddr)
{
	struct sock *sk = &us->sk;
	struct net *net = sock_net(sk);
	struct uet_net *un = uet_net(net);
	u32 genid = uet_sock_addr_genid(net);
	u16 dport = READ_ONCE(un->udp_port);
	struct dst_entry *dst;

	if (ipv6_addr_equal(daddr, &us->route_daddr) &&
	    genid == us->route_genid && dport == us->route_dport &&
	    __sk_dst_check(sk, us->route_cookie)) {
		*saddr = us->route_saddr;
		return 0;
	}
	dst = uet_tx_saddr(un, daddr, saddr);
	if (IS_ERR(dst))
		return PTR_ERR(dst);
	us->route_daddr = *daddr;
	us->route_saddr = *saddr;
	us->route_cookie = uet_route_cookie(dst);
	us->route_genid = genid;
	us->route_dport = dport;
	sk_dst_set(sk, dst);
	return 0;
}

static int uet_sendmsg(struct socket *sock, struct msghdr *msg, size_t len)
{
	struct sock *sk = sock->sk;
	struct uet_sock *us = uet_sk(sk);
	struct uet_net *un = uet_net(sock_net(sk));
	struct in6_addr daddr, saddr;
	struct sockaddr_uet dst;
	struct uet_tx_msg *m;
	long timeo;
	int err;

	/* sendmmsg() adds MSG_BATCH, a 32-bit caller MSG_CMSG_COMPAT */
	if (msg->msg_flags & ~(MSG_DONTWAIT | MSG_NOSIGNAL | MSG_EOR |
			       MSG_BATCH | MSG_CMSG_COMPAT))
		return -EOPNOTSUPP;
	if (len > UET_MSG_MAX)
		return -EMSGSIZE;

	lock_sock(sk);
	if (msg->msg_name) {
		err = uet_addr_get(msg->msg_name, msg->msg_namelen, false,
				   &dst, &daddr);
		if (err)
			goto out;
	} else if (us->connected) {
		dst = us->peer;
		err = uet_addr_get((struct sockaddr *)&dst, sizeof(dst), false,
				   &dst, &daddr);
		if (err)
			goto out;
	} else {
		err = -EDESTADDRREQ;
		goto out;
	}
	err = uet_autobind(us, &dst);
	if (err)
		goto out;
	err = uet_dst_check(us, &daddr, dst.suet_job);
	if (err)
		goto out;

	saddr = us->laddr;
	if (ipv6_addr_any(&saddr)) {
		err = uet_sock_saddr(us, &daddr, &saddr);
		if (err)
			goto out;
	}

	err = -EMSGSIZE;
	if (!uet_sndbuf_fits(us, uet_tx_charge(len)))
		goto out;
	timeo = sock_sndtimeo(sk, msg->msg_flags & MSG_DONTWAIT);
	err = uet_wait_sndbuf(us, uet_tx_charge(len), &timeo);
	if (err)
		goto out;
	err = -EPIPE;
	if (READ_ONCE(sk->sk_shutdown) & SEND_SHUTDOWN)
		goto out_pipe;

	m = uet_tx_msg_alloc(us, msg, len, &dst);
	if (IS_ERR(m)) {
		err = PTR_ERR(m);
		goto out;
	}
	atomic_add(m->charge, &us->wmem);
	sock_hold(sk);

	err = uet_tx_send(un, m, &saddr, &daddr);
	if (err) {
		uet_tx_msg_free(m);
		goto out;
	}
	us->tx_seq++;
	uet_stat_inc(un, UET_STAT_TX_MSGS);
	err = len;
out:
	release_sock(sk);
	return err;
out_pipe:
	release_sock(sk);
	if (!(msg->msg_flags & MSG_NOSIGNAL))
		send_sig(SIGPIPE, current, 0);
	return err;
}

/* Bytes a received message of @len bytes takes once whole. */
static u32 uet_rx_reserve_size(u32 len)
{
	return sizeof(struct uet_rx_msg) + uet_rbuf_size(len) +
	       round_up(len, PAGE_SIZE);
}

/**
 * uet_sock_rx_reserve() - reserve room for a message about to be received
 * @sk: the receiving socket
 * @len: the message's length
 *
 * Its whole size is reserved against SO_RCVBUF before its first byte is
 * taken, so that partial messages cannot fill the buffer and wait for
 * each other forever; its memory is charged to sk_rmem_alloc as it is
 * allocated.  No message goes over SO_RCVBUF: one that would not fit an
 * empty buffer can never be taken.
 *
 * Context: any.
 * Return: 0 when reserved; -ENOBUFS when the receive buffer is too full
 * now; -E2BIG when the message is larger than the buffer can ever hold.
 */
int uet_sock_rx_reserve(struct sock *sk, u32 len)
{
	atomic_t *r = &uet_sk(sk)->rx_reserved;
	u32 add = uet_rx_reserve_size(len);
	int rcvbuf = READ_ONCE(sk->sk_rcvbuf);

	if (add > (u32)rcvbuf)
		return -E2BIG;
	if (atomic_add_return(add, r) <= rcvbuf)
		return 0;
	atomic_sub(add, r);
	return -ENOBUFS;
}

/**
 * uet_sock_rx_unreserve() - give back what uet_sock_rx_reserve() took
 * @sk: the receiving socket
 * @len: the message's length
 *
 * Context: any.
 */
void uet_sock_rx_unreserve(struct sock *sk, u32 len)
{
	atomic_sub(uet_rx_reserve_size(len), &uet_sk(sk)->rx_reserved);
}

/**
 * uet_sock_rx_keep() - reserve and charge what a message may keep
 * @sk: the receiving socket
 * @skb: the message's first packet
 * @max: the most its kept packets may take (uet_rbuf_keep_budget())
 * @over: what to reserve against SO_RCVBUF beyond the message's pages
 *
 * Reserves @over against SO_RCVBUF and charges @max to the socket's
 * memory accounting, and so to its memory cgroup, at once for the whole
 * message, so that no packet after the first takes a lock for it.
 * sk_forward_alloc is kept under uet_sock.rxq_lock, as UDP keeps it under
 * its receive queue's lock (the socket lock is not taken in softirq).
 *
 * Context: softirq, under the receiving PDC's lock.
 * Return: 0; -ENOBUFS when either refuses (nothing is charged).
 */
int uet_sock_rx_keep(struct sock *sk, struct sk_buff *skb, u32 max, u32 over)
{
	struct uet_sock *us = uet_sk(sk);
	bool ok;

	if (over && atomic_add_return(over, &us->rx_reserved) >
		    READ_ONCE(sk->sk_rcvbuf)) {
		atomic_sub(over, &us->rx_reserved);
		return -ENOBUFS;
	}
	spin_lock(&us->rxq_lock);
	ok = sk_rmem_schedule(sk, skb, max);
	if (ok)
		sk_mem_charge(sk, max);
	spin_unlock(&us->rxq_lock);
	if (ok)
		return 0;
	atomic_sub(over, &us->rx_reserved);
	return -ENOBUFS;
}

/* Give back what uet_sock_rx_keep() took. */
static void uet_sock_rx_unkeep(struct sock *sk, u32 max, u32 over)
{
	struct uet_sock *us = uet_sk(sk);

	spin_lock_bh(&us->rxq_lock);
	sk_mem_uncharge(sk, max);
	spin_unlock_bh(&us->rxq_lock);
	atomic_sub(over, &us->rx_reserved);
}

/**
 * uet_rx_msg_release() - give back what a received message holds
 * @m: the message; its socket and bytes are released, @m itself stays
 *	(a tombstone, or to be freed)
 *
 * Context: any.
 */
void uet_rx_msg_release(struct uet_rx_msg *m)
{
	struct sock *sk = m->sk;

	if (!sk)
		return;
	percpu_counter_sub(&uet_net(sock_net(sk))->rx_mem,
			   m->buf->npages +
			   DIV_ROUND_UP(m->buf->kept_size, PAGE_SIZE));
	atomic_sub(m->charge, &sk->sk_rmem_alloc);
	if (m->buf->keep_max)
		uet_sock_rx_unkeep(sk, m->buf->keep_max, m->buf->keep_over);
	uet_sock_rx_unreserve(sk, m->buf->len);
	uet_rbuf_free(m->buf);
	m->buf = NULL;
	m->sk = NULL;
	m->charge = 0;
	sock_put(sk);
}

/**
 * uet_rx_msg_free() - release and free a received message
 * @m: the message, on no list
 *
 * Context: any.
 */
void uet_rx_msg_free(struct uet_rx_msg *m)
{
	uet_rx_msg_release(m);
	kfree(m);
}

/**
 * uet_sock_deliver() - hand a complete message to its socket
 * @m: the message; the socket takes it, or it is freed if the socket is
 *	closing
 *
 * Context: softirq, under the receiving PDC's lock.
 */
void uet_sock_deliver(struct uet_rx_msg *m)
{
	struct sock *sk = m->sk;
	struct uet_sock *us = uet_sk(sk);
	bool dead;

	spin_lock(&us->rxq_lock);
	dead = sock_flag(sk, SOCK_DEAD);
	if (!dead)
		list_add_tail(&m->qnode, &us->rxq);
	spin_unlock(&us->rxq_lock);
	if (dead) {
		uet_rx_msg_free(m);
		return;
	}
	uet_stat_inc(uet_net(sock_net(sk)), UET_STAT_RX_MSGS);
	sk->sk_data_ready(sk);
}

static struct uet_rx_msg *uet_rxq_pop(struct uet_sock *us)
{
	struct uet_rx_msg *m;

	spin_lock_bh(&us->rxq_lock);
	m = list_first_entry_or_null(&us->rxq, struct uet_rx_msg, qnode);
	if (m)
		list_del(&m->qnode);
	spin_unlock_bh(&us->rxq_lock);
	return m;
}

static void uet_rxq_purge(struct uet_sock *us)
{
	struct uet_rx_msg *m;

	while ((m = uet_rxq_pop(us)))
		uet_rx_msg_free(m);
}

static struct uet_rx_msg *uet_rxq_wait(struct uet_sock *us, long timeo,
				       int *err)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	struct sock *sk = &us->sk;
	struct uet_rx_msg *m;

	add_wait_queue(sk_sleep(sk), &wait);
	for (;;) {
		m = uet_rxq_pop(us);
		if (m)
			break;
		*err = 0;
		if (READ_ONCE(sk->sk_shutdown) & RCV_SHUTDOWN)
			break;
		*err = -EAGAIN;
		if (!timeo)
			break;
		*err = sock_intr_errno(timeo);
		if (signal_pending(current))
			break;
		timeo = wait_woken(&wait, TASK_INTERRUPTIBLE, timeo);
	}
	remove_wait_queue(sk_sleep(sk), &wait);
	return m;
}

static int uet_recv_err(struct sock *sk, struct msghdr *msg)
{
	struct uet_msg_err rec;
	struct sk_buff *skb;
	int err;

	skb = sock_dequeue_err_skb(sk);
	if (!skb)
		return -EAGAIN;
	memcpy(&rec, skb->data, sizeof(rec));
	consume_skb(skb);
	if (msg->msg_name) {
		memcpy(msg->msg_name, &rec.ue_dst, sizeof(rec.ue_dst));
		msg->msg_namelen = sizeof(rec.ue_dst);
	}
	err = put_cmsg(msg, SOL_UET, UET_CMSG_MSG_ERR, sizeof(rec), &rec);
	if (err)
		return err;
	msg->msg_flags |= MSG_ERRQUEUE;
	return 0;
}

static int uet_recvmsg(struct socket *sock, struct msghdr *msg, size_t size,
		       int flags)
{
	struct sock *sk = sock->sk;
	struct uet_sock *us = uet_sk(sk);
	struct uet_rx_msg *m;
	u32 len, copy;
	int err;

	/* no file descriptor is ever passed: MSG_CMSG_CLOEXEC changes nothing */
	if (flags & ~(MSG_DONTWAIT | MSG_TRUNC | MSG_ERRQUEUE | MSG_WAITALL |
		      MSG_CMSG_COMPAT | MSG_CMSG_CLOEXEC))
		return -EOPNOTSUPP;
	if (flags & MSG_ERRQUEUE)
		return uet_recv_err(sk, msg);

	m = uet_rxq_wait(us, sock_rcvtimeo(sk, flags & MSG_DONTWAIT), &err);
	if (!m)
		return err;

	len = m->buf->len;
	copy = min_t(size_t, size, len);
	err = uet_rbuf_to_iter(m->buf, copy, &msg->msg_iter);
	if (err) {
		/* Nothing was taken: the message stays first in line. */
		spin_lock_bh(&us->rxq_lock);
		list_add(&m->qnode, &us->rxq);
		spin_unlock_bh(&us->rxq_lock);
		return err;
	}
	if (copy < len)
		msg->msg_flags |= MSG_TRUNC;
	if (msg->msg_name) {
		uet_addr_to_sockaddr(&m->src, m->job, m->src_ep,
				     msg->msg_name);
		msg->msg_namelen = sizeof(struct sockaddr_uet);
	}
	uet_rx_msg_free(m);
	return flags & MSG_TRUNC ? len : copy;
}

/**
 * uet_sock_tx_error() - report a message given up to its socket
 * @m: the message
 * @dst: its destination address
 * @err: why (positive errno)
 *
 * Queues a struct uet_msg_err on the error queue and sets the socket
 * error; when the error queue has no room, the socket error alone tells.
 *
 * Context: any; under the PDC lock.
 */
void uet_sock_tx_error(struct uet_tx_msg *m, const struct in6_addr *dst,
		       int err)
{
	struct sock *sk = m->sk;
	struct uet_msg_err *rec;
	struct sk_buff *skb;

	if (sock_flag(sk, SOCK_DEAD))
		return;
	WRITE_ONCE(sk->sk_err, err);
	skb = alloc_skb(sizeof(*rec), GFP_ATOMIC);
	if (skb) {
		rec = skb_put_zero(skb, sizeof(*rec));
		rec->ue_errno = err;
		rec->ue_seq = m->seq;
		rec->ue_len = m->buf->len;
		uet_addr_to_sockaddr(dst, m->job, m->dst_ep, &rec->ue_dst);
		if (!sock_queue_err_skb(sk, skb))
			return;
		kfree_skb(skb);
	}
	sk_error_report(sk);
}

static __poll_t uet_poll(struct file *file, struct socket *sock,
			 poll_table *wait)
{
	struct sock *sk = sock->sk;
	struct uet_sock *us = uet_sk(sk);
	u8 shutdown = READ_ONCE(sk->sk_shutdown);
	__poll_t mask = 0;

	sock_poll_wait(file, sock, wait);
	if (READ_ONCE(sk->sk_err) ||
	    !skb_queue_empty_lockless(&sk->sk_error_queue))
		mask |= EPOLLERR;
	if (shutdown & RCV_SHUTDOWN)
		mask |= EPOLLRDHUP | EPOLLIN | EPOLLRDNORM;
	if (shutdown == SHUTDOWN_MASK)
		mask |= EPOLLHUP;
	if (!list_empty_careful(&us->rxq))
		mask |= EPOLLIN | EPOLLRDNORM;
	if (atomic_read(&us->wmem) < READ_ONCE(sk->sk_sndbuf))
		mask |= EPOLLOUT | EPOLLWRNORM | EPOLLWRBAND;
	return mask;
}

/*
 * SIOCINQ: length of the next message to receive (0: none).
 * SIOCOUTQ: bytes charged for messages sent and not yet acknowledged
 * whole (0: everything sent was delivered or reported on the error queue).
 */
static int uet_ioctl(struct socket *sock, unsigned int cmd, unsigned long arg)
{
	struct uet_sock *us = uet_sk(sock->sk);
	struct uet_rx_msg *m;
	int n = 0;

	switch (cmd) {
	case SIOCINQ:
		spin_lock_bh(&us->rxq_lock);
		m = list_first_entry_or_null(&us->rxq, struct uet_rx_msg,
					     qnode);
		if (m)
			n = m->buf->len;
		spin_unlock_bh(&us->rxq_lock);
		break;
	case SIOCOUTQ:
		n = atomic_read(&us->wmem);
		break;
	default:
		return -ENOIOCTLCMD;
	}
	return put_user(n, (int __user *)arg);
}

static int uet_shutdown(struct socket *sock, int how)
{
	struct sock *sk = sock->sk;

	how++;	/* SHUT_RD/WR/RDWR to RCV/SEND_SHUTDOWN bits */
	if (how & ~SHUTDOWN_MASK || !how)
		return -EINVAL;
	lock_sock(sk);
	WRITE_ONCE(sk->sk_shutdown, sk->sk_shutdown | how);
	release_sock(sk);
	sk->sk_state_change(sk);
	return 0;
}

static int uet_setsockopt(struct socket *sock, int level, int optname,
			  sockptr_t optval, unsigned int optlen)
{
	return -ENOPROTOOPT;
}

static int uet_getsockopt(struct socket *sock, int level, int optname,
			  char __user *optval, int __user *optlen)
{
	return -ENOPROTOOPT;
}

static int uet_release(struct socket *sock)
{
	struct sock *sk = sock->sk;
	struct uet_sock *us;

	if (!sk)
		return 0;
	us = uet_sk(sk);
	lock_sock(sk);
	if (us->bound)
		uet_ep_unhash(uet_net(sock_net(sk)), us);
	us->bound = false;
	WRITE_ONCE(sk->sk_shutdown, SHUTDOWN_MASK);
	sock_orphan(sk);
	release_sock(sk);
	/* Its ring goes with it, idle or not. */
	sk_stop_timer(sk, &sk->sk_timer);

	/* SOCK_DEAD is set: no message is delivered from here on. */
	uet_rxq_purge(us);
	skb_queue_purge(&sk->sk_error_queue);
	sock->sk = NULL;
	/* Messages in flight hold their own references and finish alone. */
	sock_put(sk);
	return 0;
}

static void uet_sock_destruct(struct sock *sk)
{
	struct uet_sock *us = uet_sk(sk);

	skb_queue_purge(&sk->sk_error_queue);
	uet_rxq_purge(us);
	/* The route uet_sock_saddr() kept. */
	dst_release(rcu_dereference_protected(sk->sk_dst_cache, 1));
	WARN_ON_ONCE(atomic_read(&sk->sk_rmem_alloc));
	/* Every kept packet went back; what SO_RESERVE_MEM took (6.1) goes. */
	sk_mem_reclaim_final(sk);
	WARN_ON_ONCE(atomic_read(&us->wmem));
	uet_page_ring_free(us->pages);
}

static int uet_create(struct net *net, struct socket *sock, int protocol,
		      int kern)
{
	const struct uet_config *cfg;
	struct uet_sock *us;
	struct sock *sk;

	if (sock->type != SOCK_RDM)
		return -ESOCKTNOSUPPORT;
	if (protocol)
		return -EPROTONOSUPPORT;

	sk = sk_alloc(net, PF_UET, GFP_KERNEL, &uet_proto, kern);
	if (!sk)
		return -ENOMEM;
	sock->ops = &uet_ops;
	sock->state = SS_UNCONNECTED;
	sock_init_data(sock, sk);
	/* Receivers find sockets under RCU and take a reference. */
	sock_set_flag(sk, SOCK_RCU_FREE);
	sk->sk_destruct = uet_sock_destruct;
	timer_setup(&sk->sk_timer, uet_sock_ring_idle, 0);

	/* A message must fit whole: the namespace's sizes, not the core's. */
	rcu_read_lock();
	cfg = uet_cfg(uet_net(net));
	WRITE_ONCE(sk->sk_sndbuf, cfg->sndbuf);
	WRITE_ONCE(sk->sk_rcvbuf, cfg->rcvbuf);
	rcu_read_unlock();

	us = uet_sk(sk);
	INIT_HLIST_NODE(&us->ep_node);
	spin_lock_init(&us->rxq_lock);
	INIT_LIST_HEAD(&us->rxq);
	atomic_set(&us->wmem, 0);
	atomic_set(&us->rx_reserved, 0);
	return 0;
}

static const struct proto_ops uet_ops = {
	.family		= PF_UET,
	.owner		= THIS_MODULE,
	.release	= uet_release,
	.bind		= uet_bind,
	.connect	= uet_connect,
	.socketpair	= sock_no_socketpair,
	.accept		= sock_no_accept,
	.getname	= uet_getname,
	.poll		= uet_poll,
	.ioctl		= uet_ioctl,
	.listen		= sock_no_listen,
	.shutdown	= uet_shutdown,
	.setsockopt	= uet_setsockopt,
	.getsockopt	= uet_getsockopt,
	.sendmsg	= uet_sendmsg,
	.recvmsg	= uet_recvmsg,
	.mmap		= sock_no_mmap,
};

static const struct net_proto_family uet_family = {
	.family	= PF_UET,
	.create	= uet_create,
	.owner	= THIS_MODULE,
};

/**
 * uet_af_init() - register the AF_UET family
 *
 * Return: 0, or an error; -EEXIST when another module holds AF_UET.
 */
int uet_af_init(void)
{
	int err;

	/* The namespace's sndbuf and rcvbuf are within the core's floor. */
	BUILD_BUG_ON(SOCK_MIN_SNDBUF > UET_SOCKBUF_MIN);
	BUILD_BUG_ON(SOCK_MIN_RCVBUF > UET_SOCKBUF_MIN);

	err = proto_register(&uet_proto, 0);
	if (err)
		return err;
	err = sock_register(&uet_family);
	if (err) {
		if (err == -EEXIST)
			pr_err("uet: address family %d (AF_UET) is already registered by another protocol\n",
			       AF_UET);
		proto_unregister(&uet_proto);
	}
	return err;
}

/**
 * uet_af_exit() - unregister the AF_UET family
 */
void uet_af_exit(void)
{
	sock_unregister(PF_UET);
	proto_unregister(&uet_proto);
}

MODULE_ALIAS_NETPROTO(PF_UET);
