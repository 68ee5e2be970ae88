/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KUnit fixture of the PDC suites (uet_pdc, uet_tx, uet_rx): a network
 * namespace of each case's own, with lo up and two AF_UET sockets bound on
 * 127.0.0.1; every packet the namespace sends is captured rather than
 * sent; the case plays the peer at 127.0.0.2 with packets it builds and
 * injects where UDP hands UET packets over.
 */
#ifndef _UET_TESTS_KT_H
#define _UET_TESTS_KT_H

#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/net.h>
#include <linux/skbuff.h>
#include <linux/types.h>
#include <linux/uet.h>
#include <uet/config.h>
#include <uet/net.h>
#include <uet/pdc.h>
#include <uet/stats.h>
#include <uet/wire.h>

/* The job of every endpoint of the fixture. */
#define UET_KT_JOB		0x4242
/* Endpoints: the sending and receiving sockets, and the peer's. */
#define UET_KT_EP_TX		10
#define UET_KT_EP_RX		20
#define UET_KT_EP_PEER		30
/* The PDC id the peer (the case) gives its end of every PDC. */
#define UET_KT_PEER_PDC		0x7e57

/**
 * struct uet_kt - one case's namespace, sockets and captured packets
 * @test: the case
 * @net: the namespace; NULL once destroyed
 * @un: its uet state
 * @tx: socket bound to 127.0.0.1, job UET_KT_JOB, endpoint UET_KT_EP_TX
 * @rx: socket bound to 127.0.0.1, job UET_KT_JOB, endpoint UET_KT_EP_RX
 * @out: the packets the namespace sent, oldest first (own lock: they come
 *	from timers and work items as well as from the case)
 */
struct uet_kt {
	struct kunit *test;
	struct net *net;
	struct uet_net *un;
	struct socket *tx;
	struct socket *rx;
	struct sk_buff_head out;
};

/**
 * struct uet_kt_data - a data packet the peer sends
 * @psn: its PSN
 * @start: with UET_REQ_SYN, the start PSN of the peer's PDC
 * @spdcid: the peer's PDC id (UET_KT_PEER_PDC unless set)
 * @dpdcid: without UET_REQ_SYN, the target's PDC id
 * @flags: UET_REQ_* flags
 * @msg_id: message id
 * @dst_ep: destination endpoint (UET_KT_EP_RX unless set)
 * @msg_len: length of the whole message
 * @off: offset of the payload in the message
 * @len: payload bytes, uet_kt_byte() of the message at @off on
 * @ev: entropy value (UDP source port)
 */
struct uet_kt_data {
	u32 psn;
	u32 start;
	u16 spdcid;
	u16 dpdcid;
	u8 flags;
	u16 msg_id;
	u16 dst_ep;
	u32 msg_len;
	u32 off;
	u32 len;
	u16 ev;
};

/**
 * uet_kt_byte() - byte @off of the payload of message @seed
 * @seed: tells messages apart
 * @off: offset in the message
 *
 * Not periodic over a page, so that a byte in the wrong place shows.
 *
 * Return: the byte.
 */
static inline u8 uet_kt_byte(u32 seed, u32 off)
{
	return (u8)(off * 131 + (off >> 9) * 7 + (off >> 17) + seed * 29);
}

/**
 * struct uet_kt_tx - what a case reads of an initiator PDC's sending side
 * @in_flight: NSCC's in-flight count, bytes
 * @cwnd: NSCC's window, bytes
 * @late_rtt_us: the RTT a spurious timeout found
 * @srtt_us: the smoothed RTT
 * @rto_at: when the retransmission timeout expires, 0 when not running
 * @timer_at: when the PDC's timer fires, 0 when it is not queued
 */
struct uet_kt_tx {
	s64 in_flight;
	u32 cwnd;
	u32 late_rtt_us;
	u32 srtt_us;
	u64 rto_at;
	u64 timer_at;
};

/**
 * UET_KT_WAIT() - poll a condition until it holds or @ms pass
 * @cond: the condition
 * @ms: the bound, in milliseconds
 *
 * Return: the condition's last value.
 */
#define UET_KT_WAIT(cond, ms)						\
({									\
	unsigned long __end = jiffies + msecs_to_jiffies(ms);		\
	bool __ok;							\
									\
	while (!(__ok = (cond)) && time_before(jiffies, __end))		\
		usleep_range(1000, 2000);				\
	__ok;								\
})

int uet_kt_init(struct kunit *test);
void uet_kt_exit(struct kunit *test);
void uet_kt_config(struct uet_kt *kt, void (*tune)(struct uet_config *c));
void uet_kt_net_destroy(struct uet_kt *kt, unsigned int held);

int uet_kt_send(struct uet_kt *kt, u32 len, u32 seed);
int uet_kt_recv(struct uet_kt *kt, void *buf, u32 size,
		struct sockaddr_uet *from);
int uet_kt_recv_err(struct uet_kt *kt, struct socket *sock,
		    struct uet_msg_err *e);
bool uet_kt_payload_ok(const u8 *buf, u32 len, u32 seed);

struct sk_buff *uet_kt_pop(struct uet_kt *kt);
unsigned int uet_kt_pending(struct uet_kt *kt);
void uet_kt_purge(struct uet_kt *kt);
u8 uet_kt_type(const struct sk_buff *skb);
u16 uet_kt_ev(const struct sk_buff *skb);
void uet_kt_pop_data(struct uet_kt *kt, struct uet_rx_pkt *pk, u16 *ev);
void uet_kt_pop_ack(struct uet_kt *kt, struct uet_ack_info *a, u16 *ev);
void uet_kt_pop_nack(struct uet_kt *kt, struct uet_pds_nack *n);
void uet_kt_pop_ctrl(struct uet_kt *kt, struct uet_pds_ctrl *c, u16 *ev);

struct sk_buff *uet_kt_data_skb(struct uet_kt *kt, const struct uet_kt_data *d);
void uet_kt_inject(struct uet_kt *kt, struct sk_buff *skb, u16 ev);
void uet_kt_rcv_data(struct uet_kt *kt, const struct uet_kt_data *d);
void uet_kt_rcv_ack(struct uet_kt *kt, const struct uet_ack_info *a, u16 ev);
void uet_kt_rcv_nack(struct uet_kt *kt, u16 dpdcid, u16 spdcid, u32 psn,
		     u8 code, u32 payload, u16 ev);
void uet_kt_rcv_ctrl(struct uet_kt *kt, u8 type, u16 dpdcid, u32 psn);
void uet_kt_rcv_ctrl_val(struct uet_kt *kt, u8 type, u16 dpdcid, u32 psn,
			 u32 payload);

u64 uet_kt_stat(struct uet_kt *kt, enum uet_stat s);
bool uet_kt_tx_read(struct uet_kt *kt, u16 lid, struct uet_kt_tx *st);
bool uet_kt_tx_probe_sent(struct uet_kt *kt, u16 lid, u16 id, u16 ev,
			  u64 ago_ns);
s64 uet_kt_nscc_in_flight(struct uet_kt *kt, u16 lid);
bool uet_kt_pdc(struct uet_kt *kt, u16 lid, u8 role, struct uet_pdc_counts *c);
void uet_kt_gc(struct uet_kt *kt);
bool uet_kt_tx_timeout(struct uet_kt *kt, u16 lid, unsigned int wait_ms);
bool uet_kt_tx_timer_late(struct uet_kt *kt, u16 lid, unsigned int wait_ms,
			  unsigned int late_ms);

#endif /* _UET_TESTS_KT_H */
