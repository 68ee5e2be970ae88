// SPDX-License-Identifier: GPL-2.0
/*
 * uetctl - configure and inspect uet, the Ultra Ethernet Transport module.
 *
 * Talks to the "uet" generic netlink family with libnl-genl-3: the
 * configuration, the counters, dumps of the destinations and PDCs, and the
 * "events" multicast group.  Prints the kernel's extended ack (message,
 * offending attribute and its valid range) when a request is refused.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <limits.h>
#include <pwd.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>

#include <linux/uet.h>
#include <linux/uet_netlink.h>

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

enum key_kind {
	K_INT,		/* plain integer */
	K_SPRAY,	/* none|rr|active|reps */
	K_BOOL,		/* on|off */
	K_TIME,		/* with a unit: ns, us, ms, s, min, h */
	K_RATE,		/* with a unit: mbit, gbit, tbit */
	K_ACCEPT,	/* accept|drop */
	K_CC,		/* none|nscc|rccc|nscc+rccc */
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
	{ "dscp-trimmed", "dscp_trimmed", UET_A_CFG_DSCP_TRIMMED, 1, K_INT, 0 },
	{ "udp-csum-tx", "udp_csum_tx", UET_A_CFG_UDP_CSUM_TX, 1, K_BOOL, 0 },
	{ "udp-csum-rx-zero", "udp_csum_rx_zero", UET_A_CFG_UDP_RX_ZERO_CSUM, 1, K_ACCEPT, 0 },
	{ "rx-mem", "rx_mem_pages", UET_A_CFG_RX_MEM, 4, K_INT, 0 },
	{ "msg-timeout", "msg_timeout_ms", UET_A_CFG_MSG_TIMEOUT_MS, 4, K_TIME, 1000000 },
	{ "challenge-ack-limit", "challenge_ack_limit", UET_A_CFG_CHALLENGE_ACK_LIMIT, 4, K_INT, 0 },
	{ "sndbuf", "sndbuf", UET_A_CFG_SNDBUF, 4, K_INT, 0 },
	{ "rcvbuf", "rcvbuf", UET_A_CFG_RCVBUF, 4, K_INT, 0 },
	{ "cc", "cc", UET_A_CFG_CC, 1, K_CC, 0 },
	{ "cc-target-qdelay", "cc_target_qdelay_ns", UET_A_CFG_CC_TARGET_QDELAY_NS, 4, K_TIME, 1 },
	{ "ack-delay", "ack_delay_us", UET_A_CFG_ACK_DELAY_US, 4, K_TIME, 1000 },
	{ "spray-burst", "spray_burst", UET_A_CFG_SPRAY_BURST, 1, K_INT, 0 },
	{ "superpackets", "superpackets", UET_A_CFG_SUPERPACKETS, 1, K_BOOL, 0 },
};

/* "set udp-csum tx on rx-zero drop": the keys of a group, without its name. */
static const char * const key_groups[] = { "udp-csum", NULL };

#define NKEYS (sizeof(keys) / sizeof(keys[0]))

static const char * const spray_names[] = {
	[UET_SPRAY_NONE] = "none",
	[UET_SPRAY_RR] = "rr",
	[UET_SPRAY_ACTIVE] = "active",
	[UET_SPRAY_REPS] = "reps",
};

static const char * const cc_names[] = {
	[UET_CC_NONE] = "none",
	[UET_CC_NSCC] = "nscc",
	[UET_CC_RCCC] = "rccc",
	[UET_CC_NSCC_RCCC] = "nscc+rccc",
};
_Static_assert(sizeof(cc_names) / sizeof(cc_names[0]) == UET_CC_MAX + 1,
	       "a name for every enum uet_cc_type");

/* enum uet_nscc_action, as the uet_cc tracepoint names them */
static const char * const cc_action_names[] = {
	"none", "inc_prop", "inc_fast", "inc_fair", "hold", "md", "md_wait",
	"quick_adapt", "qa_ignore", "trim_dec", "loss_dec",
};

#define NCC_ACTIONS (sizeof(cc_action_names) / sizeof(cc_action_names[0]))

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
	} units[] = { { "h", 3600000000000ULL }, { "min", 60000000000ULL },
		      { "s", 1000000000 }, { "ms", 1000000 }, { "us", 1000 } };
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

/* A measured time: exact in a unit that divides it, else to 0.1 unit. */
static const char *fmt_dur(char *buf, size_t len, uint64_t ns)
{
	static const struct {
		const char *name;
		uint64_t ns;
	} units[] = { { "s", 1000000000 }, { "ms", 1000000 }, { "us", 1000 } };
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (ns < units[i].ns)
			continue;
		if (ns % units[i].ns == 0)
			snprintf(buf, len, "%" PRIu64 "%s", ns / units[i].ns,
				 units[i].name);
		else
			snprintf(buf, len, "%.1f%s", (double)ns / units[i].ns,
				 units[i].name);
		return buf;
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

/* A callback set; like the messages, a failed allocation ends the tool. */
static struct nl_cb *new_cb(void)
{
	struct nl_cb *cb = nl_cb_alloc(NL_CB_DEFAULT);

	if (!cb) {
		fprintf(stderr, "Error: out of memory\n");
		exit(1);
	}
	return cb;
}

/*
 * Send @msg, run @cb over the replies until @req is done, free both.
 * Return: 0 or the kernel's errno; EIO when the socket failed.
 */
static int exchange(struct nl_sock *sk, struct nl_msg *msg, struct nl_cb *cb,
		    struct req *req)
{
	int err = nl_send_auto(sk, msg);

	if (err < 0) {
		fprintf(stderr, "Error: send: %s\n", nl_geterror(err));
		req->err = EIO;
		req->done = true;
	}
	while (!req->done) {
		err = nl_recvmsgs(sk, cb);
		if (err < 0 && !req->done) {
			fprintf(stderr, "Error: receive: %s\n", nl_geterror(err));
			req->err = EIO;
			break;
		}
	}
	nl_cb_put(cb);
	nlmsg_free(msg);
	return req->err;
}

/* Send @msg, hand every reply to @parse, return 0 or the kernel's errno. */
static int transact(struct nl_sock *sk, struct nl_msg *msg,
		    nl_recvmsg_msg_cb_t parse, void *parse_arg)
{
	struct nl_cb *cb = new_cb();
	struct req req = { .msg = msg };

	nl_cb_err(cb, NL_CB_CUSTOM, on_error, &req);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_ack, &req);
	if (parse)
		nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, parse, parse_arg);
	return exchange(sk, msg, cb, &req);
}

/* ---- values ------------------------------------------------------------- */

static void print_value(const struct key *k, uint64_t v)
{
	char buf[32];

	if (json) {
		if (k->kind == K_SPRAY)
			printf("\"%s\"", v <= UET_SPRAY_MAX ? spray_names[v] : "unknown");
		else if (k->kind == K_CC)
			printf("\"%s\"", v <= UET_CC_MAX ? cc_names[v] : "unknown");
		else if (k->kind == K_BOOL)
			printf("%s", v ? "true" : "false");
		else if (k->kind == K_ACCEPT)
			printf("\"%s\"", v ? "accept" : "drop");
		else
			printf("%" PRIu64, v);
		return;
	}
	switch (k->kind) {
	case K_SPRAY:
		printf("%s", v <= UET_SPRAY_MAX ? spray_names[v] : "unknown");
		break;
	case K_CC:
		printf("%s", v <= UET_CC_MAX ? cc_names[v] : "unknown");
		break;
	case K_BOOL:
		printf("%s", v ? "on" : "off");
		break;
	case K_ACCEPT:
		printf("%s", v ? "accept" : "drop");
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
	/* "min", not "m": "m" would read as milli as easily as minute. */
	static const char * const tunits[] = { "ns", "us", "ms", "s", "min",
					       "h", NULL };
	static const uint64_t tscale[] = { 1, 1000, 1000000, 1000000000,
					   60000000000ULL, 3600000000000ULL };
	static const char * const nounits[] = { NULL };
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
	case K_CC:
		for (i = 0; i <= UET_CC_MAX; i++) {
			if (!strcmp(s, cc_names[i])) {
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
	case K_ACCEPT:
		if (!strcmp(s, "accept"))
			*v = 1;
		else if (!strcmp(s, "drop"))
			*v = 0;
		else
			return -1;
		return 0;
	case K_TIME:
		return parse_scaled(s, v, tunits, tscale, k->unit);
	case K_RATE:
		return parse_scaled(s, v, runits, rscale, k->unit);
	default:
		return parse_scaled(s, v, nounits, tscale, 1);
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
	const char *group = NULL;
	struct nl_msg *msg;
	int i = 0, g;

	msg = new_msg(family, UET_CMD_CONFIG_SET);
	while (i < argc) {
		const struct key *k = NULL;
		char name[64];
		uint64_t v;

		for (g = 0; key_groups[g]; g++)
			if (!strcmp(argv[i], key_groups[g]))
				break;
		if (key_groups[g]) {
			group = key_groups[g];
			i++;
			continue;
		}
		if (group) {
			snprintf(name, sizeof(name), "%s-%s", group, argv[i]);
			k = key_by_name(name);
		}
		if (!k)
			k = key_by_name(argv[i]);
		if (!k) {
			fprintf(stderr, "Error: unknown key \"%s\"\n", argv[i]);
			return 1;
		}
		if (i + 1 >= argc)
			break;
		if (parse_value(k, argv[i + 1], &v) || put_value(msg, k, v)) {
			fprintf(stderr, "Error: invalid value \"%s\" for %s\n",
				argv[i + 1], k->name);
			return 1;
		}
		i += 2;
	}
	if (!argc || i != argc || !nlmsg_attrlen(nlmsg_hdr(msg), GENL_HDRLEN)) {
		fprintf(stderr, "Error: \"set\" takes KEY VALUE pairs (see uetctl help)\n");
		return 1;
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

/* ---- output helpers ----------------------------------------------------- */

/* Print @s as a JSON string. */
static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* An address as the kernel sends it: IPv6, or IPv4 as ::ffff:a.b.c.d. */
static const char *fmt_addr(char *buf, size_t len, const struct in6_addr *a)
{
	if (IN6_IS_ADDR_V4MAPPED(a))
		inet_ntop(AF_INET, &a->s6_addr[12], buf, len);
	else
		inet_ntop(AF_INET6, a, buf, len);
	return buf;
}

static int parse_addr(const char *s, struct in6_addr *a)
{
	struct in_addr a4;

	if (inet_pton(AF_INET6, s, a) == 1)
		return 0;
	if (inet_pton(AF_INET, s, &a4) != 1)
		return -1;
	memset(a, 0, sizeof(*a));
	a->s6_addr[10] = 0xff;
	a->s6_addr[11] = 0xff;
	memcpy(&a->s6_addr[12], &a4, sizeof(a4));
	return 0;
}

static void *xrealloc(void *p, size_t n, size_t size)
{
	p = reallocarray(p, n, size);
	if (!p) {
		fprintf(stderr, "Error: out of memory\n");
		exit(1);
	}
	return p;
}

/* Append @v to the array *@arr of *@n elements of @size bytes. */
static void push(void *arr, size_t *n, size_t *cap, size_t size,
		 const void *v)
{
	void **a = arr;

	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 16;
		*a = xrealloc(*a, *cap, size);
	}
	memcpy((char *)*a + *n * size, v, size);
	(*n)++;
}

/* Read an integer attribute of any size. */
static uint64_t nla_uint(const struct nlattr *nla)
{
	switch (nla_len(nla)) {
	case 1:
		return nla_get_u8((struct nlattr *)nla);
	case 2:
		return nla_get_u16((struct nlattr *)nla);
	case 4:
		return nla_get_u32((struct nlattr *)nla);
	default:
		return nla_get_u64((struct nlattr *)nla);
	}
}

static int nla_in6(const struct nlattr *nla, struct in6_addr *a)
{
	if (!nla || nla_len(nla) != (int)sizeof(*a))
		return -1;
	memcpy(a, nla_data(nla), sizeof(*a));
	return 0;
}

/* ---- dumps -------------------------------------------------------------- */

/* Times a dump the kernel flags as interrupted is tried again. */
#define DUMP_TRIES	5

/*
 * The end of a dump.  A dump the kernel refused after it started (no
 * privilege to list PDCs) ends in NLMSG_DONE carrying a negative errno
 * and, with NETLINK_EXT_ACK, the message.
 */
static int on_finish(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1] = {};
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct req *req = arg;
	int err = 0, len;

	if (nlh->nlmsg_len >= NLMSG_LENGTH(sizeof(err)))
		memcpy(&err, nlmsg_data(nlh), sizeof(err));
	req->err = err < 0 ? -err : 0;
	req->done = true;
	if (err >= 0)
		return NL_STOP;
	len = (int)nlh->nlmsg_len - NLMSG_LENGTH(sizeof(err));
	if ((nlh->nlmsg_flags & NLM_F_ACK_TLVS) && len > 0)
		nla_parse(tb, NLMSGERR_ATTR_MAX,
			  (struct nlattr *)((char *)nlmsg_data(nlh) + sizeof(err)),
			  len, NULL);
	fprintf(stderr, "Error: %s\n", tb[NLMSGERR_ATTR_MSG] ?
		nla_get_string(tb[NLMSGERR_ATTR_MSG]) : strerror(req->err));
	return NL_STOP;
}

static int on_dump_intr(struct nl_msg *msg, void *arg)
{
	(void)msg;
	*(bool *)arg = true;
	return NL_OK;
}

/*
 * Send the dump request @msg and hand every reply to @parse.  Return the
 * kernel's errno, or 0; *@intr tells whether the kernel flagged the dump
 * as interrupted by changes (NLM_F_DUMP_INTR).
 */
static int dump(struct nl_sock *sk, struct nl_msg *msg,
		nl_recvmsg_msg_cb_t parse, void *parse_arg, bool *intr)
{
	struct nl_cb *cb = new_cb();
	struct req req = { .msg = msg };

	*intr = false;
	nl_cb_err(cb, NL_CB_CUSTOM, on_error, &req);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, on_finish, &req);
	nl_cb_set(cb, NL_CB_DUMP_INTR, NL_CB_CUSTOM, on_dump_intr, intr);
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, parse, parse_arg);
	return exchange(sk, msg, cb, &req);
}

static struct nl_msg *new_dump(int family, int cmd)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (!msg || !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0,
				 NLM_F_REQUEST | NLM_F_DUMP, cmd,
				 UET_GENL_VERSION)) {
		fprintf(stderr, "Error: out of memory\n");
		exit(1);
	}
	return msg;
}

/**
 * struct value - one entropy value of a spraying state
 * @value: the value
 * @flags: enum uet_value_flags
 */
struct value {
	uint16_t value;
	uint32_t flags;
};

/**
 * struct spray - a spraying state as dumped
 * @has: which UET_A_SPRAY_* attributes came
 * @v: their values
 * @vals: the values listed, merged over the messages of one entry
 * @nvals: entries in @vals
 * @cap: room in @vals
 */
struct spray {
	bool has[UET_A_SPRAY_MAX + 1];
	uint64_t v[UET_A_SPRAY_MAX + 1];
	struct value *vals;
	size_t nvals;
	size_t cap;
};

/**
 * struct dest - a destination as dumped
 * @addr: its address
 * @npdcs: PDCs to or from it
 * @pdcs: their local ids, merged over the messages of the destination
 * @np: entries in @pdcs
 * @pcap: room in @pdcs
 * @has_spray: @spray came
 * @spray: the group's spraying state
 */
struct dest {
	struct in6_addr addr;
	uint32_t npdcs;
	uint16_t *pdcs;
	size_t np;
	size_t pcap;
	bool has_spray;
	struct spray spray;
};

/**
 * struct pdc - a PDC as dumped
 * @has: which UET_A_PDC_* attributes came
 * @v: their values (addresses apart)
 * @laddr: local address
 * @raddr: remote address
 * @has_spray: @spray came
 * @spray: its own spraying state (PDC groups off)
 */
struct pdc {
	bool has[UET_A_PDC_MAX + 1];
	uint64_t v[UET_A_PDC_MAX + 1];
	struct in6_addr laddr;
	struct in6_addr raddr;
	bool has_spray;
	struct spray spray;
};

/**
 * struct dump_list - the entries of one dump
 * @dests: destinations (UET_CMD_DEST_GET)
 * @pdcs: PDCs (UET_CMD_PDC_GET)
 * @n: entries
 * @cap: room
 */
struct dump_list {
	struct dest *dests;
	struct pdc *pdcs;
	size_t n;
	size_t cap;
};

static void spray_free(struct spray *s)
{
	free(s->vals);
}

static void list_free(struct dump_list *l)
{
	size_t i;

	for (i = 0; l->dests && i < l->n; i++) {
		free(l->dests[i].pdcs);
		spray_free(&l->dests[i].spray);
	}
	for (i = 0; l->pdcs && i < l->n; i++)
		spray_free(&l->pdcs[i].spray);
	free(l->dests);
	free(l->pdcs);
	memset(l, 0, sizeof(*l));
}

/* Merge a UET_A_*_SPRAY nest into @s: latest summary, values appended. */
static void parse_spray(struct nlattr *nest, struct spray *s)
{
	struct nlattr *a, *tb[UET_A_VALUE_MAX + 1];
	struct value v;
	int rem;

	nla_for_each_nested(a, nest, rem) {
		int t = nla_type(a);

		if (t == UET_A_SPRAY_VALUE) {
			if (nla_parse_nested(tb, UET_A_VALUE_MAX, a, NULL) ||
			    !tb[UET_A_VALUE_VALUE])
				continue;
			v.value = nla_get_u16(tb[UET_A_VALUE_VALUE]);
			v.flags = tb[UET_A_VALUE_FLAGS] ?
				  nla_get_u32(tb[UET_A_VALUE_FLAGS]) : 0;
			push(&s->vals, &s->nvals, &s->cap, sizeof(v), &v);
		} else if (t > 0 && t <= UET_A_SPRAY_MAX &&
			   t != UET_A_SPRAY_PAD) {
			s->has[t] = true;
			s->v[t] = nla_uint(a);
		}
	}
}

static int parse_dest(struct nl_msg *msg, void *arg)
{
	struct genlmsghdr *gh = nlmsg_data(nlmsg_hdr(msg));
	struct dump_list *l = arg;
	struct nlattr *a;
	struct dest *d, nd;
	struct in6_addr addr;
	uint16_t id;
	int rem;

	if (nla_in6(nlmsg_find_attr(nlmsg_hdr(msg), GENL_HDRLEN,
				    UET_A_DEST_ADDR), &addr))
		return NL_SKIP;
	/* A destination too large for one message continues in the next. */
	d = l->n ? &l->dests[l->n - 1] : NULL;
	if (!d || memcmp(&d->addr, &addr, sizeof(addr))) {
		memset(&nd, 0, sizeof(nd));
		nd.addr = addr;
		push(&l->dests, &l->n, &l->cap, sizeof(nd), &nd);
		d = &l->dests[l->n - 1];
	}
	nla_for_each_attr(a, genlmsg_attrdata(gh, 0), genlmsg_attrlen(gh, 0),
			  rem) {
		switch (nla_type(a)) {
		case UET_A_DEST_NPDCS:
			d->npdcs = nla_get_u32(a);
			break;
		case UET_A_DEST_PDC:
			id = nla_get_u16(a);
			push(&d->pdcs, &d->np, &d->pcap, sizeof(id), &id);
			break;
		case UET_A_DEST_SPRAY:
			d->has_spray = true;
			parse_spray(a, &d->spray);
			break;
		}
	}
	return NL_OK;
}

static int parse_pdc(struct nl_msg *msg, void *arg)
{
	struct genlmsghdr *gh = nlmsg_data(nlmsg_hdr(msg));
	struct dump_list *l = arg;
	struct pdc *p, np;
	struct nlattr *a;
	int rem, t;

	memset(&np, 0, sizeof(np));
	nla_for_each_attr(a, genlmsg_attrdata(gh, 0), genlmsg_attrlen(gh, 0),
			  rem) {
		t = nla_type(a);
		if (t == UET_A_PDC_LADDR)
			nla_in6(a, &np.laddr);
		else if (t == UET_A_PDC_RADDR)
			nla_in6(a, &np.raddr);
		else if (t == UET_A_PDC_SYN)
			np.v[t] = 1;
		else if (t == UET_A_PDC_SPRAY)
			continue;
		else if (t <= 0 || t > UET_A_PDC_MAX)
			continue;
		else
			np.v[t] = nla_uint(a);
		np.has[t] = true;
	}
	if (!np.has[UET_A_PDC_LID] || !np.has[UET_A_PDC_ROLE])
		return NL_SKIP;
	/* A PDC whose values do not fit one message continues in the next. */
	p = l->n ? &l->pdcs[l->n - 1] : NULL;
	if (!p || p->v[UET_A_PDC_LID] != np.v[UET_A_PDC_LID] ||
	    p->v[UET_A_PDC_ROLE] != np.v[UET_A_PDC_ROLE]) {
		push(&l->pdcs, &l->n, &l->cap, sizeof(np), &np);
		p = &l->pdcs[l->n - 1];
	}
	nla_for_each_attr(a, genlmsg_attrdata(gh, 0), genlmsg_attrlen(gh, 0),
			  rem) {
		if (nla_type(a) == UET_A_PDC_SPRAY) {
			p->has_spray = true;
			parse_spray(a, &p->spray);
		}
	}
	return NL_OK;
}

/*
 * Run a dump into @l, again while the kernel says it was interrupted by
 * changes (up to DUMP_TRIES times; then keep the last and warn).
 */
static int dump_list(struct nl_sock *sk, int family, int cmd, int addr_attr,
		     const struct in6_addr *addr, struct dump_list *l)
{
	nl_recvmsg_msg_cb_t parse = cmd == UET_CMD_DEST_GET ? parse_dest :
							      parse_pdc;
	struct nl_msg *msg;
	bool intr = false;
	int i, err = 0;

	for (i = 0; i < DUMP_TRIES; i++) {
		list_free(l);
		msg = new_dump(family, cmd);
		if (addr && nla_put(msg, addr_attr, sizeof(*addr), addr) < 0) {
			fprintf(stderr, "Error: out of memory\n");
			exit(1);
		}
		err = dump(sk, msg, parse, l, &intr);
		if (err || !intr)
			break;
	}
	if (!err && intr)
		fprintf(stderr,
			"Warning: the tables kept changing during the dump; it may be inconsistent\n");
	return err;
}

static const char *spray_name(uint64_t t)
{
	return t <= UET_SPRAY_MAX ? spray_names[t] : "unknown";
}

static const char *phase_name(uint64_t p)
{
	static const char * const names[] = {
		[UET_REPS_NORMAL] = "normal",
		[UET_REPS_FREEZING] = "freezing",
		[UET_REPS_WINDOW] = "window",
	};

	return p < sizeof(names) / sizeof(names[0]) ? names[p] : "unknown";
}

/**
 * struct field - how to print one integer attribute of a dump
 * @attr: the attribute
 * @text: its name in text output, NULL to leave it out there
 * @json: its JSON member name
 * @ns: nanoseconds per unit for a time, printed in units (0: not a time)
 */
struct field {
	int attr;
	const char *text;
	const char *json;
	uint64_t ns;
};

static const struct field spray_fields[] = {
	{ UET_A_SPRAY_NEXT, "next", "next", 0 },
	{ UET_A_SPRAY_NVALS, "values", "nvals", 0 },
	{ UET_A_SPRAY_NBAD, "bad", "nbad", 0 },
	{ UET_A_SPRAY_NMARKED, "marked", "nmarked", 0 },
	{ UET_A_SPRAY_PROBE, "probe", "probe", 0 },
	{ UET_A_SPRAY_CACHED, "cached", "cached", 0 },
	{ UET_A_SPRAY_FILLED, "filled", "filled", 0 },
	{ UET_A_SPRAY_WINDOW_LEFT, "window-left", "window_left", 0 },
	{ UET_A_SPRAY_FROZEN_NS, "frozen-for", "frozen_ns", 1 },
};

static const struct field pdc_fields[] = {
	{ UET_A_PDC_RID, "rid", "rid", 0 },
	{ UET_A_PDC_JOB, "job", "job", 0 },
	{ UET_A_PDC_START_PSN, "start-psn", "start_psn", 0 },
	{ UET_A_PDC_NEXT_PSN, "next-psn", "next_psn", 0 },
	{ UET_A_PDC_ACK_PSN, "ack-psn", "ack_psn", 0 },
	{ UET_A_PDC_WINDOW, "window", "window", 0 },
	{ UET_A_PDC_OUTSTANDING, NULL, "outstanding", 0 },
	{ UET_A_PDC_MSGS, "msgs", "msgs", 0 },
	{ UET_A_PDC_SRTT_US, "srtt", "srtt_us", 1000 },
	{ UET_A_PDC_RTTVAR_US, "rttvar", "rttvar_us", 1000 },
	{ UET_A_PDC_RTO_US, "rto", "rto_us", 1000 },
	{ UET_A_PDC_BASE_RTT_NS, "base-rtt", "base_rtt_ns", 1 },
	{ UET_A_PDC_MIN_RTT_NS, "min-rtt", "min_rtt_ns", 1 },
	{ UET_A_PDC_IDLE_MS, "idle", "idle_ms", 1000000 },
	{ UET_A_PDC_PMTU, "pmtu", "pmtu", 0 },
	{ UET_A_PDC_CWND, "cwnd", "cwnd", 0 },
};

#define NFIELDS(a) (sizeof(a) / sizeof((a)[0]))

static void print_fields(FILE *f, const struct field *fl, size_t n,
			 const bool *has, const uint64_t *v)
{
	char buf[32];
	size_t i;

	for (i = 0; i < n; i++) {
		if (!has[fl[i].attr])
			continue;
		if (json) {
			fprintf(f, ",\"%s\":%" PRIu64, fl[i].json,
				v[fl[i].attr]);
		} else if (fl[i].text && fl[i].ns) {
			fprintf(f, " %s %s", fl[i].text,
				fmt_dur(buf, sizeof(buf),
					v[fl[i].attr] * fl[i].ns));
		} else if (fl[i].text) {
			fprintf(f, " %s %" PRIu64, fl[i].text, v[fl[i].attr]);
		}
	}
}

static void print_value_flags(FILE *f, uint32_t flags)
{
	static const char * const names[] = { "marked", "bad", "stale" };
	const char *sep = "";
	unsigned int i;

	for (i = 0; i < 3; i++) {
		if (!(flags & (1U << i)))
			continue;
		if (json)
			fprintf(f, "%s\"%s\"", sep, names[i]);
		else
			fprintf(f, "%s%s", sep, names[i]);
		sep = json ? "," : "+";
	}
}

static void print_spray(FILE *f, const struct spray *s, const char *indent)
{
	size_t i;

	if (json) {
		fprintf(f, ",\"spray\":{\"type\":\"%s\"",
			spray_name(s->v[UET_A_SPRAY_TYPE]));
		if (s->has[UET_A_SPRAY_PHASE])
			fprintf(f, ",\"phase\":\"%s\"",
				phase_name(s->v[UET_A_SPRAY_PHASE]));
		print_fields(f, spray_fields, NFIELDS(spray_fields), s->has,
			     s->v);
		fprintf(f, ",\"values\":[");
		for (i = 0; i < s->nvals; i++) {
			fprintf(f, "%s{\"value\":%u,\"flags\":[", i ? "," : "",
				s->vals[i].value);
			print_value_flags(f, s->vals[i].flags);
			fprintf(f, "]}");
		}
		fprintf(f, "]}");
		return;
	}
	fprintf(f, "%sspray %s", indent, spray_name(s->v[UET_A_SPRAY_TYPE]));
	if (s->has[UET_A_SPRAY_PHASE])
		fprintf(f, " %s", phase_name(s->v[UET_A_SPRAY_PHASE]));
	print_fields(f, spray_fields, NFIELDS(spray_fields), s->has, s->v);
	fprintf(f, "\n");
	if (!s->nvals)
		return;
	fprintf(f, "%svalues", indent);
	for (i = 0; i < s->nvals; i++) {
		if (i && i % 16 == 0)
			fprintf(f, "\n%s      ", indent);
		fprintf(f, " %u", s->vals[i].value);
		if (s->vals[i].flags) {
			fputc(':', f);
			print_value_flags(f, s->vals[i].flags);
		}
	}
	fprintf(f, "\n");
}

static void print_dest(FILE *f, const struct dest *d, bool first)
{
	char buf[INET6_ADDRSTRLEN];
	size_t i;

	fmt_addr(buf, sizeof(buf), &d->addr);
	if (json) {
		fprintf(f, "%s{\"addr\":\"%s\",\"npdcs\":%u,\"pdcs\":[",
			first ? "" : ",", buf, d->npdcs);
		for (i = 0; i < d->np; i++)
			fprintf(f, "%s%u", i ? "," : "", d->pdcs[i]);
		fprintf(f, "]");
		if (d->has_spray)
			print_spray(f, &d->spray, "");
		fprintf(f, "}");
		return;
	}
	fprintf(f, "%s pdcs %u:", buf, d->npdcs);
	for (i = 0; i < d->np; i++)
		fprintf(f, " %u", d->pdcs[i]);
	fprintf(f, "\n");
	if (d->has_spray)
		print_spray(f, &d->spray, "  ");
}

static const char *cc_action_name(uint64_t a)
{
	return a < NCC_ACTIONS ? cc_action_names[a] : "unknown";
}

static void print_pdc(FILE *f, const struct pdc *p, bool first)
{
	char la[INET6_ADDRSTRLEN], ra[INET6_ADDRSTRLEN];
	bool init = p->v[UET_A_PDC_ROLE] == UET_PDC_ROLE_INITIATOR;

	fmt_addr(la, sizeof(la), &p->laddr);
	fmt_addr(ra, sizeof(ra), &p->raddr);
	if (json) {
		fprintf(f, "%s{\"lid\":%" PRIu64 ",\"role\":\"%s\",\"laddr\":\"%s\",\"raddr\":\"%s\"",
			first ? "" : ",", p->v[UET_A_PDC_LID],
			init ? "initiator" : "target", la, ra);
		print_fields(f, pdc_fields, NFIELDS(pdc_fields), p->has,
			     p->v);
		if (init)
			fprintf(f, ",\"syn\":%s", p->has[UET_A_PDC_SYN] ?
				"true" : "false");
		if (p->has[UET_A_PDC_CC_IN_FLIGHT])
			fprintf(f, ",\"cc_in_flight\":%d",
				(int32_t)p->v[UET_A_PDC_CC_IN_FLIGHT]);
		if (p->has[UET_A_PDC_CC_ACTION])
			fprintf(f, ",\"cc_action\":\"%s\"",
				cc_action_name(p->v[UET_A_PDC_CC_ACTION]));
		if (p->has[UET_A_PDC_CC_CREDIT])
			fprintf(f, ",\"cc_credit\":%d",
				(int32_t)p->v[UET_A_PDC_CC_CREDIT]);
		if (p->has_spray)
			print_spray(f, &p->spray, "");
		fprintf(f, "}");
		return;
	}
	fprintf(f, "pdc %" PRIu64 " %s %s -> %s", p->v[UET_A_PDC_LID],
		init ? "initiator" : "target", la, ra);
	print_fields(f, pdc_fields, NFIELDS(pdc_fields), p->has, p->v);
	if (p->has[UET_A_PDC_OUTSTANDING])
		fprintf(f, " %s %" PRIu64, init ? "in-flight" : "held",
			p->v[UET_A_PDC_OUTSTANDING]);
	if (p->has[UET_A_PDC_CC_IN_FLIGHT])
		fprintf(f, " cc-in-flight %d",
			(int32_t)p->v[UET_A_PDC_CC_IN_FLIGHT]);
	if (p->has[UET_A_PDC_CC_ACTION])
		fprintf(f, " cc-action %s",
			cc_action_name(p->v[UET_A_PDC_CC_ACTION]));
	if (p->has[UET_A_PDC_CC_CREDIT])
		fprintf(f, " cc-credit %d",
			(int32_t)p->v[UET_A_PDC_CC_CREDIT]);
	if (p->has[UET_A_PDC_SYN])
		fprintf(f, " syn");
	fprintf(f, "\n");
	if (p->has_spray)
		print_spray(f, &p->spray, "  ");
}

/* "show [ADDR]" of dest and pdc: parse the optional address. */
static int show_args(const char *what, int argc, char **argv,
		     struct in6_addr *addr, bool *filter)
{
	*filter = false;
	if (argc && !strcmp(argv[0], "show")) {
		argc--;
		argv++;
	}
	if (argc > 1) {
		fprintf(stderr, "Error: \"%s show\" takes at most an address\n",
			what);
		return -1;
	}
	if (argc == 1) {
		if (parse_addr(argv[0], addr)) {
			fprintf(stderr, "Error: invalid address \"%s\"\n",
				argv[0]);
			return -1;
		}
		*filter = true;
	}
	return 0;
}

static int cmd_list(struct nl_sock *sk, int family, int argc, char **argv,
		    int cmd)
{
	bool dests = cmd == UET_CMD_DEST_GET, filter;
	struct dump_list l = {};
	struct in6_addr addr;
	size_t i;
	int err;

	if (show_args(dests ? "dest" : "pdc", argc, argv, &addr, &filter))
		return 1;
	err = dump_list(sk, family, cmd,
			dests ? UET_A_DEST_ADDR : UET_A_PDC_RADDR,
			filter ? &addr : NULL, &l);
	if (err) {
		list_free(&l);
		return 1;
	}
	if (json)
		printf("[");
	for (i = 0; i < l.n; i++) {
		if (dests)
			print_dest(stdout, &l.dests[i], !i);
		else
			print_pdc(stdout, &l.pdcs[i], !i);
	}
	if (json)
		printf("]\n");
	list_free(&l);
	return 0;
}

static int cmd_dest(struct nl_sock *sk, int family, int argc, char **argv)
{
	return cmd_list(sk, family, argc, argv, UET_CMD_DEST_GET);
}

static int cmd_pdc(struct nl_sock *sk, int family, int argc, char **argv)
{
	return cmd_list(sk, family, argc, argv, UET_CMD_PDC_GET);
}

/* ---- counters ----------------------------------------------------------- */

/**
 * struct counter - one counter as the kernel names it
 * @name: its name
 * @value: its value
 * @gauge: a level that can go down, not a count
 */
struct counter {
	char name[64];
	uint64_t value;
	bool gauge;
};

/**
 * struct counters - every counter of one reading
 * @s: the counters, in the kernel's order
 * @n: entries in @s
 * @cap: room in @s
 */
struct counters {
	struct counter *s;
	size_t n;
	size_t cap;
};

static int parse_stats(struct nl_msg *msg, void *arg)
{
	struct genlmsghdr *gh = nlmsg_data(nlmsg_hdr(msg));
	struct nlattr *a, *tb[UET_A_STAT_MAX + 1];
	struct counters *st = arg;
	struct counter s;
	int rem;

	nla_for_each_attr(a, genlmsg_attrdata(gh, 0), genlmsg_attrlen(gh, 0),
			  rem) {
		if (nla_type(a) != UET_A_STATS_STAT ||
		    nla_parse_nested(tb, UET_A_STAT_MAX, a, NULL) ||
		    !tb[UET_A_STAT_NAME] || !tb[UET_A_STAT_VALUE])
			continue;
		memset(&s, 0, sizeof(s));
		snprintf(s.name, sizeof(s.name), "%s",
			 nla_get_string(tb[UET_A_STAT_NAME]));
		s.value = nla_get_u64(tb[UET_A_STAT_VALUE]);
		s.gauge = !!tb[UET_A_STAT_GAUGE];
		push(&st->s, &st->n, &st->cap, sizeof(s), &s);
	}
	return NL_OK;
}

static int read_stats(struct nl_sock *sk, int family, struct counters *st)
{
	st->n = 0;
	return transact(sk, new_msg(family, UET_CMD_STATS_GET), parse_stats,
			st);
}

static const struct counter *stat_find(const struct counters *st, const char *name)
{
	size_t i;

	for (i = 0; i < st->n; i++)
		if (!strcmp(st->s[i].name, name))
			return &st->s[i];
	return NULL;
}

/* Mean reorder depth: PSNs held out of order per out-of-order arrival. */
static bool reorder_mean(const struct counters *st, double *mean)
{
	const struct counter *sum = stat_find(st, "rx_reorder_depth_sum");
	const struct counter *ooo = stat_find(st, "rx_out_of_order");

	if (!sum || !ooo)
		return false;
	*mean = ooo->value ? (double)sum->value / ooo->value : 0;
	return true;
}

static void print_stats(const struct counters *st)
{
	double mean;
	size_t i;

	if (json)
		printf("{");
	for (i = 0; i < st->n; i++) {
		if (json) {
			printf("%s", i ? "," : "");
			json_str(stdout, st->s[i].name);
			printf(":%" PRIu64, st->s[i].value);
		} else {
			printf("%s %" PRIu64 "\n", st->s[i].name,
			       st->s[i].value);
		}
	}
	if (reorder_mean(st, &mean)) {
		if (json)
			printf(",\"rx_reorder_depth_mean\":%.3f", mean);
		else
			printf("rx_reorder_depth_mean %.3f\n", mean);
	}
	if (json)
		printf("}\n");
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Sleep until @t on the monotonic clock, so intervals do not drift. */
static void sleep_until(double t)
{
	struct timespec ts = {
		.tv_sec = (time_t)t,
		.tv_nsec = (long)((t - (time_t)t) * 1e9),
	};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

/* One interval of "stats -w": what moved between @old and @cur. */
static void print_deltas(const struct counters *old, const struct counters *cur,
			 double dt, unsigned long n)
{
	const char *sep = "";
	int moved = 0, pass;
	size_t i;

	if (json)
		printf("{\"interval\":%lu,\"elapsed_s\":%.3f", n, dt);
	else
		printf("interval %lu: %.3f s\n", n, dt);
	/* Counts first, as deltas; then the levels that changed. */
	for (pass = 0; pass < 2; pass++) {
		if (json)
			printf(",\"%s\":{", pass ? "gauges" : "deltas");
		sep = "";
		for (i = 0; i < cur->n; i++) {
			const struct counter *c = &cur->s[i];
			const struct counter *o = stat_find(old, c->name);
			uint64_t was = o ? o->value : 0;

			if (c->gauge != !!pass || c->value == was)
				continue;
			moved++;
			if (json) {
				printf("%s", sep);
				json_str(stdout, c->name);
				printf(":%" PRIu64, pass ? c->value :
				       c->value - was);
			} else if (pass) {
				printf("  %s %" PRIu64 "\n", c->name, c->value);
			} else {
				printf("  %s +%" PRIu64 "\n", c->name,
				       c->value - was);
			}
			sep = ",";
		}
		if (json)
			printf("}");
	}
	if (json)
		printf("}\n");
	else if (!moved)
		printf("  (no change)\n");
	fflush(stdout);
}

static int parse_count(const char *s, unsigned long *v, unsigned long min)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 10);
	return errno || end == s || *end || *s == '-' || *v < min ? -1 : 0;
}

static int cmd_stats(struct nl_sock *sk, int family, int argc, char **argv)
{
	unsigned long wait = 0, count = 0, n;
	struct counters a = {}, b = {}, *old = &a, *cur = &b, *tmp;
	double t0, next;
	int opt, err;

	optind = 0;
	while ((opt = getopt(argc + 1, argv - 1, "+w:c:")) != -1) {
		switch (opt) {
		case 'w':
			if (parse_count(optarg, &wait, 1)) {
				fprintf(stderr, "Error: -w takes whole seconds, at least 1\n");
				return 1;
			}
			break;
		case 'c':
			if (parse_count(optarg, &count, 1)) {
				fprintf(stderr, "Error: -c takes a count, at least 1\n");
				return 1;
			}
			break;
		default:
			fprintf(stderr, "Usage: uetctl stats [-w SECONDS [-c COUNT]]\n");
			return 1;
		}
	}
	if (optind != argc + 1 || (count && !wait)) {
		fprintf(stderr, "Usage: uetctl stats [-w SECONDS [-c COUNT]]\n");
		return 1;
	}
	err = read_stats(sk, family, cur);
	if (!err && !wait)
		print_stats(cur);
	t0 = now_s();
	next = t0;
	for (n = 1; !err && wait && (!count || n <= count); n++) {
		tmp = old;
		old = cur;
		cur = tmp;
		next += wait;
		sleep_until(next);
		err = read_stats(sk, family, cur);
		if (!err)
			print_deltas(old, cur, now_s() - (next - wait), n);
	}
	free(a.s);
	free(b.s);
	return err ? 1 : 0;
}

/* ---- events ------------------------------------------------------------- */

static const char * const event_names[] = {
	[UET_EVENT_VALUE_BAD] = "value-bad",
	[UET_EVENT_VALUE_RESTORED] = "value-restored",
	[UET_EVENT_FREEZE_START] = "freeze-start",
	[UET_EVENT_FREEZE_END] = "freeze-end",
	[UET_EVENT_PDC_OPEN] = "pdc-open",
	[UET_EVENT_PDC_CLOSE] = "pdc-close",
	[UET_EVENT_MSG_FAILED] = "msg-failed",
	[UET_EVENT_VALUE_MARKED] = "value-marked",
};

/**
 * struct monitor - state of "uetctl monitor"
 * @seen: events printed
 * @count: stop after this many, 0 for never
 */
struct monitor {
	unsigned long seen;
	unsigned long count;
};

static void print_event_u(const char *text, const char *name,
			  struct nlattr *nla)
{
	if (!nla)
		return;
	if (json)
		printf(",\"%s\":%" PRIu64, name, nla_uint(nla));
	else
		printf(" %s %" PRIu64, text, nla_uint(nla));
}

static int show_event(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[UET_A_EVENT_MAX + 1];
	char ra[INET6_ADDRSTRLEN], la[INET6_ADDRSTRLEN];
	struct genlmsghdr *gh = nlmsg_data(nlmsg_hdr(msg));
	struct monitor *mon = arg;
	const char *type = "unknown";
	struct in6_addr a;
	uint64_t t = 0;
	unsigned int e;

	if (gh->cmd != UET_CMD_EVENT ||
	    genlmsg_parse(nlmsg_hdr(msg), 0, tb, UET_A_EVENT_MAX, NULL) ||
	    !tb[UET_A_EVENT_TYPE])
		return NL_SKIP;
	e = nla_get_u8(tb[UET_A_EVENT_TYPE]);
	if (e <= UET_EVENT_MAX && event_names[e])
		type = event_names[e];
	if (tb[UET_A_EVENT_TIME_NS])
		t = nla_get_u64(tb[UET_A_EVENT_TIME_NS]);
	strcpy(ra, "?");
	strcpy(la, "?");
	if (!nla_in6(tb[UET_A_EVENT_RADDR], &a))
		fmt_addr(ra, sizeof(ra), &a);
	if (!nla_in6(tb[UET_A_EVENT_LADDR], &a))
		fmt_addr(la, sizeof(la), &a);
	if (json)
		printf("{\"event\":\"%s\",\"time_ns\":%" PRIu64 ",\"laddr\":\"%s\",\"raddr\":\"%s\"",
		       type, t, la, ra);
	else
		printf("[%" PRIu64 ".%06" PRIu64 "] %s %s -> %s", t / 1000000000,
		       t / 1000 % 1000000, type, la, ra);
	print_event_u("pdc", "pdc", tb[UET_A_EVENT_PDC]);
	if (tb[UET_A_EVENT_ROLE]) {
		bool init = nla_get_u8(tb[UET_A_EVENT_ROLE]) ==
			    UET_PDC_ROLE_INITIATOR;

		if (json)
			printf(",\"role\":\"%s\"", init ? "initiator" : "target");
		else
			printf(" %s", init ? "initiator" : "target");
	}
	print_event_u("job", "job", tb[UET_A_EVENT_JOB]);
	print_event_u("value", "value", tb[UET_A_EVENT_VALUE]);
	print_event_u("seq", "msg_seq", tb[UET_A_EVENT_MSG_SEQ]);
	print_event_u("len", "msg_len", tb[UET_A_EVENT_MSG_LEN]);
	if (tb[UET_A_EVENT_ERRNO]) {
		int err = nla_get_u32(tb[UET_A_EVENT_ERRNO]);

		if (json)
			printf(",\"errno\":%d", err);
		else
			printf(" error \"%s\"", strerror(err));
	}
	printf(json ? "}\n" : "\n");
	fflush(stdout);
	mon->seen++;
	return mon->count && mon->seen >= mon->count ? NL_STOP : NL_OK;
}

static int no_seq_check(struct nl_msg *msg, void *arg)
{
	(void)msg;
	(void)arg;
	return NL_OK;
}

static int cmd_monitor(struct nl_sock *sk, int family, int argc, char **argv)
{
	struct monitor mon = {};
	struct nl_cb *cb;
	int opt, grp, err;

	(void)family;
	optind = 0;
	while ((opt = getopt(argc + 1, argv - 1, "+c:")) != -1) {
		if (opt != 'c' || parse_count(optarg, &mon.count, 1)) {
			fprintf(stderr, "Usage: uetctl monitor [-c COUNT]\n");
			return 1;
		}
	}
	if (optind != argc + 1) {
		fprintf(stderr, "Usage: uetctl monitor [-c COUNT]\n");
		return 1;
	}
	grp = genl_ctrl_resolve_grp(sk, UET_GENL_NAME, UET_MCGRP_EVENTS);
	if (grp < 0) {
		fprintf(stderr, "Error: multicast group \"%s\" not found (module too old?)\n",
			UET_MCGRP_EVENTS);
		return 1;
	}
	err = nl_socket_add_membership(sk, grp);
	if (err < 0) {
		fprintf(stderr, "Error: cannot join \"%s\": %s\n",
			UET_MCGRP_EVENTS, nl_geterror(err));
		return 1;
	}
	nl_socket_disable_seq_check(sk);
	cb = new_cb();
	/* Notifications carry no sequence number of ours. */
	nl_cb_set(cb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, no_seq_check, NULL);
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, show_event, &mon);
	/* Tests wait for this line before making events happen. */
	fprintf(stderr, "uetctl: monitoring events\n");
	while (!mon.count || mon.seen < mon.count) {
		err = nl_recvmsgs(sk, cb);
		if (err == -NLE_NOMEM) {
			/* ENOBUFS: the socket overran and events were lost. */
			fprintf(stderr, "Warning: events lost (receive buffer overrun)\n");
			continue;
		}
		if (err < 0) {
			fprintf(stderr, "Error: receive: %s\n", nl_geterror(err));
			nl_cb_put(cb);
			return 1;
		}
	}
	nl_cb_put(cb);
	return 0;
}

/* ---- jobs --------------------------------------------------------------- */

static int show_job(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[UET_A_JOB_MAX + 1];
	bool *first = arg;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, UET_A_JOB_MAX, NULL) ||
	    !tb[UET_A_JOB_ID])
		return NL_SKIP;
	if (json) {
		printf("%s{\"job\":%u", *first ? "" : ",",
		       nla_get_u32(tb[UET_A_JOB_ID]));
		if (tb[UET_A_JOB_UID])
			printf(",\"uid\":%u", nla_get_u32(tb[UET_A_JOB_UID]));
		if (tb[UET_A_JOB_GID])
			printf(",\"gid\":%u", nla_get_u32(tb[UET_A_JOB_GID]));
		printf("}");
	} else {
		printf("job %u", nla_get_u32(tb[UET_A_JOB_ID]));
		if (tb[UET_A_JOB_UID])
			printf(" uid %u", nla_get_u32(tb[UET_A_JOB_UID]));
		if (tb[UET_A_JOB_GID])
			printf(" gid %u", nla_get_u32(tb[UET_A_JOB_GID]));
		if (!tb[UET_A_JOB_UID] && !tb[UET_A_JOB_GID])
			printf(" admin-only");
		printf("\n");
	}
	*first = false;
	return NL_OK;
}

static int parse_job(const char *s, uint32_t *job)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || end == s || *end || *s == '-' || v > UET_JOB_MAX) {
		fprintf(stderr, "Error: bad job id \"%s\" (0..%u)\n", s,
			UET_JOB_MAX);
		return -1;
	}
	*job = v;
	return 0;
}

/* A user or group: a number, or a name from the passwd or group file. */
static int parse_id(const char *s, bool group, uint32_t *id)
{
	struct passwd *pw;
	struct group *gr;
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (!errno && end != s && !*end && *s != '-' && v < UINT32_MAX) {
		*id = v;
		return 0;
	}
	if (group) {
		gr = getgrnam(s);
		if (gr) {
			*id = gr->gr_gid;
			return 0;
		}
	} else {
		pw = getpwnam(s);
		if (pw) {
			*id = pw->pw_uid;
			return 0;
		}
	}
	fprintf(stderr, "Error: no such %s \"%s\"\n", group ? "group" : "user",
		s);
	return -1;
}

static void job_put(struct nl_msg *msg, int attr, uint32_t v)
{
	if (nla_put_u32(msg, attr, v) < 0) {
		fprintf(stderr, "Error: out of memory\n");
		exit(1);
	}
}

static int job_add(struct nl_sock *sk, int family, int argc, char **argv)
{
	struct nl_msg *msg;
	uint32_t job, id;
	int i;

	if (argc < 1 || argc % 2 != 1 || parse_job(argv[0], &job))
		goto usage;
	msg = new_msg(family, UET_CMD_JOB_ADD);
	job_put(msg, UET_A_JOB_ID, job);
	for (i = 1; i < argc; i += 2) {
		bool group = !strcmp(argv[i], "gid");

		if (!group && strcmp(argv[i], "uid")) {
			nlmsg_free(msg);
			goto usage;
		}
		if (parse_id(argv[i + 1], group, &id)) {
			nlmsg_free(msg);
			return 1;
		}
		job_put(msg, group ? UET_A_JOB_GID : UET_A_JOB_UID, id);
	}
	return transact(sk, msg, NULL, NULL) ? 1 : 0;

usage:
	fprintf(stderr, "Usage: uetctl job add JOB [uid USER] [gid GROUP]\n");
	return 1;
}

static int cmd_job(struct nl_sock *sk, int family, int argc, char **argv)
{
	struct nl_msg *msg;
	bool first = true;
	bool intr;
	uint32_t job;
	int err;

	if (argc && !strcmp(argv[0], "add"))
		return job_add(sk, family, argc - 1, argv + 1);
	if (argc == 2 && !strcmp(argv[0], "del")) {
		if (parse_job(argv[1], &job))
			return 1;
		msg = new_msg(family, UET_CMD_JOB_DEL);
		job_put(msg, UET_A_JOB_ID, job);
		return transact(sk, msg, NULL, NULL) ? 1 : 0;
	}
	if (argc && !strcmp(argv[0], "show")) {
		argc--;
		argv++;
	}
	if (argc > 1 || (argc && !strcmp(argv[0], "del"))) {
		fprintf(stderr,
			"Usage: uetctl job { add JOB [uid USER] [gid GROUP] | del JOB | show [JOB] }\n");
		return 1;
	}
	if (argc && parse_job(argv[0], &job))
		return 1;
	if (json)
		printf("[");
	if (argc) {
		msg = new_msg(family, UET_CMD_JOB_GET);
		job_put(msg, UET_A_JOB_ID, job);
		err = transact(sk, msg, show_job, &first);
	} else {
		err = dump(sk, new_dump(family, UET_CMD_JOB_GET), show_job,
			   &first, &intr);
	}
	if (json)
		printf("]\n");
	return err ? 1 : 0;
}

static void usage(FILE *f)
{
	size_t i;

	fprintf(f,
		"Usage: uetctl [-j] [-n NETNS] COMMAND\n"
		"  show                 print the namespace's configuration\n"
		"  set KEY VALUE ...    change any subset of it, all or nothing\n"
		"  stats [-w S [-c N]]  counters; -w: what moved every S seconds,\n"
		"                       N times (default: until interrupted)\n"
		"  dest [show] [ADDR]   destinations and their spraying state\n"
		"  pdc [show] [ADDR]    PDCs (with peer ADDR)\n"
		"  monitor [-c N]       print path and PDC events as they happen\n"
		"  job [show] [JOB]     jobs and who may bind endpoints in them\n"
		"  job add JOB [uid USER] [gid GROUP]\n"
		"                       create a job; without uid or gid only\n"
		"                       CAP_NET_ADMIN may bind in it\n"
		"  job del JOB          delete a job\n"
		"  info                 module and interface version\n"
		"  help                 this text\n"
		"Options: -j JSON output, -n NETNS act in /run/netns/NETNS\n"
		"Keys:");
	for (i = 0; i < NKEYS; i++)
		fprintf(f, "%s%s", i % 6 ? " " : "\n  ", keys[i].name);
	fprintf(f,
		"\nValues: spray none|rr|active|reps; cc none|nscc|rccc|nscc+rccc;\n"
		"pdc-groups, udp-csum-tx on|off; udp-csum-rx-zero accept|drop (or: udp-csum tx on\n"
		"rx-zero accept); rx-mem in 4 KiB pages; sndbuf, rcvbuf in bytes; times take\n"
		"ns/us/ms/s/min/h, link-rate mbit/gbit/tbit (uetctl(8)).\n");
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
		{ "stats", cmd_stats },
		{ "dest", cmd_dest },
		{ "pdc", cmd_pdc },
		{ "monitor", cmd_monitor },
		{ "info", cmd_info },
		{ "job", cmd_job },
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
