// SPDX-License-Identifier: GPL-2.0
/*
 * rrperf: UDP and TCP ping-pong, the anchors for uetperf -r.
 *
 *   rrperf -s [-u | -T] [-p PORT] [-B ADDR]      echo what arrives
 *   rrperf -c DST [-u | -T] [-p PORT] [-l LEN] [-n COUNT | -t SECS] [-J]
 *   rrperf -s -T -k [-1] / rrperf -c DST -T -b BYTES [-G] [-J]   bulk
 *
 * The client sends one message of LEN bytes, waits until the server has
 * sent all of it back, checks it, and sends the next one, as netperf's
 * UDP_RR and TCP_RR do; it reports the same round-trip percentiles as
 * uetperf -r (CLOCK_MONOTONIC, from before send() to after the last byte
 * of the echo is read), under the same JSON keys. TCP runs with
 * TCP_NODELAY. The server echoes each UDP datagram to its source, and on
 * TCP echoes each connection's bytes as they come, one connection at a
 * time; it waits with poll() before each read, as uetperf -s does.
 *
 * Bulk mode is TCP's side of tools/bench-collective.sh: the client sends
 * BYTES on one connection and closes it; the server (-k) reads and
 * discards, and with -1 exits once that connection has ended, so that its
 * exit marks the last byte's arrival.  With -G the client connects, says
 * "rrperf: waiting" on stderr and starts only once a line arrives on
 * stdin, as uetperf -G does.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include "../uetperf/rtt.h"

#define DEF_PORT	5201
#define DEF_LEN		64
#define MAX_LEN		65507	/* largest UDP payload over IPv4 */
#define WAIT_S		5	/* give up on an echo after this */
#define BULK_CHUNK	131072	/* bytes per write() in bulk mode */

struct opts {
	bool server;
	bool tcp;
	bool json;
	bool sink;
	bool once;
	bool gate;
	uint64_t bulk;
	const char *bind;
	const char *dst;
	const char *port;
	uint32_t len;
	uint64_t count;
	double duration;
};

static struct opts o = {
	.port = "5201",
	.len = DEF_LEN,
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

static void report(uint64_t *rtt, uint64_t n, uint64_t errors,
		   double elapsed)
{
	const char *proto = o.tcp ? "tcp" : "udp";
	double mean = 0;
	uint64_t i;

	qsort(rtt, n, sizeof(*rtt), cmp_u64);
	for (i = 0; i < n; i++)
		mean += rtt[i] / 1e3;
	if (n)
		mean /= n;
	if (o.json) {
		printf("{\"role\":\"client\",\"mode\":\"rr\",\"proto\":\"%s\""
		       ",\"len\":%u,\"messages\":%" PRIu64
		       ",\"bytes\":%" PRIu64 ",\"errors\":%" PRIu64
		       ",\"elapsed\":%.6f,\"rtt_count\":%" PRIu64
		       ",\"rtt_min_us\":%.3f,\"rtt_p50_us\":%.3f"
		       ",\"rtt_p90_us\":%.3f,\"rtt_p99_us\":%.3f"
		       ",\"rtt_max_us\":%.3f,\"rtt_mean_us\":%.3f}\n",
		       proto, o.len, n, n * o.len, errors, elapsed, n,
		       pct_us(rtt, n, 0), pct_us(rtt, n, 50),
		       pct_us(rtt, n, 90), pct_us(rtt, n, 99),
		       pct_us(rtt, n, 100), mean);
	} else {
		printf("%s: %" PRIu64 " round trips of %u bytes in %.3f s; %"
		       PRIu64 " errors\n", proto, n, o.len, elapsed, errors);
		printf("rtt us: min %.1f p50 %.1f p90 %.1f p99 %.1f max %.1f"
		       " mean %.1f\n", pct_us(rtt, n, 0), pct_us(rtt, n, 50),
		       pct_us(rtt, n, 90), pct_us(rtt, n, 99),
		       pct_us(rtt, n, 100), mean);
	}
	fflush(stdout);
}

/* The first address HOST:PORT resolves to, for a socket of our type. */
static struct addrinfo *resolve(const char *host, bool passive)
{
	struct addrinfo hints = {
		.ai_family = AF_UNSPEC,
		.ai_socktype = o.tcp ? SOCK_STREAM : SOCK_DGRAM,
		.ai_flags = passive ? AI_PASSIVE : 0,
	};
	struct addrinfo *ai;
	int err;

	/* Without -B, listen on IPv6 any, which takes IPv4 too. */
	if (passive && !host)
		hints.ai_family = AF_INET6;
	err = getaddrinfo(host, o.port, &hints, &ai);
	if (err) {
		fprintf(stderr, "rrperf: %s: %s\n", host ? host : "any",
			gai_strerror(err));
		return NULL;
	}
	return ai;
}

/* Write all N bytes of BUF; 0, or -1 on an error. */
static int write_all(int fd, const unsigned char *buf, size_t n)
{
	while (n) {
		ssize_t r = send(fd, buf, n, MSG_NOSIGNAL);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		buf += r;
		n -= r;
	}
	return 0;
}

/* Read exactly N bytes into BUF; 0, or -1 on an error, EOF or timeout. */
static int read_all(int fd, unsigned char *buf, size_t n)
{
	while (n) {
		ssize_t r = recv(fd, buf, n, 0);

		if (r < 0 && errno == EINTR && !stop)
			continue;
		if (r <= 0)
			return -1;
		buf += r;
		n -= r;
	}
	return 0;
}

/* Wait up to 100 ms for FD to be readable: 1 when it is, 0 if not. */
static int wait_in(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 100) > 0;
}

/* Read and discard a connection's bytes until it ends. */
static void sink_tcp(int fd, unsigned char *buf)
{
	while (!stop) {
		ssize_t n = recv(fd, buf, MAX_LEN, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
	}
}

static void serve_tcp(int fd, unsigned char *buf)
{
	while (!stop) {
		ssize_t n;

		if (!wait_in(fd))
			continue;
		n = recv(fd, buf, MAX_LEN, MSG_DONTWAIT);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n <= 0 || write_all(fd, buf, n))
			return;
	}
}

static int server(void)
{
	struct addrinfo *ai = resolve(o.bind, true);
	unsigned char *buf = malloc(MAX_LEN);
	int fd, one = 1;

	if (!ai || !buf)
		return 1;
	fd = socket(ai->ai_family, ai->ai_socktype, 0);
	if (fd < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, ai->ai_addr, ai->ai_addrlen) ||
	    (o.tcp && listen(fd, 4))) {
		perror("rrperf: server socket");
		return 1;
	}
	freeaddrinfo(ai);
	/* Scripts wait for this line before starting a client. */
	fprintf(stderr, "rrperf: ready: %s port %s\n", o.tcp ? "tcp" : "udp",
		o.port);
	while (!stop) {
		struct sockaddr_storage from;
		socklen_t from_len = sizeof(from);
		ssize_t n;
		int c;

		if (!wait_in(fd))
			continue;
		if (o.tcp) {
			c = accept(fd, NULL, NULL);
			if (c < 0)
				continue;
			setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one,
				   sizeof(one));
			if (o.sink)
				sink_tcp(c, buf);
			else
				serve_tcp(c, buf);
			close(c);
			if (o.once)
				break;
			continue;
		}
		n = recvfrom(fd, buf, MAX_LEN, MSG_DONTWAIT,
			     (struct sockaddr *)&from, &from_len);
		if (n >= 0)
			sendto(fd, buf, n, 0, (struct sockaddr *)&from,
			       from_len);
	}
	close(fd);
	free(buf);
	return 0;
}

/* A pattern that differs from one message to the next. */
static void fill(unsigned char *buf, uint32_t len, uint64_t seq)
{
	uint64_t s = seq * 0x9e3779b97f4a7c15ull + 1;
	uint32_t i;

	for (i = 0; i < len; i++) {
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		buf[i] = (unsigned char)s;
	}
}

/* Read standard input up to the end of a line, or its end. */
static void wait_line(void)
{
	char c;

	while (read(STDIN_FILENO, &c, 1) == 1 && c != '\n')
		;
}

/* Bulk: BYTES on the connected FD, then its end, then the server's. */
static int client_bulk(int fd)
{
	unsigned char *buf = calloc(1, BULK_CHUNK);
	uint64_t left = o.bulk;
	double start;
	ssize_t n;
	int err = 0;
	char c;

	if (!buf)
		return 1;
	if (o.gate) {
		fprintf(stderr, "rrperf: waiting\n");
		wait_line();
	}
	start = now_s();
	while (left && !err) {
		size_t len = left < BULK_CHUNK ? left : BULK_CHUNK;

		err = write_all(fd, buf, len);
		left -= len;
	}
	/* The server closes once it has read every byte. */
	err = err || shutdown(fd, SHUT_WR);
	if (err)
		perror("rrperf: bulk");
	while (!err && (n = recv(fd, &c, 1, 0)) != 0) {
		if (n > 0)
			fprintf(stderr, "rrperf: bulk: the server sent data\n");
		else if (errno != EINTR || stop)
			perror("rrperf: bulk: waiting for the server's end");
		err = n > 0 || errno != EINTR || stop;
	}
	if (o.json)
		printf("{\"role\":\"client\",\"mode\":\"bulk\",\"proto\":\"tcp\""
		       ",\"bytes\":%" PRIu64 ",\"errors\":%d,\"elapsed\":%.6f}\n",
		       o.bulk - left, err, now_s() - start);
	free(buf);
	close(fd);
	return err;
}

static int client(void)
{
	struct timeval tv = { WAIT_S, 0 };
	struct addrinfo *ai = resolve(o.dst, false);
	uint64_t seq, n = 0, cap = 0, errors = 0, *rtt = NULL;
	unsigned char *buf = malloc(o.len), *echo = malloc(o.len + 1);
	double start;
	int fd, one = 1;

	if (!ai || !buf || !echo)
		return 1;
	fd = socket(ai->ai_family, ai->ai_socktype, 0);
	/* Bulk: no timeout, no TCP_NODELAY, as a bulk sender runs TCP. */
	if (fd < 0 ||
	    (!o.bulk &&
	     setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv))) ||
	    (o.tcp && !o.bulk &&
	     setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one))) ||
	    connect(fd, ai->ai_addr, ai->ai_addrlen)) {
		perror("rrperf: client socket");
		return 1;
	}
	freeaddrinfo(ai);
	if (o.bulk) {
		free(buf);
		free(echo);
		return client_bulk(fd);
	}
	start = now_s();
	for (seq = 0; !stop; seq++) {
		struct timespec t0, t1;
		int bad;

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
		fill(buf, o.len, seq);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		if (o.tcp) {
			bad = write_all(fd, buf, o.len) ||
			      read_all(fd, echo, o.len);
		} else {
			bad = send(fd, buf, o.len, 0) != (ssize_t)o.len;
			/* One datagram, of exactly our length. */
			bad = bad || recv(fd, echo, o.len + 1, 0) !=
				     (ssize_t)o.len;
		}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (bad || memcmp(buf, echo, o.len)) {
			if (!stop)
				fprintf(stderr, "rrperf: message %" PRIu64
					": %s\n", seq, bad ? strerror(errno) :
					"echo not intact");
			errors++;
			break;
		}
		rtt[n++] = (uint64_t)(t1.tv_sec - t0.tv_sec) * 1000000000ull +
			   t1.tv_nsec - t0.tv_nsec;
	}
	report(rtt, n, errors, now_s() - start);
	close(fd);
	free(buf);
	free(echo);
	free(rtt);
	return errors != 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: rrperf -s [-u | -T] [-p PORT] [-B ADDR]\n"
		"       rrperf -c DST [-u | -T] [-p PORT] [-l LEN]\n"
		"              [-n COUNT | -t SECONDS] [-J]\n"
		"       rrperf -s -T -k [-1] [-p PORT] [-B ADDR]\n"
		"       rrperf -c DST -T -b BYTES [-G] [-p PORT] [-J]\n"
		"  -s        server: echo every message back\n"
		"  -k        server, TCP: read and discard instead\n"
		"  -1        server, TCP: exit once the first connection ends\n"
		"  -b BYTES  client, TCP: send BYTES, close, wait for the\n"
		"            server to close\n"
		"  -G        client, with -b: connect, then start once a line\n"
		"            arrives on standard input\n"
		"  -c DST    client: ping-pong with the server at DST\n"
		"  -u        UDP (default)     -T  TCP, with TCP_NODELAY\n"
		"  -p PORT   port (default %d)\n"
		"  -B ADDR   server: bind to ADDR (default: any)\n"
		"  -l LEN    message length, 1..%d (default %d)\n"
		"  -n COUNT  round trips\n"
		"  -t SECS   run for this long (default 10 without -n)\n"
		"  -J        print a JSON summary\n",
		DEF_PORT, MAX_LEN, DEF_LEN);
	exit(2);
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	int c;

	while ((c = getopt(argc, argv, "sc:uTp:B:l:n:t:kb:1GJh")) != -1) {
		switch (c) {
		case 's':
			o.server = true;
			break;
		case 'c':
			o.dst = optarg;
			break;
		case 'u':
			o.tcp = false;
			break;
		case 'T':
			o.tcp = true;
			break;
		case 'p':
			o.port = optarg;
			break;
		case 'B':
			o.bind = optarg;
			break;
		case 'l':
			o.len = strtoul(optarg, NULL, 0);
			break;
		case 'n':
			o.count = strtoull(optarg, NULL, 0);
			break;
		case 't':
			o.duration = strtod(optarg, NULL);
			break;
		case 'k':
			o.sink = true;
			break;
		case '1':
			o.once = true;
			break;
		case 'b':
			o.bulk = strtoull(optarg, NULL, 0);
			break;
		case 'G':
			o.gate = true;
			break;
		case 'J':
			o.json = true;
			break;
		default:
			usage();
		}
	}
	if (o.server == !!o.dst || !o.len || o.len > MAX_LEN ||
	    ((o.sink || o.once || o.bulk) && !o.tcp) ||
	    (o.server ? o.bulk || o.gate : o.sink || o.once) ||
	    (o.gate && !o.bulk))
		usage();
	if (!o.count && o.duration <= 0)
		o.duration = 10;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	return o.server ? server() : client();
}
