// SPDX-License-Identifier: GPL-2.0
/*
 * spraybench: the spraying engine (drivers/uet/spray.c, built unchanged
 * against compat/) in userspace.  A benchmark, not a test.
 *
 *   spraybench size              bytes of a state, per policy
 *   spraybench count POLICY N    N decisions and N feedback events in a
 *                                loop, to be counted under callgrind
 *   spraybench stats [TRIALS]    hottest path's load over the ideal, per
 *                                hashing scheme, as a markdown table
 *
 * POLICY is none, rr, active or reps; every other setting is the default.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/slab.h>
#include <linux/types.h>
#include <uet/config.h>
#include <uet/spray.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

size_t spraybench_last_alloc;

static const char * const policy_names[] = {
	[UET_SPRAY_NONE] = "none",
	[UET_SPRAY_RR] = "rr",
	[UET_SPRAY_ACTIVE] = "active",
	[UET_SPRAY_REPS] = "reps",
};

/* The benchmark's own draws (ports, salts): splitmix64. */
static u64 bench_rand(u64 *state)
{
	u64 z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int parse_policy(const char *name)
{
	unsigned int i;

	for (i = 0; i <= UET_SPRAY_MAX; i++)
		if (!strcmp(name, policy_names[i]))
			return i;
	fprintf(stderr, "spraybench: unknown policy '%s'\n", name);
	exit(2);
}

static struct uet_spray *create(struct uet_config *cfg, int policy, u64 key,
				u16 port)
{
	struct uet_spray *s;

	cfg->spray = policy;
	s = uet_spray_create(cfg, key, port, GFP_KERNEL);
	if (!s) {
		fprintf(stderr, "spraybench: uet_spray_create(%s) failed\n",
			policy_names[policy]);
		exit(1);
	}
	return s;
}

static void print_size(const char *what, struct uet_config *cfg, int policy)
{
	uet_spray_destroy(create(cfg, policy, 1, 4000));
	printf("| %s | %zu |\n", what, spraybench_last_alloc);
}

static int cmd_size(void)
{
	struct uet_config cfg;

	uet_config_init_defaults(&cfg);
	printf("| state | bytes |\n|---|---|\n");
	print_size("none", &cfg, UET_SPRAY_NONE);
	print_size("rr", &cfg, UET_SPRAY_RR);
	print_size("active, 2^7 range (72 values)", &cfg, UET_SPRAY_ACTIVE);
	cfg.entropy_mask_bits = 8;
	print_size("active, 2^8 range", &cfg, UET_SPRAY_ACTIVE);
	cfg.reps_buf_bits = 0;
	print_size("reps, cache of 1", &cfg, UET_SPRAY_REPS);
	cfg.reps_buf_bits = 3;
	print_size("reps, cache of 8", &cfg, UET_SPRAY_REPS);
	cfg.reps_buf_bits = 8;
	print_size("reps, cache of 256 (default)", &cfg, UET_SPRAY_REPS);
	cfg.reps_buf_bits = 16;
	print_size("reps, cache of 65536", &cfg, UET_SPRAY_REPS);
	return 0;
}

/*
 * The loop callgrind counts.  Time moves 82 ns a packet (a 4 KiB packet at
 * 400 Gbit/s).  Every packet is ACKed 8 packets after it was sent; every
 * 16th ACK has the ECN echo, every 32nd packet is trimmed instead, and every
 * 4096th times out (its probe is answered 64 packets later).
 */
static int cmd_count(int policy, unsigned long n)
{
	u16 sent[8] = { 0 }, bad = 0;
	struct uet_config cfg;
	unsigned long i, bad_at = 0;
	enum uet_spray_event ev;
	struct uet_spray *s;
	u64 now = 0, acc = 0;
	u32 res;

	uet_config_init_defaults(&cfg);
	cfg.seed = 1;
	s = create(&cfg, policy, 1, 4000);
	for (i = 0; i < n; i++, now += 82) {
		u16 v = uet_spray_next(s, &res);

		acc += v + res;
		if (i % 4096 == 4095) {
			ev = UET_SPRAY_EV_TIMEOUT;
			bad = v;
			bad_at = i;
		} else if (bad_at && i == bad_at + 64) {
			ev = UET_SPRAY_EV_PROBE_RESP;
			v = bad;
		} else if (i % 32 == 31) {
			ev = UET_SPRAY_EV_NACK_TRIM;
		} else {
			ev = i % 16 == 15 ? UET_SPRAY_EV_ACK_ECN :
					    UET_SPRAY_EV_ACK;
			sent[i % 8] = v;
			v = sent[(i + 1) % 8];
		}
		acc += uet_spray_feedback(s, ev, v, now);
	}
	uet_spray_destroy(s);
	printf("%s: %lu decisions, %lu feedback events (checksum %llu)\n",
	       policy_names[policy], n, n, (unsigned long long)acc);
	return 0;
}

static u32 crc_table[256];

static void crc_init(void)
{
	u32 i, j, c;

	for (i = 0; i < 256; i++) {
		for (c = i, j = 0; j < 8; j++)
			c = c & 1 ? 0xedb88320 ^ (c >> 1) : c >> 1;
		crc_table[i] = c;
	}
}

static u32 crc32_bytes(u32 crc, const u8 *p, size_t len)
{
	while (len--)
		crc = crc_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return crc;
}

/* A switch's ECMP choice: CRC32 of salt and 5-tuple, modulo the paths. */
static unsigned int ecmp_path(u32 salt, u32 saddr, u32 daddr, u16 sport,
			      unsigned int npaths)
{
	u8 key[17];
	u16 dport = 4793;
	u32 crc;

	memcpy(key, &salt, 4);
	memcpy(key + 4, &saddr, 4);
	memcpy(key + 8, &daddr, 4);
	memcpy(key + 12, &sport, 2);
	memcpy(key + 14, &dport, 2);
	key[16] = 17;	/* UDP */
	crc = ~crc32_bytes(~0U, key, sizeof(key));
	return crc % npaths;
}

#define SCHEMES		(UET_SPRAY_MAX + 2)	/* ECMP, then each policy */
#define MAX_PATHS	64
#define MAX_WINDOW	1024

/*
 * One flow of @npkts packets from the engine.  Under reps, every packet is
 * ACKed clean one exploration window (a BDP of packets) after it is sent.
 */
static void spray_flow(struct uet_config *cfg, int policy, u64 key,
		       u16 own_port, u32 salt, u32 saddr, u32 daddr,
		       unsigned int npkts, unsigned int npaths, u64 *load)
{
	u32 w = uet_config_reps_window(cfg);
	u16 inflight[MAX_WINDOW];
	struct uet_spray *s;
	unsigned int i;
	u16 v;

	if (w > MAX_WINDOW)
		w = MAX_WINDOW;
	s = create(cfg, policy, key, own_port);
	for (i = 0; i < npkts; i++) {
		if (policy == UET_SPRAY_REPS && w && i >= w)
			uet_spray_feedback(s, UET_SPRAY_EV_ACK,
					   inflight[i % w], (u64)i * 82);
		v = uet_spray_next(s, NULL);
		if (w)
			inflight[i % w] = v;
		load[ecmp_path(salt, saddr, daddr, v, npaths)]++;
	}
	uet_spray_destroy(s);
}

static double hottest_over_ideal(const u64 *load, unsigned int npaths,
				 double ideal)
{
	u64 max = 0;
	unsigned int p;

	for (p = 0; p < npaths; p++)
		if (load[p] > max)
			max = load[p];
	return max / ideal;
}

/* Mean over @trials of the hottest path's load / ideal, per scheme. */
static void stats_row(unsigned int nflows, unsigned int npkts,
		      unsigned int npaths, unsigned int trials, u64 *rng,
		      double *mean)
{
	double ideal = (double)nflows * npkts / npaths;
	u64 load[SCHEMES][MAX_PATHS];
	struct uet_config cfg;
	unsigned int t, f, k;

	uet_config_init_defaults(&cfg);
	memset(mean, 0, sizeof(*mean) * SCHEMES);
	for (t = 0; t < trials; t++) {
		u32 salt = bench_rand(rng);

		cfg.seed = bench_rand(rng) | 1;
		memset(load, 0, sizeof(load));
		for (f = 0; f < nflows; f++) {
			u32 saddr = 0x0a000001 + f, daddr = 0x0a010001 + f;
			/* an ephemeral port, as a flow's own local port */
			u16 port = 49152 + bench_rand(rng) % 16384;

			load[0][ecmp_path(salt, saddr, daddr, port, npaths)] +=
				npkts;
			for (k = 0; k <= UET_SPRAY_MAX; k++)
				spray_flow(&cfg, k, daddr, port, salt, saddr,
					   daddr, npkts, npaths, load[k + 1]);
		}
		for (k = 0; k < SCHEMES; k++)
			mean[k] += hottest_over_ideal(load[k], npaths, ideal);
	}
	for (k = 0; k < SCHEMES; k++)
		mean[k] /= trials;
}

static int cmd_stats(unsigned int trials)
{
	static const unsigned int flows[] = { 4, 8, 16 };
	static const unsigned int pkts[] = { 256, 1024, 4096 };
	static const unsigned int paths[] = { 4, 6, 8 };
	double mean[SCHEMES];
	unsigned int a, b, c, k;
	u64 rng = 1;

	crc_init();
	printf("| flows | packets/flow | paths | ECMP per flow | none | rr | active | reps |\n");
	printf("|---|---|---|---|---|---|---|---|\n");
	for (c = 0; c < ARRAY_SIZE(paths); c++)
		for (a = 0; a < ARRAY_SIZE(flows); a++)
			for (b = 0; b < ARRAY_SIZE(pkts); b++) {
				stats_row(flows[a], pkts[b], paths[c], trials,
					  &rng, mean);
				printf("| %u | %u | %u |", flows[a], pkts[b],
				       paths[c]);
				for (k = 0; k < SCHEMES; k++)
					printf(" %.3f |", mean[k]);
				printf("\n");
			}
	return 0;
}

static void usage(void)
{
	fputs("usage: spraybench size\n"
	      "       spraybench count none|rr|active|reps N\n"
	      "       spraybench stats [TRIALS]\n", stderr);
	exit(2);
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "size"))
		return cmd_size();
	if (argc == 4 && !strcmp(argv[1], "count"))
		return cmd_count(parse_policy(argv[2]),
				 strtoul(argv[3], NULL, 0));
	if (argc >= 2 && !strcmp(argv[1], "stats"))
		return cmd_stats(argc > 2 ? strtoul(argv[2], NULL, 0) ?: 1 : 200);
	usage();
	return 2;
}
