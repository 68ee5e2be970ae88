// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit fixture of the PDC suites (see kt.h).
 *
 * Each case gets a network namespace of its own, so that its counters
 * start at zero, its configuration is its own, and the namespace's
 * teardown - closing every PDC with whatever it still holds - runs at the
 * end of every case under lockdep and KASAN.  A namespace can only be made
 * from built-in code (copy_net_ns() is not exported): built as a module,
 * the cases are skipped.
 *
 * The namespace's packets never reach IP: struct uet_net.test_xmit takes
 * them, with the addresses and entropy value uet_xmit() would have used,
 * and the case reads them in the order they were sent.  The case answers
 * as the peer at 127.0.0.1's neighbour 127.0.0.2 (on lo, so routes exist)
 * with packets built here, handed to uet_encap_rcv() as UDP would.
 */
#include <kunit/test.h>
#include <linux/bitfield.h>
#include <linux/cred.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/socket.h>
#include <linux/udp.h>
#include <linux/uio.h>
#include <linux/workqueue.h>
#include <net/checksum.h>
#include <net/ipv6.h>
#include <net/net_namespace.h>
#include <net/sock.h>
#include <uet/kunit.h>
#include <uet/msg.h>
#include <uet/sock.h>
#include "kt.h"

/* The namespace's own address, and the peer the case plays. */
#define UET_KT_LOCAL		htonl(0x7f000001)
#define UET_KT_PEER		htonl(0x7f000002)
/* Room for the IPv4 and UDP headers of an injected packet. */
#define UET_KT_HEADROOM		(sizeof(struct iphdr) + sizeof(struct udphdr))
/* How long a namespace may take to go, ms. */
#define UET_KT_NET_EXIT_MS	30000

/* The fixture whose namespace is alive: one case runs at a time. */
static struct uet_kt *uet_kt_cur;

/* struct uet_net.test_xmit: keep the packet, drop its route. */
static void uet_kt_xmit(struct uet_net *un, struct sk_buff *skb)
{
	struct uet_kt *kt = READ_ONCE(uet_kt_cur);
	struct uet_skb_cb *cb = UET_SKB_CB(skb);

	dst_release(cb->dst);
	cb->dst = NULL;
	if (!kt || kt->un != un) {
		kfree_skb(skb);
		return;
	}
	skb_queue_tail(&kt->out, skb);
}

#if IS_BUILTIN(CONFIG_UET_KUNIT_TEST)
/* A namespace, with a passive reference that tells when it has gone. */
static struct net *uet_kt_net_new(void)
{
	struct net *net;

	net = copy_net_ns(CLONE_NEWNET, current_user_ns(), &init_net);
	if (!IS_ERR(net))
		net_passive_inc(net);
	return net;
}

/*
 * Drop the namespace and wait until every pernet exit has run: cleanup_net()
 * drops its passive reference last, after every socket of the namespace
 * has gone, leaving ours and those of the @held sockets the case keeps.
 */
static bool uet_kt_net_put(struct net *net, unsigned int held)
{
	bool gone;

	put_net(net);
	gone = UET_KT_WAIT(refcount_read(&net->passive) == 1 + held,
			   UET_KT_NET_EXIT_MS);
	if (gone)
		net_passive_dec(net);
	return gone;
}
#else
static struct net *uet_kt_net_new(void)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static bool uet_kt_net_put(struct net *net, unsigned int held)
{
	return false;
}
#endif

static int uet_kt_lo_up(struct net *net)
{
	int err;

	rtnl_lock();
	err = dev_open(net->loopback_dev, NULL);
	rtnl_unlock();
	return err;
}

/*
 * Deterministic unless a case asks otherwise: no timer fires on its own,
 * and no congestion control (its CREDIT_REQs and windows would change the
 * packets the cases count; the cases about it set it).
 */
static void uet_kt_defaults(struct uet_config *c)
{
	c->seed = 1;
	c->cc = UET_CC_NONE;
	c->rto_min_us = UET_RTO_US_MAX;
	c->rto_max_us = UET_RTO_US_MAX;
	c->pdc_idle_ms = UET_PDC_IDLE_MS_MAX;
}

static int uet_kt_sock(struct uet_kt *kt, u16 ep, struct socket **sockp)
{
	struct sockaddr_uet sa = {
		.suet_family		= AF_UET,
		.suet_ip_family		= AF_INET,
		.suet_job		= UET_KT_JOB,
		.suet_ep		= ep,
		.suet_addr4.s_addr	= UET_KT_LOCAL,
	};
	int err;

	err = sock_create_kern(kt->net, AF_UET, SOCK_RDM, 0, sockp);
	if (err)
		return err;
	return kernel_bind(*sockp, (struct sockaddr *)&sa, sizeof(sa));
}

/**
 * uet_kt_init() - suite init: a namespace with lo up and two bound sockets
 * @test: the case; test->priv is set to its struct uet_kt
 *
 * The namespace's configuration is the default but for a fixed seed, cc
 * none and timers that cannot fire during a case (rto-min = rto-max =
 * 60 s, pdc-idle an hour): cases that want them change it (uet_kt_config())
 * before they open a PDC.  Skips the case when the suites are a module.
 *
 * Return: 0 or an error.
 */
int uet_kt_init(struct kunit *test)
{
	struct uet_kt *kt;
	struct net *net;
	int err;

	kt = kunit_kzalloc(test, sizeof(*kt), GFP_KERNEL);
	if (!kt)
		return -ENOMEM;
	kt->test = test;
	skb_queue_head_init(&kt->out);
	test->priv = kt;

	net = uet_kt_net_new();
	if (PTR_ERR_OR_ZERO(net) == -EOPNOTSUPP)
		kunit_skip(test, "a network namespace needs the suites built in");
	if (IS_ERR(net))
		return PTR_ERR(net);
	kt->net = net;
	kt->un = uet_net(net);
	WRITE_ONCE(uet_kt_cur, kt);
	WRITE_ONCE(kt->un->test_xmit, uet_kt_xmit);

	err = uet_kt_lo_up(net);
	if (err)
		return err;
	uet_kt_config(kt, uet_kt_defaults);
	err = uet_kt_sock(kt, UET_KT_EP_TX, &kt->tx);
	if (err)
		return err;
	return uet_kt_sock(kt, UET_KT_EP_RX, &kt->rx);
}

/**
 * uet_kt_net_destroy() - close the sockets and let the namespace go
 * @kt: the fixture
 * @held: sockets of the namespace the case holds a reference on
 *
 * Returns once every pernet exit of the namespace has run and every
 * socket of it is freed but the @held ones (a kernel socket holds a
 * passive reference on its namespace): a message that keeps its socket
 * past the namespace makes this fail.  The packets the namespace sent
 * meanwhile (CTRL CLOSE) are in @kt->out.  Idempotent.
 */
void uet_kt_net_destroy(struct uet_kt *kt, unsigned int held)
{
	if (kt->tx)
		sock_release(kt->tx);
	if (kt->rx)
		sock_release(kt->rx);
	kt->tx = NULL;
	kt->rx = NULL;
	if (!kt->net)
		return;
	KUNIT_EXPECT_TRUE_MSG(kt->test, uet_kt_net_put(kt->net, held),
			      "the namespace or a socket of it did not go in %d ms",
			      UET_KT_NET_EXIT_MS);
	kt->net = NULL;
}

/**
 * uet_kt_exit() - suite exit: undo uet_kt_init(), whatever it got to
 * @test: the case
 */
void uet_kt_exit(struct kunit *test)
{
	struct uet_kt *kt = test->priv;

	if (!kt)
		return;
	uet_kt_net_destroy(kt, 0);
	uet_kt_purge(kt);
	WRITE_ONCE(uet_kt_cur, NULL);
}

/**
 * uet_kt_config() - change the namespace's configuration
 * @kt: the fixture
 * @tune: changes a copy of the current one, which must stay valid
 *
 * As a netlink set does; PDCs opened before keep their snapshot.
 */
void uet_kt_config(struct uet_kt *kt, void (*tune)(struct uet_config *c))
{
	struct uet_net *un = kt->un;
	struct uet_cfg_rcu *old, *new;
	int err;

	new = kmalloc(sizeof(*new), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(kt->test, new);
	mutex_lock(&un->cfg_lock);
	old = rcu_dereference_protected(un->cfg, lockdep_is_held(&un->cfg_lock));
	new->cfg = old->cfg;
	tune(&new->cfg);
	err = uet_config_validate(&new->cfg, NULL);
	if (!err)
		rcu_assign_pointer(un->cfg, new);
	mutex_unlock(&un->cfg_lock);
	if (err) {
		kfree(new);
		KUNIT_FAIL(kt->test, "invalid configuration: %d", err);
		return;
	}
	kfree_rcu(old, rcu);
}

/**
 * uet_kt_send() - send a message from the fixture's sending socket
 * @kt: the fixture
 * @len: its length
 * @seed: its bytes are uet_kt_byte(@seed, offset)
 *
 * To the peer, 127.0.0.2, endpoint UET_KT_EP_PEER, without waiting.
 *
 * Return: what sendmsg() returned.
 */
int uet_kt_send(struct uet_kt *kt, u32 len, u32 seed)
{
	struct sockaddr_uet dst = {
		.suet_family		= AF_UET,
		.suet_ip_family		= AF_INET,
		.suet_job		= UET_KT_JOB,
		.suet_ep		= UET_KT_EP_PEER,
		.suet_addr4.s_addr	= UET_KT_PEER,
	};
	struct msghdr msg = {
		.msg_name	= &dst,
		.msg_namelen	= sizeof(dst),
		.msg_flags	= MSG_DONTWAIT | MSG_NOSIGNAL,
	};
	struct kvec iov;
	u8 *buf;
	u32 i;
	int err;

	buf = kvmalloc(max(len, 1U), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(kt->test, buf);
	for (i = 0; i < len; i++)
		buf[i] = uet_kt_byte(seed, i);
	iov.iov_base = buf;
	iov.iov_len = len;
	err = kernel_sendmsg(kt->tx, &msg, &iov, 1, len);
	kvfree(buf);
	return err;
}

/**
 * uet_kt_recv() - receive a message on the fixture's receiving socket
 * @kt: the fixture
 * @buf: where
 * @size: room at @buf
 * @from: the sender's address, or NULL
 *
 * Return: what recvmsg() returned (-EAGAIN: no message).
 */
int uet_kt_recv(struct uet_kt *kt, void *buf, u32 size,
		struct sockaddr_uet *from)
{
	struct msghdr msg = {
		.msg_name	= from,
		.msg_namelen	= from ? sizeof(*from) : 0,
	};
	struct kvec iov = { .iov_base = buf, .iov_len = size };

	return kernel_recvmsg(kt->rx, &msg, &iov, 1, size, MSG_DONTWAIT);
}

/**
 * uet_kt_recv_err() - read one report off a socket's error queue
 * @kt: the fixture
 * @sock: the socket
 * @e: the report
 *
 * Return: 0, -EAGAIN when the queue is empty, -EPROTO when the control
 * message is not a struct uet_msg_err.
 */
int uet_kt_recv_err(struct uet_kt *kt, struct socket *sock,
		    struct uet_msg_err *e)
{
	u8 cbuf[CMSG_SPACE(sizeof(*e))] = {};
	struct cmsghdr *cm = (struct cmsghdr *)cbuf;
	struct msghdr msg = {
		.msg_control	= cbuf,
		.msg_controllen	= sizeof(cbuf),
	};
	struct kvec iov = {};
	int err;

	err = kernel_recvmsg(sock, &msg, &iov, 0, 0,
			     MSG_ERRQUEUE | MSG_DONTWAIT);
	if (err < 0)
		return err;
	if (cm->cmsg_level != SOL_UET || cm->cmsg_type != UET_CMSG_MSG_ERR ||
	    cm->cmsg_len != CMSG_LEN(sizeof(*e)))
		return -EPROTO;
	memcpy(e, CMSG_DATA(cm), sizeof(*e));
	return 0;
}

/**
 * uet_kt_payload_ok() - are these the bytes of a message?
 * @buf: the bytes received
 * @len: how many
 * @seed: the message's seed
 *
 * Return: true when every byte is uet_kt_byte(@seed, its offset).
 */
bool uet_kt_payload_ok(const u8 *buf, u32 len, u32 seed)
{
	u32 i;

	for (i = 0; i < len; i++)
		if (buf[i] != uet_kt_byte(seed, i))
			return false;
	return true;
}

/**
 * uet_kt_pop() - the oldest packet the namespace sent, not yet read
 * @kt: the fixture
 *
 * Return: the packet, at its UET headers (the caller frees it); NULL
 * when none is left.
 */
struct sk_buff *uet_kt_pop(struct uet_kt *kt)
{
	return skb_dequeue(&kt->out);
}

/**
 * uet_kt_pending() - packets sent and not yet read
 * @kt: the fixture
 *
 * Return: their number.
 */
unsigned int uet_kt_pending(struct uet_kt *kt)
{
	return skb_queue_len(&kt->out);
}

/**
 * uet_kt_purge() - forget the packets sent and not yet read
 * @kt: the fixture
 */
void uet_kt_purge(struct uet_kt *kt)
{
	skb_queue_purge(&kt->out);
}

/**
 * uet_kt_type() - PDS type of a packet
 * @skb: the packet, at its UET headers
 *
 * Return: its UET_PDS_* type.
 */
u8 uet_kt_type(const struct sk_buff *skb)
{
	if (skb->len < sizeof(__be16))
		return 0;
	return uet_prologue_type(*(const __be16 *)skb->data);
}

/**
 * uet_kt_ev() - entropy value (UDP source port) a packet was sent with
 * @skb: the packet
 *
 * Return: the value.
 */
u16 uet_kt_ev(const struct sk_buff *skb)
{
	return ntohs(UET_SKB_CB(skb)->sport);
}

/*
 * Pop the next packet, sent from 127.0.0.1 to the peer, of @type or (when
 * @type is UET_PDS_ACK) of @type or ACK_CC.
 */
static struct sk_buff *uet_kt_pop_type(struct uet_kt *kt, u8 type)
{
	struct sk_buff *skb = uet_kt_pop(kt);
	struct in6_addr local, peer;
	u8 got;

	KUNIT_ASSERT_NOT_NULL_MSG(kt->test, skb, "no packet of type %u sent",
				  type);
	ipv6_addr_set_v4mapped(UET_KT_LOCAL, &local);
	ipv6_addr_set_v4mapped(UET_KT_PEER, &peer);
	KUNIT_EXPECT_TRUE(kt->test,
			  ipv6_addr_equal(&UET_SKB_CB(skb)->saddr, &local));
	KUNIT_EXPECT_TRUE(kt->test,
			  ipv6_addr_equal(&UET_SKB_CB(skb)->daddr, &peer));
	got = uet_kt_type(skb);
	if (type == UET_PDS_ACK && got == UET_PDS_ACK_CC)
		got = UET_PDS_ACK;
	if (got != type)
		kfree_skb(skb);
	KUNIT_ASSERT_EQ_MSG(kt->test, got, type, "type %u sent, %u expected",
			    got, type);
	return skb;
}

/**
 * uet_kt_pop_data() - read the next packet, which must be a data packet
 * @kt: the fixture
 * @pk: its PDS and SES fields
 * @ev: set to its entropy value, unless NULL
 */
void uet_kt_pop_data(struct uet_kt *kt, struct uet_rx_pkt *pk, u16 *ev)
{
	struct sk_buff *skb = uet_kt_pop_type(kt, UET_PDS_RUD_REQ);
	int why;

	if (ev)
		*ev = uet_kt_ev(skb);
	why = uet_rx_parse_data(skb, pk);
	kfree_skb(skb);
	KUNIT_ASSERT_EQ(kt->test, why, 0);
}

/**
 * uet_kt_pop_ack() - read the next packet, which must be an ACK or ACK_CC
 * @kt: the fixture
 * @a: what it says
 * @ev: set to its entropy value, unless NULL
 */
void uet_kt_pop_ack(struct uet_kt *kt, struct uet_ack_info *a, u16 *ev)
{
	struct sk_buff *skb = uet_kt_pop_type(kt, UET_PDS_ACK);
	int err;

	if (ev)
		*ev = uet_kt_ev(skb);
	err = uet_ack_read(skb->data, skb->len, a);
	kfree_skb(skb);
	KUNIT_ASSERT_EQ(kt->test, err, 0);
}

/**
 * uet_kt_pop_nack() - read the next packet, which must be a NACK
 * @kt: the fixture
 * @n: its header
 */
void uet_kt_pop_nack(struct uet_kt *kt, struct uet_pds_nack *n)
{
	struct sk_buff *skb = uet_kt_pop_type(kt, UET_PDS_NACK);
	bool whole = skb->len >= sizeof(*n);

	if (whole)
		memcpy(n, skb->data, sizeof(*n));
	kfree_skb(skb);
	KUNIT_ASSERT_TRUE(kt->test, whole);
}

/**
 * uet_kt_pop_ctrl() - read the next packet, which must be a CTRL
 * @kt: the fixture
 * @c: its header
 * @ev: set to its entropy value, unless NULL
 */
void uet_kt_pop_ctrl(struct uet_kt *kt, struct uet_pds_ctrl *c, u16 *ev)
{
	struct sk_buff *skb = uet_kt_pop_type(kt, UET_PDS_CTRL);
	bool whole = skb->len >= sizeof(*c);

	if (ev)
		*ev = uet_kt_ev(skb);
	if (whole)
		memcpy(c, skb->data, sizeof(*c));
	kfree_skb(skb);
	KUNIT_ASSERT_TRUE(kt->test, whole);
}

static struct sk_buff *uet_kt_skb(struct uet_kt *kt, unsigned int len)
{
	struct sk_buff *skb = alloc_skb(UET_KT_HEADROOM + len, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(kt->test, skb);
	skb_reserve(skb, UET_KT_HEADROOM);
	skb_put_zero(skb, len);
	return skb;
}

/**
 * uet_kt_inject() - hand a packet from the peer to the namespace
 * @kt: the fixture
 * @skb: the packet, at its UET headers; consumed
 * @ev: its entropy value (UDP source port)
 *
 * As UDP does: at its UDP header, a non-zero checksum verified, softirqs
 * off, under RCU.  Any thread may inject (no KUnit assertion here).
 */
void uet_kt_inject(struct uet_kt *kt, struct sk_buff *skb, u16 ev)
{
	struct socket *sock;
	struct udphdr *uh;
	struct iphdr *iph;

	uh = skb_push(skb, sizeof(*uh));
	skb_reset_transport_header(skb);
	uh->source = htons(ev);
	uh->dest = htons(UET_DEFAULT_UDP_PORT);
	uh->len = htons(skb->len);
	uh->check = CSUM_MANGLED_0;
	iph = skb_push(skb, sizeof(*iph));
	skb_reset_network_header(skb);
	skb_reset_mac_header(skb);
	memset(iph, 0, sizeof(*iph));
	iph->version = 4;
	iph->ihl = sizeof(*iph) / 4;
	iph->tot_len = htons(skb->len);
	iph->ttl = 64;
	iph->protocol = IPPROTO_UDP;
	iph->saddr = UET_KT_PEER;
	iph->daddr = UET_KT_LOCAL;
	__skb_pull(skb, sizeof(*iph));
	skb->protocol = htons(ETH_P_IP);
	skb->pkt_type = PACKET_HOST;

	local_bh_disable();
	rcu_read_lock();
	sock = rcu_dereference(kt->un->sock4);
	if (sock)
		uet_encap_rcv(sock->sk, skb);
	else
		kfree_skb(skb);
	rcu_read_unlock();
	local_bh_enable();
}

/**
 * uet_kt_data_skb() - build a data packet of the peer
 * @kt: the fixture
 * @d: the packet
 *
 * Return: the packet, at its UET headers, for uet_kt_inject().
 */
struct sk_buff *uet_kt_data_skb(struct uet_kt *kt, const struct uet_kt_data *d)
{
	struct sk_buff *skb = uet_kt_skb(kt, UET_DATA_HDR_LEN + d->len);
	struct uet_pds_req *req = (struct uet_pds_req *)skb->data;
	struct uet_ses_std *ses = (struct uet_ses_std *)(req + 1);
	u8 *pay = (u8 *)(ses + 1), sesf = 0;
	u16 dpdcid = d->dpdcid;
	u32 i;

	if (d->flags & UET_REQ_SYN)
		dpdcid = FIELD_PREP(UET_SYN_PSN_OFFSET, d->psn - d->start);
	req->prologue = uet_prologue(UET_PDS_RUD_REQ, UET_NH_REQ_STD, d->flags);
	req->psn = cpu_to_be32(d->psn);
	req->spdcid = cpu_to_be16(d->spdcid ?: UET_KT_PEER_PDC);
	req->dpdcid = cpu_to_be16(dpdcid);

	if (!d->off)
		sesf |= UET_SES_SOM;
	if (d->off + d->len == d->msg_len)
		sesf |= UET_SES_EOM;
	ses->opcode = FIELD_PREP(UET_SES_OPCODE, UET_SES_SEND);
	ses->ver_flags = sesf;
	ses->msg_id = cpu_to_be16(d->msg_id);
	ses->ri_gen_job = cpu_to_be32(FIELD_PREP(UET_SES_JOB, UET_KT_JOB));
	ses->pid_on_fep = cpu_to_be16(FIELD_PREP(UET_SES_PID,
						 d->dst_ep ?: UET_KT_EP_RX));
	ses->initiator = cpu_to_be32(UET_KT_EP_PEER);
	if (d->off)
		ses->hdr_data =
			cpu_to_be64(FIELD_PREP(UET_SES_PAYLOAD_LEN, d->len) |
				    FIELD_PREP(UET_SES_MSG_OFF, d->off));
	ses->req_len = cpu_to_be32(d->msg_len);
	for (i = 0; i < d->len; i++)
		pay[i] = uet_kt_byte(d->msg_id, d->off + i);
	return skb;
}

/**
 * uet_kt_rcv_data() - the peer sends a data packet
 * @kt: the fixture
 * @d: the packet
 */
void uet_kt_rcv_data(struct uet_kt *kt, const struct uet_kt_data *d)
{
	uet_kt_inject(kt, uet_kt_data_skb(kt, d), d->ev);
}

/**
 * uet_kt_rcv_ack() - the peer sends an ACK or ACK_CC
 * @kt: the fixture
 * @a: what it says (an ACK_CC when @a->cc), PDC ids included
 * @ev: its entropy value
 */
void uet_kt_rcv_ack(struct uet_kt *kt, const struct uet_ack_info *a, u16 ev)
{
	struct sk_buff *skb;

	skb = uet_kt_skb(kt, a->cc ? sizeof(struct uet_pds_ack_cc) :
				     sizeof(struct uet_pds_ack));
	uet_ack_write(skb->data, a);
	uet_kt_inject(kt, skb, ev);
}

/**
 * uet_kt_rcv_nack() - the peer sends a NACK
 * @kt: the fixture
 * @dpdcid: the initiator PDC's id
 * @spdcid: the peer's PDC id (0: none)
 * @psn: the PSN refused
 * @code: UET_NACK_*
 * @payload: code-specific
 * @ev: the entropy value it comes on (a target uses the refused packet's)
 */
void uet_kt_rcv_nack(struct uet_kt *kt, u16 dpdcid, u16 spdcid, u32 psn,
		     u8 code, u32 payload, u16 ev)
{
	struct sk_buff *skb = uet_kt_skb(kt, sizeof(struct uet_pds_nack));
	struct uet_pds_nack *n = (struct uet_pds_nack *)skb->data;

	n->prologue = uet_prologue(UET_PDS_NACK, UET_NH_NONE, 0);
	n->code = code;
	n->psn = cpu_to_be32(psn);
	n->spdcid = cpu_to_be16(spdcid);
	n->dpdcid = cpu_to_be16(dpdcid);
	n->payload = cpu_to_be32(payload);
	uet_kt_inject(kt, skb, ev);
}

/**
 * uet_kt_rcv_ctrl_val() - the peer sends a CTRL with a payload from its PDC
 *	UET_KT_PEER_PDC
 * @kt: the fixture
 * @type: UET_CTRL_*
 * @dpdcid: the PDC's id (a target's, or an initiator's for a CREDIT)
 * @psn: its PSN
 * @payload: its payload word
 */
void uet_kt_rcv_ctrl_val(struct uet_kt *kt, u8 type, u16 dpdcid, u32 psn,
			 u32 payload)
{
	struct sk_buff *skb = uet_kt_skb(kt, sizeof(struct uet_pds_ctrl));
	struct uet_pds_ctrl *c = (struct uet_pds_ctrl *)skb->data;

	c->prologue = uet_prologue(UET_PDS_CTRL, type, 0);
	c->psn = cpu_to_be32(psn);
	c->spdcid = cpu_to_be16(UET_KT_PEER_PDC);
	c->dpdcid = cpu_to_be16(dpdcid);
	c->payload = cpu_to_be32(payload);
	uet_kt_inject(kt, skb, 1);
}

/**
 * uet_kt_rcv_ctrl() - the peer sends a CTRL from its PDC UET_KT_PEER_PDC
 * @kt: the fixture
 * @type: UET_CTRL_*
 * @dpdcid: the target PDC's id
 * @psn: its PSN
 */
void uet_kt_rcv_ctrl(struct uet_kt *kt, u8 type, u16 dpdcid, u32 psn)
{
	uet_kt_rcv_ctrl_val(kt, type, dpdcid, psn, 0);
}

/**
 * uet_kt_stat() - a counter of the namespace
 * @kt: the fixture
 * @s: the counter
 *
 * Return: its value.
 */
u64 uet_kt_stat(struct uet_kt *kt, enum uet_stat s)
{
	u64 *sum = kcalloc(UET_STAT_MAX, sizeof(*sum), GFP_KERNEL);
	u64 v;

	KUNIT_ASSERT_NOT_NULL(kt->test, sum);
	uet_stats_read(kt->un, sum);
	v = sum[s];
	kfree(sum);
	return v;
}

/* The PDC @lid of role @role between 127.0.0.1 and the peer; RCU held. */
static struct uet_pdc *uet_kt_pdc_find(struct uet_kt *kt, u16 lid, u8 role)
{
	struct in6_addr local, peer;

	ipv6_addr_set_v4mapped(UET_KT_LOCAL, &local);
	ipv6_addr_set_v4mapped(UET_KT_PEER, &peer);
	return uet_pdc_find(kt->un, lid, role, &peer, &local);
}

/**
 * uet_kt_pdc() - is a PDC open, and what does it hold?
 * @kt: the fixture
 * @lid: its local id
 * @role: UET_PDC_INITIATOR or UET_PDC_TARGET
 * @c: filled in as for a dump, unless NULL
 *
 * Return: true when the PDC is in the namespace's tables.
 */
bool uet_kt_pdc(struct uet_kt *kt, u16 lid, u8 role, struct uet_pdc_counts *c)
{
	struct uet_pdc *pdc;
	bool found;

	rcu_read_lock();
	pdc = uet_kt_pdc_find(kt, lid, role);
	found = !!pdc;
	if (pdc && c) {
		spin_lock_bh(&pdc->lock);
		uet_pdc_counts_get(pdc, c);
		spin_unlock_bh(&pdc->lock);
	}
	rcu_read_unlock();
	return found;
}

/**
 * uet_kt_tx_read() - read an initiator PDC's sending state
 * @kt: the fixture
 * @lid: the PDC's local id
 * @st: filled in
 *
 * Return: false when the PDC is not open.
 */
bool uet_kt_tx_read(struct uet_kt *kt, u16 lid, struct uet_kt_tx *st)
{
	struct uet_pdc *pdc;

	rcu_read_lock();
	pdc = uet_kt_pdc_find(kt, lid, UET_PDC_INITIATOR);
	if (pdc) {
		spin_lock_bh(&pdc->lock);
		st->in_flight = pdc->tx.nscc.in_flight;
		st->cwnd = pdc->tx.nscc.cwnd;
		st->late_rtt_us = pdc->tx.late_rtt_us;
		st->srtt_us = pdc->tx.srtt_us;
		st->rto_at = pdc->tx.rto_at;
		st->timer_at = hrtimer_is_queued(&pdc->tx.timer) ?
			       hrtimer_get_expires_ns(&pdc->tx.timer) : 0;
		spin_unlock_bh(&pdc->lock);
	}
	rcu_read_unlock();
	return pdc;
}

/**
 * uet_kt_tx_probe_sent() - record a probe as sent by an initiator PDC
 * @kt: the fixture
 * @lid: the PDC's local id
 * @id: the probe's opaque value
 * @ev: the value it went on
 * @ago_ns: how long ago it went
 *
 * An answer the case then injects is a round trip of at least @ago_ns,
 * without the case having to make a value bad first.
 *
 * Return: false when the PDC is not open.
 */
bool uet_kt_tx_probe_sent(struct uet_kt *kt, u16 lid, u16 id, u16 ev,
			  u64 ago_ns)
{
	struct uet_probe_rec *r;
	struct uet_pdc *pdc;

	rcu_read_lock();
	pdc = uet_kt_pdc_find(kt, lid, UET_PDC_INITIATOR);
	if (pdc) {
		spin_lock_bh(&pdc->lock);
		r = &pdc->tx.probes[id % UET_PROBE_SLOTS];
		r->id = id;
		r->ev = ev;
		r->sent_ns = ktime_get_ns() - ago_ns;
		spin_unlock_bh(&pdc->lock);
	}
	rcu_read_unlock();
	return pdc;
}

/**
 * uet_kt_nscc_in_flight() - an initiator PDC's NSCC in-flight count
 * @kt: the fixture
 * @lid: the PDC's local id
 *
 * Return: the count, bytes; 0 when the PDC is not open.
 */
s64 uet_kt_nscc_in_flight(struct uet_kt *kt, u16 lid)
{
	struct uet_kt_tx st;

	return uet_kt_tx_read(kt, lid, &st) ? st.in_flight : 0;
}

/**
 * uet_kt_gc() - run the namespace's work item now, to its end
 * @kt: the fixture
 *
 * Closes the PDCs idle long enough and frees the closed ones.  Twice, so
 * that one whole pass starts after the call: the first flush may only
 * wait for a pass already running.
 */
void uet_kt_gc(struct uet_kt *kt)
{
	flush_delayed_work(&kt->un->gc_work);
	flush_delayed_work(&kt->un->gc_work);
}

/**
 * uet_kt_tx_timer_late() - run an initiator PDC's timer late, after a wait
 * @kt: the fixture
 * @lid: the PDC's local id
 * @wait_ms: how long to wait first, the timer stopped meanwhile
 * @late_ms: how long before the run the timer was due
 *
 * The timer function runs as the timer would (softirqs off), once, at a
 * time the case chooses, due @late_ms before it (re-armed meanwhile or
 * not): a timeout the case has waited for fires exactly once, and the
 * packets it sends are all there is.
 *
 * Return: false when the PDC is not open.
 */
bool uet_kt_tx_timer_late(struct uet_kt *kt, u16 lid, unsigned int wait_ms,
			  unsigned int late_ms)
{
	struct uet_pdc *pdc;
	bool found;

	rcu_read_lock();
	pdc = uet_kt_pdc_find(kt, lid, UET_PDC_INITIATOR);
	if (pdc)
		hrtimer_cancel(&pdc->tx.timer);
	rcu_read_unlock();
	if (!pdc)
		return false;
	msleep(wait_ms);

	rcu_read_lock();
	pdc = uet_kt_pdc_find(kt, lid, UET_PDC_INITIATOR);
	found = !!pdc;
	if (pdc) {
		hrtimer_cancel(&pdc->tx.timer);
		hrtimer_set_expires(&pdc->tx.timer,
				    ktime_sub_ms(ktime_get(), late_ms));
		local_bh_disable();
		pdc->tx.timer.function(&pdc->tx.timer);
		local_bh_enable();
	}
	rcu_read_unlock();
	return found;
}

/**
 * uet_kt_tx_timeout() - run an initiator PDC's timer, on time, after a wait
 * @kt: the fixture
 * @lid: the PDC's local id
 * @wait_ms: how long to wait first, the timer stopped meanwhile
 *
 * Return: false when the PDC is not open.
 */
bool uet_kt_tx_timeout(struct uet_kt *kt, u16 lid, unsigned int wait_ms)
{
	return uet_kt_tx_timer_late(kt, lid, wait_ms, 0);
}
