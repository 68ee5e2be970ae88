/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Round-trip percentiles shared by uetperf -r and rrperf, so that the
 * figures bench-latency.sh compares are computed the same way.
 */
#ifndef UET_TOOLS_RTT_H
#define UET_TOOLS_RTT_H

#include <stdint.h>

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Nearest-rank percentile Q (0..100) of the N sorted values V, in us. */
static double pct_us(const uint64_t *v, uint64_t n, double q)
{
	uint64_t k;

	if (!n)
		return 0;
	k = (uint64_t)(q / 100 * n + 0.999999);
	if (k < 1)
		k = 1;
	if (k > n)
		k = n;
	return v[k - 1] / 1e3;
}

#endif
