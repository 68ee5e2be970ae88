// SPDX-License-Identifier: GPL-2.0
/*
 * uetperf: message throughput over AF_UET, in the manner of iperf3, and
 * message latency in the manner of netperf's TCP_RR.
 *
 *   uetperf -s [options]            receive, verify, report
 *   uetperf -s -r [options]         the same, and echo each message back
 *   uetperf -c DST[,DST...] [opts]  send
 *   uetperf -c DST -r [opts]        ping-pong: send, wait for the echo
 *
 * Every message of 24 bytes or more starts with a header (magic, stream,
 * sequence number, length, and a 64-bit FNV-1a checksum of the rest); the
 * rest is a pseudo-random stream seeded by (stream, seq).  Shorter messages
 * carry a fixed pattern of their length.  The server checks each message,
 * counts the ones it sees twice per (stream, seq), and prints a JSON
 * summary; so does the client, after every message it sent is either
 * acknowledged or reported given up (SIOCOUTQ reaches 0).
 *
 * In ping-pong mode (-r) the client sends one message, waits for the
 * server to send it back to the address recvmsg() gave, checks that the
 * echo is the message it sent, and only then sends the next; it reports
 * percentiles of the round-trip times (CLOCK_MONOTONIC, from before
 * sendto() to after recv()).  The server then only echoes: the client's
 * check covers the whole round trip.
 *
 * With -N (both ends, not with -r) only each message's header is written
 * and checked, its checksum left 0: the rest is the pattern of the first
 * message, sent again.  iperf3 neither writes nor reads what it sends;
 * without -N the pattern and its checksum cost both ends a pass over
 * every byte, which a comparison with it would count against uet.
 *
 * With -G the client opens its sockets, says "uetperf: waiting" on stderr
 * and sends its first message only once a line arrives on stdin: a
 * benchmark releases many clients at one moment, their start-up (exec,
 * sockets) behind them.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <linux/sockios.h>
#include <linux/uet.h>
#include "rtt.h"

#define MAGIC		0x55455450u	/* "UETP" */
#define HDR_LEN		24
#define MAX_DSTS	64
#define MAX_STREAMS	1024
#define DEF_LEN		65536
#define DEF_PORT_EP	100
#define DRAIN_S		60
#define RR_WAIT_S	5	/* ping-pong: give up on an echo after this */

struct hdr {
	uint32_t magic;
	uint32_t stream;
	uint32_t seq;
	uint32_t len;
	uint64_t csum;
};

struct opts {
	bool server;
	bool rr;
	bool json;
	bool gate;
	bool nocheck;
	const char *bind;
	char *dsts;
	uint32_t job;
	uint16_t ep;
	uint16_t dst_ep;
	uint32_t len_min;
	uint32_t len_max;
	uint64_t count;
	double duration;
	double idle;
	int sockets;
	int rcvbuf;
	int sndbuf;
};

static struct opts o = {
	.job = 1,
	.dst_ep = DEF_PORT_EP,
	.len_min = DEF_LEN,
	.len_max = DEF_LEN,
	.sockets = 1,
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t fnv1a(const unsigned char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (n--) {
		h ^= *p++;
		h *= 0x100000001b3ull;
	}
	return h;
}

static uint64_t xorshift(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

static void fill(unsigned char *buf, uint32_t len, uint32_t stream,
		 uint32_t seq)
{
	struct hdr h = { MAGIC, stream, seq, len, 0 };
	uint64_t s = ((uint64_t)stream << 32 | seq) * 0x9e3779b97f4a7c15ull + 1;
	uint32_t i;

	if (len < HDR_LEN) {
		for (i = 0; i < len; i++)
			buf[i] = (unsigned char)(len * 31 + i);
		return;
	}
	for (i = HDR_LEN; i + 8 <= len; i += 8) {
		uint64_t r = xorshift(&s);

		memcpy(buf + i, &r, 8);
	}
	for (; i < len; i++)
		buf[i] = (unsigned char)xorshift(&s);
	h.csum = fnv1a(buf + HDR_LEN, len - HDR_LEN);
	memcpy(buf, &h, sizeof(h));
}

/*
 * The next message in @buf, which holds the first one's: with -N only
 * the header of a long one is written (checksum 0).
 */
static void refill(unsigned char *buf, uint32_t len, uint32_t stream,
		   uint32_t seq)
{
	struct hdr h = { MAGIC, stream, seq, len, 0 };

	if (!o.nocheck || len < HDR_LEN) {
		fill(buf, len, stream, seq);
		return;
	}
	memcpy(buf, &h, sizeof(h));
}

/* 0: intact; -1: corrupt. *stream and *seq are set for a long message. */
static int check(const unsigned char *buf, uint32_t len, uint32_t *stream,
		 uint32_t *seq)
{
	struct hdr h;
	uint32_t i;

	*stream = UINT32_MAX;
	if (len < HDR_LEN) {
		for (i = 0; i < len; i++)
			if (buf[i] != (unsigned char)(len * 31 + i))
				return -1;
		return 0;
	}
	memcpy(&h, buf, sizeof(h));
	if (h.magic != MAGIC || h.len != len ||
	    (!o.nocheck && h.csum != fnv1a(buf + HDR_LEN, len - HDR_LEN)))
		return -1;
	*stream = h.stream;
	*seq = h.seq;
	return 0;
}

static int parse_addr(const char *s, struct sockaddr_uet *a, uint16_t ep)
{
	memset(a, 0, sizeof(*a));
	a->suet_family = AF_UET;
	a->suet_job = o.job;
	a->suet_ep = ep;
	if (!s || !*s) {
		a->suet_ip_family = AF_UNSPEC;
		return 0;
	}
	if (inet_pton(AF_INET, s, &a->suet_addr4) == 1) {
		a->suet_ip_family = AF_INET;
		return 0;
	}
	if (inet_pton(AF_INET6, s, &a->suet_addr6) == 1) {
		a->suet_ip_family = AF_INET6;
		return 0;
	}
	fprintf(stderr, "uetperf: bad address '%s'\n", s);
	return -1;
}

static void set_buf(int fd, int force, int plain, int bytes)
{
	if (bytes <= 0)
		return;
	if (setsockopt(fd, SOL_SOCKET, force, &bytes, sizeof(bytes)))
		setsockopt(fd, SOL_SOCKET, plain, &bytes, sizeof(bytes));
}

static int open_sock(uint16_t ep)
{
	struct sockaddr_uet a;
	int fd;

	fd = socket(AF_UET, SOCK_RDM, 0);
	if (fd < 0) {
		perror("uetperf: socket(AF_UET)");
		return -1;
	}
	set_buf(fd, SO_RCVBUFFORCE, SO_RCVBUF, o.rcvbuf);
	set_buf(fd, SO_SNDBUFFORCE, SO_SNDBUF, o.sndbuf);
	if (parse_addr(o.bind, &a, ep) ||
	    bind(fd, (struct sockaddr *)&a, sizeof(a))) {
		perror("uetperf: bind");
		close(fd);
		return -1;
	}
	return fd;
}

/* Per-stream record of the sequence numbers seen, to spot duplicates. */
struct seen {
	uint32_t stream;
	uint8_t *bits;
	uint32_t nbits;
};

static struct seen streams[MAX_STREAMS];
static int nstreams;

/* 1 when (stream, seq) was seen before, 0 the first time, -1 on ENOMEM. */
static int seen_before(uint32_t stream, uint32_t seq)
{
	struct seen *s = NULL;
	int i;

	for (i = 0; i < nstreams; i++)
		if (streams[i].stream == stream)
			s = &streams[i];
	if (!s) {
		if (nstreams == MAX_STREAMS)
			return -1;
		s = &streams[nstreams++];
		s->stream = stream;
	}
	if (seq >= s->nbits) {
		uint32_t n = s->nbits ? s->nbits : 1024;
		uint8_t *b;

		while (n <= seq)
			n *= 2;
		b = realloc(s->bits, n / 8);
		if (!b)
			return -1;
		memset(b + s->nbits / 8, 0, (n - s->nbits) / 8);
		s->bits = b;
		s->nbits = n;
	}
	if (s->bits[seq / 8] & (1u << (seq % 8)))
		return 1;
	s->bits[seq / 8] |= 1u << (seq % 8);
	return 0;
}

static void report(const char *role, uint64_t msgs, uint64_t bytes,
		   uint64_t errors, uint64_t dups, uint64_t trunc,
		   double elapsed)
{
	double mbps = elapsed > 0 ? bytes * 8 / elapsed / 1e6 : 0;

	if (o.json) {
		printf("{\"role\":\"%s\",\"messages\":%" PRIu64
		       ",\"bytes\":%" PRIu64 ",\"errors\":%" PRIu64
		       ",\"duplicates\":%" PRIu64 ",\"truncated\":%" PRIu64
		       ",\"streams\":%d,\"elapsed\":%.6f,\"goodput_mbps\":%.3f"
		       ",\"payload_checked\":%s}\n",
		       role, msgs, bytes, errors, dups, trunc, nstreams,
		       elapsed, mbps, o.nocheck ? "false" : "true");
	} else {
		printf("%s: %" PRIu64 " messages, %" PRIu64 " bytes in %.3f s"
		       " = %.1f Mbit/s; %" PRIu64 " errors, %" PRIu64
		       " duplicates, %" PRIu64 " truncated\n", role, msgs,
		       bytes, elapsed, mbps, errors, dups, trunc);
	}
	fflush(stdout);
}

static int server(void)
{
	uint64_t msgs = 0, bytes = 0, errors = 0, dups = 0, trunc = 0;
	size_t cap = (size_t)o.len_max + 1;
	double start = now_s(), first = 0, last = 0;
	unsigned char *buf;
	int fd;

	fd = open_sock(o.ep ? o.ep : DEF_PORT_EP);
	buf = malloc(cap);
	if (fd < 0 || !buf)
		return 1;
	/* Scripts wait for this line before starting a client. */
	fprintf(stderr, "uetperf: ready: job %u endpoint %u\n", o.job,
		o.ep ? o.ep : DEF_PORT_EP);
	while (!stop && (!o.count || msgs < o.count)) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		struct sockaddr_uet from;
		socklen_t from_len;
		uint32_t stream, seq;
		ssize_t n;
		int r;

		r = poll(&p, 1, 100);
		if (r < 0 && errno != EINTR)
			break;
		if (r <= 0) {
			if (o.idle > 0 && now_s() - (last ? last : start) >
			    o.idle)
				break;
			continue;
		}
		from_len = sizeof(from);
		n = recvfrom(fd, buf, cap, MSG_DONTWAIT | MSG_TRUNC,
			     (struct sockaddr *)&from, &from_len);
		if (n < 0)
			continue;
		if (o.rr && (size_t)n <= cap - 1 &&
		    sendto(fd, buf, n, 0, (struct sockaddr *)&from,
			   from_len) < 0)
			errors++;
		last = now_s();
		if (!msgs)
			first = last;
		if ((size_t)n > cap - 1) {
			trunc++;
			continue;
		}
		msgs++;
		bytes += n;
		/*
		 * An echo is checked by the client, byte for byte against
		 * what it sent.  Checking here too would put the work in the
		 * round trip: until this task sleeps again, a client on the
		 * same CPU does not run, however early the echo reached it.
		 */
		if (o.rr)
			continue;
		if (check(buf, n, &stream, &seq)) {
			errors++;
			continue;
		}
		if (stream != UINT32_MAX) {
			r = seen_before(stream, seq);
			if (r > 0)
				dups++;
			else if (r < 0)
				errors++;
		}
	}
	report("server", msgs, bytes, errors, dups, trunc,
	       msgs ? last - first : 0);
	close(fd);
	free(buf);
	return errors || dups || trunc;
}

struct client {
	pthread_t th;
	int idx;
	struct sockaddr_uet dst[MAX_DSTS];
	int ndst;
	uint64_t msgs;
	uint64_t bytes;
	uint64_t errors;
	uint64_t send_errors;
	double end;
};

static uint32_t pick_len(uint64_t *rng)
{
	if (o.len_max == o.len_min)
		return o.len_min;
	return o.len_min + xorshift(rng) % (o.len_max - o.len_min + 1);
}

/* Count what the error queue reports; each record is a message given up. */
static uint64_t drain_errqueue(int fd)
{
	char cbuf[CMSG_SPACE(sizeof(struct uet_msg_err))];
	struct sockaddr_uet from;
	uint64_t n = 0;

	for (;;) {
		struct msghdr mh = {
			.msg_name = &from, .msg_namelen = sizeof(from),
			.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
		};
		struct cmsghdr *c;

		if (recvmsg(fd, &mh, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
			return n;
		for (c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
			struct uet_msg_err e;

			if (c->cmsg_level != SOL_UET ||
			    c->cmsg_type != UET_CMSG_MSG_ERR)
				continue;
			memcpy(&e, CMSG_DATA(c), sizeof(e));
			fprintf(stderr, "uetperf: message %u (%u bytes) given up: %s\n",
				e.ue_seq, e.ue_len, strerror(e.ue_errno));
			n++;
		}
	}
}

/* -G: every socket is open (first wait), then the start (second). */
static pthread_barrier_t gate;

/* Read standard input up to the end of a line, or its end. */
static void wait_line(void)
{
	char c;

	while (read(STDIN_FILENO, &c, 1) == 1 && c != '\n')
		;
}

static void *client_run(void *arg)
{
	struct client *c = arg;
	uint64_t rng = 0x1234567 + c->idx, seq;
	uint32_t stream = (uint32_t)getpid() << 8 ^ (uint32_t)c->idx;
	double start = now_s(), drain;
	uint32_t len = pick_len(&rng);
	unsigned char *buf;
	int fd, outq = 0, last = INT_MAX;

	fd = open_sock(o.ep ? o.ep + c->idx : 0);
	buf = malloc(o.len_max ? o.len_max : 1);
	/*
	 * The first message is ready before the start (-G); with -N its
	 * pattern, at the longest length, is what every later one carries.
	 */
	if (buf) {
		fill(buf, o.nocheck ? o.len_max : len, stream, 0);
		if (o.nocheck)
			refill(buf, len, stream, 0);
	}
	if (o.gate) {
		pthread_barrier_wait(&gate);
		pthread_barrier_wait(&gate);
		start = now_s();
	}
	if (fd < 0 || !buf) {
		c->send_errors++;
		free(buf);
		return NULL;
	}
	for (seq = 0; !stop; seq++) {
		const struct sockaddr_uet *d = &c->dst[seq % c->ndst];

		if (o.count && seq >= o.count)
			break;
		if (!o.count && now_s() - start >= o.duration)
			break;
		if (seq) {
			len = pick_len(&rng);
			refill(buf, len, stream, (uint32_t)seq);
		}
		if (sendto(fd, buf, len, 0, (const struct sockaddr *)d,
			   sizeof(*d)) < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "uetperf: sendto: %s\n",
				strerror(errno));
			c->send_errors++;
			break;
		}
		c->msgs++;
		c->bytes += len;
	}
	/*
	 * Wait until every message is acknowledged or given up, for as long
	 * as messages keep completing: the send buffer's worth queued at the
	 * last send may take minutes over a lossy link on a slow kernel, and
	 * that is no failure.  DRAIN_S without one completing is a stall.
	 */
	drain = now_s();
	while (now_s() - drain < DRAIN_S &&
	       !ioctl(fd, SIOCOUTQ, &outq) && outq) {
		struct timespec ts = { 0, 2000000 };

		if (outq < last) {
			last = outq;
			drain = now_s();
		}
		nanosleep(&ts, NULL);
	}
	c->end = now_s();
	if (outq)
		fprintf(stderr, "uetperf: %d bytes unacknowledged, none acknowledged for %d s\n",
			outq, DRAIN_S);
	c->errors = drain_errqueue(fd) + (outq ? 1 : 0);
	close(fd);
	free(buf);
	return NULL;
}

static void report_rr(uint64_t *rtt, uint64_t n, uint64_t bytes,
		      uint64_t errors, double elapsed)
{
	double mean = 0;
	uint64_t i;

	qsort(rtt, n, sizeof(*rtt), cmp_u64);
	for (i = 0; i < n; i++)
		mean += rtt[i] / 1e3;
	if (n)
		mean /= n;
	if (o.json) {
		printf("{\"role\":\"client\",\"mode\":\"rr\",\"len\":%u"
		       ",\"messages\":%" PRIu64 ",\"bytes\":%" PRIu64
		       ",\"errors\":%" PRIu64 ",\"elapsed\":%.6f"
		       ",\"rtt_count\":%" PRIu64 ",\"rtt_min_us\":%.3f"
		       ",\"rtt_p50_us\":%.3f,\"rtt_p90_us\":%.3f"
		       ",\"rtt_p99_us\":%.3f,\"rtt_max_us\":%.3f"
		       ",\"rtt_mean_us\":%.3f}\n",
		       o.len_min, n, bytes, errors, elapsed, n,
		       pct_us(rtt, n, 0), pct_us(rtt, n, 50),
		       pct_us(rtt, n, 90), pct_us(rtt, n, 99),
		       pct_us(rtt, n, 100), mean);
	} else {
		printf("client: %" PRIu64 " round trips of %u bytes in %.3f s;"
		       " %" PRIu64 " errors\n", n, o.len_min, elapsed, errors);
		printf("rtt us: min %.1f p50 %.1f p90 %.1f p99 %.1f max %.1f"
		       " mean %.1f\n", pct_us(rtt, n, 0), pct_us(rtt, n, 50),
		       pct_us(rtt, n, 90), pct_us(rtt, n, 99),
		       pct_us(rtt, n, 100), mean);
	}
	fflush(stdout);
}

/* An intact echo of the LEN bytes in BUF: 0, else -1. */
static int rr_check(const unsigned char *buf, const unsigned char *echo,
		    uint32_t len)
{
	uint32_t stream, seq, want_stream, want_seq;

	if (check(echo, len, &stream, &seq) ||
	    check(buf, len, &want_stream, &want_seq) ||
	    stream != want_stream ||
	    (stream != UINT32_MAX && seq != want_seq))
		return -1;
	return memcmp(buf, echo, len) ? -1 : 0;
}

/* Ping-pong: one message out, its echo back, then the next. */
static int client_rr(const struct sockaddr_uet *dst, int ndst)
{
	uint32_t stream = (uint32_t)getpid() << 8, len = o.len_min;
	uint64_t seq, n = 0, cap = 0, bytes = 0, errors = 0;
	unsigned char *buf, *echo;
	struct timeval tv = { RR_WAIT_S, 0 };
	uint64_t *rtt = NULL;
	double start;
	int fd;

	fd = open_sock(o.ep);
	buf = malloc(len ? len : 1);
	echo = malloc((size_t)len + 1);
	if (fd < 0 || !buf || !echo ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)))
		return 1;
	start = now_s();
	for (seq = 0; !stop; seq++) {
		const struct sockaddr_uet *d = &dst[seq % ndst];
		struct timespec t0, t1;
		ssize_t got;

		if (o.count && seq >= o.count)
			break;
		if (!o.count && now_s() - start >= o.duration)
			break;
		if (n == cap) {
			uint64_t *r;

			cap = cap ? cap * 2 : 4096;
			r = realloc(rtt, cap * sizeof(*rtt));
			if (!r) {
				errors++;
				break;
			}
			rtt = r;
		}
		fill(buf, len, stream, (uint32_t)seq);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		if (sendto(fd, buf, len, 0, (const struct sockaddr *)d,
			   sizeof(*d)) < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "uetperf: sendto: %s\n",
				strerror(errno));
			errors++;
			break;
		}
		/* Blocking, as a latency-bound application would wait. */
		got = recv(fd, echo, (size_t)len + 1, MSG_TRUNC);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (got < 0 && errno == EINTR && !stop)
			got = recv(fd, echo, (size_t)len + 1, MSG_TRUNC);
		if (got != (ssize_t)len || rr_check(buf, echo, len)) {
			if (!stop)
				fprintf(stderr, "uetperf: message %" PRIu64 ": %s\n",
					seq, got < 0 ? strerror(errno) :
					"echo not intact");
			errors++;
			break;
		}
		rtt[n++] = (uint64_t)(t1.tv_sec - t0.tv_sec) * 1000000000ull +
			   t1.tv_nsec - t0.tv_nsec;
		bytes += len;
	}
	errors += drain_errqueue(fd);
	report_rr(rtt, n, bytes, errors, now_s() - start);
	close(fd);
	free(buf);
	free(echo);
	free(rtt);
	return errors != 0;
}

static int client(void)
{
	uint64_t msgs = 0, bytes = 0, errors = 0;
	struct client *cs;
	double start, end = 0;
	int i, ndst = 0;
	char *tok, *save;
	struct sockaddr_uet dst[MAX_DSTS];

	for (tok = strtok_r(o.dsts, ",", &save); tok && ndst < MAX_DSTS;
	     tok = strtok_r(NULL, ",", &save))
		if (parse_addr(tok, &dst[ndst++], o.dst_ep))
			return 1;
	if (!ndst)
		return 1;
	if (o.rr)
		return client_rr(dst, ndst);
	cs = calloc(o.sockets, sizeof(*cs));
	if (!cs ||
	    (o.gate && pthread_barrier_init(&gate, NULL, o.sockets + 1)))
		return 1;
	start = now_s();
	for (i = 0; i < o.sockets; i++) {
		cs[i].idx = i;
		cs[i].ndst = ndst;
		memcpy(cs[i].dst, dst, sizeof(dst));
		if (pthread_create(&cs[i].th, NULL, client_run, &cs[i]))
			return 1;
	}
	if (o.gate) {
		pthread_barrier_wait(&gate);
		fprintf(stderr, "uetperf: waiting\n");
		wait_line();
		start = now_s();
		pthread_barrier_wait(&gate);
	}
	for (i = 0; i < o.sockets; i++) {
		pthread_join(cs[i].th, NULL);
		msgs += cs[i].msgs;
		bytes += cs[i].bytes;
		errors += cs[i].errors + cs[i].send_errors;
		if (cs[i].end > end)
			end = cs[i].end;
	}
	nstreams = o.sockets;
	report("client", msgs, bytes, errors, 0, 0, end - start);
	free(cs);
	return errors != 0;
}

static int parse_len(const char *s)
{
	char *end;

	o.len_min = strtoul(s, &end, 0);
	o.len_max = o.len_min;
	if (*end == '-')
		o.len_max = strtoul(end + 1, &end, 0);
	return *end || o.len_max < o.len_min || o.len_max > UET_MSG_MAX;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: uetperf -s [-r] [-B ADDR] [-j JOB] [-e EP] [-l MAXLEN] [-n COUNT]\n"
		"               [-i IDLE_S] [-R RCVBUF] [-N] [-J]\n"
		"       uetperf -c DST[,DST...] [-B ADDR] [-j JOB] [-p EP] [-e EP]\n"
		"               [-l LEN|MIN-MAX] [-n COUNT | -t SECONDS] [-P SOCKETS]\n"
		"               [-S SNDBUF] [-G] [-N] [-J]\n"
		"       uetperf -c DST[,DST...] -r [-B ADDR] [-j JOB] [-p EP] [-e EP]\n"
		"               [-l LEN] [-n COUNT | -t SECONDS] [-J]\n"
		"  -s        server: receive and verify messages\n"
		"  -c DSTS   client: send to these addresses, in turn\n"
		"  -r        ping-pong: the server echoes each message to its\n"
		"            sender; the client sends the next one once the echo\n"
		"            is back, and reports round-trip percentiles\n"
		"  -B ADDR   bind to ADDR (default: any)\n"
		"  -j JOB    job id (default 1)\n"
		"  -e EP     own endpoint (server default %d; client: any)\n"
		"  -p EP     server endpoint to send to (default %d)\n"
		"  -l LEN    message length, or range of lengths (default %d)\n"
		"  -n COUNT  messages to send / to receive before exiting\n"
		"  -t SECS   send for this long (default 10 without -n)\n"
		"  -i SECS   server: exit after this long without a message\n"
		"  -P N      client: N sockets sending in parallel\n"
		"  -R BYTES  SO_RCVBUF    -S BYTES  SO_SNDBUF\n"
		"  -G        client: open the sockets, then start sending\n"
		"            once a line arrives on standard input\n"
		"  -N        write and check only each message's header (both\n"
		"            ends; not with -r), as iperf3 leaves its data alone\n"
		"  -J        print a JSON summary\n",
		DEF_PORT_EP, DEF_PORT_EP, DEF_LEN);
	exit(2);
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	int c;

	while ((c = getopt(argc, argv, "sc:rB:j:e:p:l:n:t:i:P:R:S:GNJh")) != -1) {
		switch (c) {
		case 's':
			o.server = true;
			break;
		case 'c':
			o.dsts = optarg;
			break;
		case 'r':
			o.rr = true;
			break;
		case 'B':
			o.bind = optarg;
			break;
		case 'j':
			o.job = strtoul(optarg, NULL, 0);
			break;
		case 'e':
			o.ep = strtoul(optarg, NULL, 0);
			break;
		case 'p':
			o.dst_ep = strtoul(optarg, NULL, 0);
			break;
		case 'l':
			if (parse_len(optarg))
				usage();
			break;
		case 'n':
			o.count = strtoull(optarg, NULL, 0);
			break;
		case 't':
			o.duration = strtod(optarg, NULL);
			break;
		case 'i':
			o.idle = strtod(optarg, NULL);
			break;
		case 'P':
			o.sockets = atoi(optarg);
			break;
		case 'R':
			o.rcvbuf = atoi(optarg);
			break;
		case 'S':
			o.sndbuf = atoi(optarg);
			break;
		case 'G':
			o.gate = true;
			break;
		case 'N':
			o.nocheck = true;
			break;
		case 'J':
			o.json = true;
			break;
		default:
			usage();
		}
	}
	if (o.server == !!o.dsts || o.sockets < 1 ||
	    (o.gate && (o.server || o.rr)) || (o.nocheck && o.rr))
		usage();
	/* A ping-pong is one socket and one length. */
	if (o.rr && !o.server && (o.sockets > 1 || o.len_min != o.len_max))
		usage();
	if (!o.count && o.duration <= 0)
		o.duration = 10;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	return o.server ? server() : client();
}
