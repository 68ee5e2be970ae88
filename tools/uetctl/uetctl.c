// SPDX-License-Identifier: GPL-2.0
/*
 * uetctl - configure and inspect uet, the Ultra Ethernet Transport module.
 *
 * Talks to the "uet" generic netlink family with libnl-genl-3 and prints
 * the kernel's extended ack (message, offending attribute and its valid
 * range) when a request is refused.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>

#include <linux/uet_netlink.h>

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

enum key_kind {
	K_INT,		/* plain integer */
	K_SPRAY,	/* none|rr|active|reps */
	K_BOOL,		/* on|off */
	K_TIME,		/* with a unit: ns, us, ms, s */
	K_RATE,		/* with a unit: mbit, gbit, tbit */
};

/**
 * struct key - one configuration key of the command line
 * @name: command line and text output name
 * @json: JSON member name
 * @attr: UET_A_CFG_* attribute
 * @size: integer size of the attribute in bytes
 * @kind: how the value is written and printed
 * @unit: for K_TIME, nanoseconds per unit of the attribute; for K_RATE,
 *	Mbit/s per unit
 */
struct key {
	const char *name;
	const char *json;
	int attr;
	int size;
	enum key_kind kind;
	uint64_t unit;
};

static const struct key keys[] = {
	{ "spray", "spray", UET_A_CFG_SPRAY, 1, K_SPRAY, 0 },
	{ "entropy-bits", "entropy_bits", UET_A_CFG_ENTROPY_MASK_BITS, 1, K_INT, 0 },
	{ "start-port", "start_port", UET_A_CFG_START_PORT, 2, K_INT, 0 },
	{ "active-set-size", "active_set_size", UET_A_CFG_ACTIVE_SET_SIZE, 4, K_INT, 0 },
	{ "buffer-bits", "buffer_bits", UET_A_CFG_REPS_BUF_BITS, 1, K_INT, 0 },
	{ "ev-set-size", "ev_set_size", UET_A_CFG_EV_SET_SIZE, 4, K_INT, 0 },
	{ "freeze-timeout", "freeze_timeout_ns", UET_A_CFG_FREEZE_TIMEOUT_NS, 4, K_TIME, 1 },
	{ "fail-detect-mult", "fail_detect_mult", UET_A_CFG_FAIL_DETECT_MULT, 1, K_INT, 0 },
	{ "probe-period", "probe_period_ns", UET_A_CFG_PROBE_PERIOD_NS, 4, K_TIME, 1 },
	{ "pdc-groups", "pdc_groups", UET_A_CFG_PDC_GROUPS, 1, K_BOOL, 0 },
	{ "link-rate", "link_rate_mbps", UET_A_CFG_LINK_RATE_MBPS, 4, K_RATE, 1 },
	{ "base-rtt", "base_rtt_ns", UET_A_CFG_BASE_RTT_NS, 4, K_TIME, 1 },
	{ "mss", "mss", UET_A_CFG_MSS, 4, K_INT, 0 },
	{ "udp-port", "udp_port", UET_A_CFG_UDP_PORT, 2, K_INT, 0 },
	{ "pdc-idle", "pdc_idle_ms", UET_A_CFG_PDC_IDLE_MS, 4, K_TIME, 1000000 },
	{ "rto-min", "rto_min_us", UET_A_CFG_RTO_MIN_US, 4, K_TIME, 1000 },
	{ "rto-max", "rto_max_us", UET_A_CFG_RTO_MAX_US, 4, K_TIME, 1000 },
	{ "max-retx", "max_retx", UET_A_CFG_MAX_RETX, 1, K_INT, 0 },
	{ "seed", "seed", UET_A_CFG_SEED, 8, K_INT, 0 },
	{ "sack-retx-thresh", "sack_retx_thresh", UET_A_CFG_SACK_RETX_THRESH, 2, K_INT, 0 },
};

#define NKEYS (sizeof(keys) / sizeof(keys[0]))

static const char * const spray_names[] = {
	[UET_SPRAY_NONE] = "none",
	[UET_SPRAY_RR] = "rr",
	[UET_SPRAY_ACTIVE] = "active",
	[UET_SPRAY_REPS] = "reps",
};

static bool json;

static const struct key *key_by_name(const char *name)
{
	size_t i;

	for (i = 0; i < NKEYS; i++)
		if (!strcmp(keys[i].name, name))
			return &keys[i];
	return NULL;
}

static const struct key *key_by_attr(int attr)
{
	size_t i;

	for (i = 0; i < NKEYS; i++)
		if (keys[i].attr == attr)
			return &keys[i];
	return NULL;
}

/* ---- talking to the kernel ---------------------------------------------- */

/**
 * struct req - one request and what the kernel said about it
 * @msg: the request, kept to map an error offset back to an attribute
 * @err: errno from the kernel's ack, 0 on success
 * @done: the ack (or error) has arrived
 */
struct req {
	struct nl_msg *msg;
	int err;
	bool done;
};

/* Format a time in the largest unit that divides it exactly. */
static const char *fmt_time(char *buf, size_t len, uint64_t ns)
{
	static const struct {
		const char *name;
		uint64_t ns;
	} units[] = { { "s", 1000000000 }, { "ms", 1000000 }, { "us", 1000 } };
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (ns && ns % units[i].ns == 0) {
			snprintf(buf, len, "%" PRIu64 "%s", ns / units[i].ns,
				 units[i].name);
			return buf;
		}
	}
	snprintf(buf, len, "%" PRIu64 "ns", ns);
	return buf;
}

static const struct key *attr_at(struct nl_msg *msg, uint32_t off)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct nlattr *nla;
	int rem;

	nlmsg_for_each_attr(nla, nlh, GENL_HDRLEN, rem) {
		if ((uint32_t)((char *)nla - (char *)nlh) == off)
			return key_by_attr(nla_type(nla));
	}
	return NULL;
}

static void print_policy(const struct key *k, struct nlattr *pol)
{
	struct nlattr *tb[NL_POLICY_TYPE_ATTR_MAX + 1];
	char lo[32], hi[32];
	uint64_t min, max;

	if (nla_parse_nested(tb, NL_POLICY_TYPE_ATTR_MAX, pol, NULL) ||
	    !tb[NL_POLICY_TYPE_ATTR_MIN_VALUE_U] ||
	    !tb[NL_POLICY_TYPE_ATTR_MAX_VALUE_U])
		return;
	min = nla_get_u64(tb[NL_POLICY_TYPE_ATTR_MIN_VALUE_U]);
	max = nla_get_u64(tb[NL_POLICY_TYPE_ATTR_MAX_VALUE_U]);
	if (k && k->kind == K_TIME)
		fprintf(stderr, " (valid range %s..%s)",
			fmt_time(lo, sizeof(lo), min * k->unit),
			fmt_time(hi, sizeof(hi), max * k->unit));
	else
		fprintf(stderr, " (valid range %" PRIu64 "..%" PRIu64 ")",
			min, max);
}

static int on_error(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)((char *)e - NLMSG_HDRLEN);
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1] = {};
	struct req *req = arg;
	const struct key *k = NULL;
	struct nlattr *attrs;
	int len;

	(void)nla;
	req->err = -e->error;
	req->done = true;
	if (nlh->nlmsg_flags & NLM_F_ACK_TLVS) {
		/* NETLINK_CAP_ACK is on: the TLVs follow the bare header. */
		attrs = (struct nlattr *)((char *)e + sizeof(*e));
		len = (int)nlh->nlmsg_len - NLMSG_HDRLEN - (int)sizeof(*e);
		if (len > 0)
			nla_parse(tb, NLMSGERR_ATTR_MAX, attrs, len, NULL);
	}
	if (tb[NLMSGERR_ATTR_OFFS])
		k = attr_at(req->msg, nla_get_u32(tb[NLMSGERR_ATTR_OFFS]));

	fprintf(stderr, "Error: ");
	if (tb[NLMSGERR_ATTR_MSG])
		fprintf(stderr, "%s", nla_get_string(tb[NLMSGERR_ATTR_MSG]));
	else
		fprintf(stderr, "%s", strerror(req->err));
	if (k)
		fprintf(stderr, ": %s", k->name);
	if (tb[NLMSGERR_ATTR_POLICY])
		print_policy(k, tb[NLMSGERR_ATTR_POLICY]);
	fprintf(stderr, "\n");
	return NL_STOP;
}

static int on_ack(struct nl_msg *msg, void *arg)
{
	(void)msg;
	((struct req *)arg)->err = 0;
	((struct req *)arg)->done = true;
	return NL_STOP;
}

static struct nl_sock *open_family(int *family)
{
	struct nl_sock *sk = nl_socket_alloc();
	int one = 1;

	if (!sk || genl_connect(sk)) {
		fprintf(stderr, "Error: cannot open a generic netlink socket\n");
		exit(1);
	}
	setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, NETLINK_EXT_ACK, &one,
		   sizeof(one));
	setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, NETLINK_CAP_ACK, &one,
		   sizeof(one));
	*family = genl_ctrl_resolve(sk, UET_GENL_NAME);
	if (*family < 0) {
		fprintf(stderr,
			"Error: generic netlink family \"%s\" not found (is the uet module loaded?)\n",
			UET_GENL_NAME);
		exit(1);
	}
	return sk;
}

static struct nl_msg *new_msg(int family, int cmd)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (!msg || !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0,
				 NLM_F_REQUEST | NLM_F_ACK, cmd, UET_GENL_VERSION)) {
		fprintf(stderr, "Error: out of memory\n");
		exit(1);
	}
	return msg;
}

/* Send @msg, hand every reply to @parse, return 0 or the kernel's errno. */
static int transact(struct nl_sock *sk, struct nl_msg *msg,
		    nl_recvmsg_msg_cb_t parse, void *parse_arg)
{
	struct nl_cb *cb = nl_cb_alloc(NL_CB_DEFAULT);
	struct req req = { .msg = msg };
	int err;

	nl_cb_err(cb, NL_CB_CUSTOM, on_error, &req);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_ack, &req);
	if (parse)
		nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, parse, parse_arg);
	err = nl_send_auto(sk, msg);
	if (err < 0) {
		fprintf(stderr, "Error: send: %s\n", nl_geterror(err));
		nl_cb_put(cb);
		return EIO;
	}
	while (!req.done) {
		err = nl_recvmsgs(sk, cb);
		if (err < 0 && !req.done) {
			fprintf(stderr, "Error: receive: %s\n", nl_geterror(err));
			req.err = EIO;
			break;
		}
	}
	nl_cb_put(cb);
	nlmsg_free(msg);
	return req.err;
}

/* ---- values ------------------------------------------------------------- */

static void print_value(const struct key *k, uint64_t v)
{
	char buf[32];

	if (json) {
		if (k->kind == K_SPRAY)
			printf("\"%s\"", v <= UET_SPRAY_MAX ? spray_names[v] : "unknown");
		else if (k->kind == K_BOOL)
			printf("%s", v ? "true" : "false");
		else
			printf("%" PRIu64, v);
		return;
	}
	switch (k->kind) {
	case K_SPRAY:
		printf("%s", v <= UET_SPRAY_MAX ? spray_names[v] : "unknown");
		break;
	case K_BOOL:
		printf("%s", v ? "on" : "off");
		break;
	case K_TIME:
		printf("%s", fmt_time(buf, sizeof(buf), v * k->unit));
		break;
	case K_RATE:
		if (v % 1000 == 0)
			printf("%" PRIu64 "gbit", v / 1000);
		else
			printf("%" PRIu64 "mbit", v);
		break;
	default:
		printf("%" PRIu64, v);
	}
}

static int parse_scaled(const char *s, uint64_t *out,
			const char * const *units, const uint64_t *scale,
			uint64_t unit)
{
	unsigned long long v;
	char *end;
	int i;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *s == '-')
		return -1;
	if (!*end) {
		*out = v;
		return 0;
	}
	for (i = 0; units[i]; i++) {
		if (strcmp(end, units[i]))
			continue;
		if (v > UINT64_MAX / scale[i])
			return -1;
		v *= scale[i];
		if (v % unit)
			return -1;	/* finer than the attribute can hold */
		*out = v / unit;
		return 0;
	}
	return -1;
}

static int parse_value(const struct key *k, const char *s, uint64_t *v)
{
	static const char * const tunits[] = { "ns", "us", "ms", "s", NULL };
	static const uint64_t tscale[] = { 1, 1000, 1000000, 1000000000 };
	static const char * const runits[] = { "mbit", "gbit", "tbit", NULL };
	static const uint64_t rscale[] = { 1, 1000, 1000000 };
	unsigned int i;

	switch (k->kind) {
	case K_SPRAY:
		for (i = 0; i <= UET_SPRAY_MAX; i++) {
			if (!strcmp(s, spray_names[i])) {
				*v = i;
				return 0;
			}
		}
		return -1;
	case K_BOOL:
		if (!strcmp(s, "on") || !strcmp(s, "1"))
			*v = 1;
		else if (!strcmp(s, "off") || !strcmp(s, "0"))
			*v = 0;
		else
			return -1;
		return 0;
	case K_TIME:
		return parse_scaled(s, v, tunits, tscale, k->unit);
	case K_RATE:
		return parse_scaled(s, v, runits, rscale, k->unit);
	default:
		return parse_scaled(s, v, tunits + 4, tscale, 1);
	}
}

/* ---- commands ----------------------------------------------------------- */

static int show_config(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[UET_A_CFG_MAX + 1];
	const char *sep = "";
	size_t i;

	(void)arg;
	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, UET_A_CFG_MAX, NULL))
		return NL_SKIP;
	if (json)
		printf("{");
	for (i = 0; i < NKEYS; i++) {
		const struct key *k = &keys[i];
		uint64_t v;

		if (!tb[k->attr])
			continue;
		switch (k->size) {
		case 1:
			v = nla_get_u8(tb[k->attr]);
			break;
		case 2:
			v = nla_get_u16(tb[k->attr]);
			break;
		case 4:
			v = nla_get_u32(tb[k->attr]);
			break;
		default:
			v = nla_get_u64(tb[k->attr]);
		}
		if (json)
			printf("%s\"%s\":", sep, k->json);
		else
			printf("%s ", k->name);
		print_value(k, v);
		if (!json)
			printf("\n");
		sep = ",";
	}
	if (json)
		printf("}\n");
	return NL_OK;
}

static int cmd_show(struct nl_sock *sk, int family, int argc, char **argv)
{
	(void)argv;
	if (argc) {
		fprintf(stderr, "Error: \"show\" takes no arguments\n");
		return 1;
	}
	return transact(sk, new_msg(family, UET_CMD_CONFIG_GET), show_config,
			NULL) ? 1 : 0;
}

static int put_value(struct nl_msg *msg, const struct key *k, uint64_t v)
{
	uint64_t max = k->size == 8 ? UINT64_MAX : (1ULL << (8 * k->size)) - 1;

	if (v > max)
		return -1;
	switch (k->size) {
	case 1:
		return nla_put_u8(msg, k->attr, v);
	case 2:
		return nla_put_u16(msg, k->attr, v);
	case 4:
		return nla_put_u32(msg, k->attr, v);
	default:
		return nla_put_u64(msg, k->attr, v);
	}
}

static int cmd_set(struct nl_sock *sk, int family, int argc, char **argv)
{
	struct nl_msg *msg;
	int i;

	if (!argc || argc % 2) {
		fprintf(stderr, "Error: \"set\" takes KEY VALUE pairs (see uetctl help)\n");
		return 1;
	}
	msg = new_msg(family, UET_CMD_CONFIG_SET);
	for (i = 0; i < argc; i += 2) {
		const struct key *k = key_by_name(argv[i]);
		uint64_t v;

		if (!k) {
			fprintf(stderr, "Error: unknown key \"%s\"\n", argv[i]);
			return 1;
		}
		if (parse_value(k, argv[i + 1], &v) || put_value(msg, k, v)) {
			fprintf(stderr, "Error: invalid value \"%s\" for %s\n",
				argv[i + 1], k->name);
			return 1;
		}
	}
	return transact(sk, msg, NULL, NULL) ? 1 : 0;
}

static int show_info(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[UET_A_INFO_MAX + 1];

	(void)arg;
	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, UET_A_INFO_MAX, NULL) ||
	    !tb[UET_A_INFO_VERSION] || !tb[UET_A_INFO_GENL_VERSION])
		return NL_SKIP;
	if (json)
		printf("{\"version\":\"%s\",\"genl_version\":%u}\n",
		       nla_get_string(tb[UET_A_INFO_VERSION]),
		       nla_get_u32(tb[UET_A_INFO_GENL_VERSION]));
	else
		printf("uet %s, netlink version %u\n",
		       nla_get_string(tb[UET_A_INFO_VERSION]),
		       nla_get_u32(tb[UET_A_INFO_GENL_VERSION]));
	return NL_OK;
}

static int cmd_info(struct nl_sock *sk, int family, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return transact(sk, new_msg(family, UET_CMD_INFO_GET), show_info,
			NULL) ? 1 : 0;
}

static void usage(FILE *f)
{
	size_t i;

	fprintf(f,
		"Usage: uetctl [-j] [-n NETNS] COMMAND\n"
		"  show                 print the namespace's configuration\n"
		"  set KEY VALUE ...    change any subset of it, all or nothing\n"
		"  info                 module and interface version\n"
		"  help                 this text\n"
		"Options: -j JSON output, -n NETNS act in /run/netns/NETNS\n"
		"Keys:");
	for (i = 0; i < NKEYS; i++)
		fprintf(f, "%s%s", i % 6 ? " " : "\n  ", keys[i].name);
	fprintf(f,
		"\nValues: spray none|rr|active|reps; pdc-groups on|off; times take\n"
		"ns/us/ms/s, link-rate takes mbit/gbit/tbit (see uetctl(8)).\n");
}

static void enter_netns(const char *name)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "/run/netns/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || setns(fd, CLONE_NEWNET)) {
		fprintf(stderr, "Error: cannot enter network namespace \"%s\": %s\n",
			name, strerror(errno));
		exit(1);
	}
	close(fd);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(struct nl_sock *sk, int family, int argc, char **argv);
	} cmds[] = {
		{ "show", cmd_show },
		{ "set", cmd_set },
		{ "info", cmd_info },
	};
	struct nl_sock *sk;
	int opt, family, ret;
	size_t i;

	while ((opt = getopt(argc, argv, "+jn:h")) != -1) {
		switch (opt) {
		case 'j':
			json = true;
			break;
		case 'n':
			enter_netns(optarg);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 1;
		}
	}
	argc -= optind;
	argv += optind;
	if (!argc || !strcmp(argv[0], "help")) {
		usage(argc ? stdout : stderr);
		return argc ? 0 : 1;
	}
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		if (strcmp(argv[0], cmds[i].name))
			continue;
		sk = open_family(&family);
		ret = cmds[i].fn(sk, family, argc - 1, argv + 1);
		nl_socket_free(sk);
		return ret;
	}
	fprintf(stderr, "Error: unknown command \"%s\" (try uetctl help)\n",
		argv[0]);
	return 1;
}
