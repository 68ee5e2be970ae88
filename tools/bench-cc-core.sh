#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-cc-core.sh: NSCC on a congested fabric core (issue 14), run inside
# the VM:
#	tools/vm/vm-run -- tools/bench-cc-core.sh
# It prints kselftest TAP and judges its points, but is not in the suite:
# under active, NSCC's goodput stays short of 90% of the capacity (README,
# "Congestion control: congested core").
#
# The leaf-spine fabric (selftests/fabric.sh) with
# every spine's link towards l2 rate-limited (tbf), and spine 2, as in
# path_congest.sh, slower and marking ECN CE above 1 ms of sojourn
# (fq_codel ce_threshold). The other three queues mark only a standing
# queue (fq_codel's CoDel, ECN on: 5 ms for 100 ms), so that spine 2 is
# the one that signals:
#
#              +- s1: tbf 8 Mbit/s, fq_codel ecn --------------------+
#              |                                                      |
#   h1 --- l1 -+- s2: tbf 2 Mbit/s, fq_codel ecn ce_threshold 1ms ---+- l2 --- h2
#              |                                                      |
#              +- s3: tbf 8 Mbit/s, fq_codel ecn --------------------+
#              +- s4: tbf 8 Mbit/s, fq_codel ecn --------------------+
#
# Shaping is on each s_i-l2 egress, the data's way; ACKs come back
# unshaped. Each tbf's burst is 64 ms of its rate: a vCPU stall of the VM
# (tens of ms under TCG on a busy host) is made up afterwards instead of
# being lost link time. The remaining capacity is 3 x 8 + 2 = 26 Mbit/s of
# frames as tbf counts them; a full data packet (mss 1024) is a frame of
# 1122 bytes (UET 56, UDP 8, IPv4 20, Ethernet 14), so 23.73 Mbit/s of
# payload, the figure goodput is judged against.
#
# For spray reps, then active, h1 sends MSGS messages of 256 kB to h2 with
# cc none, then with cc nscc (both ends), each case once h1's and h2's
# PDCs of the case before have closed (a PDC keeps the cc and spraying
# state it started with). Goodput is what h2's uetperf received after its
# first message, over the time from its first to its last message. During
# the transfer one background `tc -batch`, fed by this shell, samples
# spine 2's backlog every 50 ms (a process per sample would take the CPU
# from the traffic under TCG); the same loop reads h1's PDC from debugfs
# for NSCC's window and in-flight bytes. Points, per spray:
#
#  - cc none, and cc nscc: every message arrived once, intact;
#  - cc nscc: the aggregate goodput is at least FRAC (0.9) of the
#    remaining capacity;
#  - cc nscc: spine 2's backlog never exceeds NSCC's largest window,
#    1.5 x link-rate x base-rtt = 37500 bytes: on marks at low delay NSCC
#    holds its window and leaves the slow path to the path selector, so
#    what bounds the slow queue is the window (cc none's peak, up to its
#    256 PSNs, is printed beside it);
#  - cc nscc does not fight the path selector: its goodput is at least
#    0.9 x cc none's, the selector alone. h1's counters are printed,
#    nscc_hold being the ECN-low-delay hold.
#
# NSCC's settings, for the VM: link-rate x base-rtt is the bandwidth-delay
# product NSCC sizes its window by, here 25000 bytes, about the core's
# 26 Mbit/s x the 8 ms RTT the VM shows under load. A PDC scales the bound
# by the smallest RTT it measured over base-rtt; under TCG that RTT is 50
# to 150 us against milliseconds under load, so base-rtt is 50 us, not
# above it, and link-rate the 4 Gbit/s that makes the product. The target
# queueing delay is 10 ms (cc-target-qdelay; else 3/4 base-rtt, 37.5 us),
# above the delay of a packet marked on spine 2 (one packet there takes
# 4.5 ms, the VM adds milliseconds of jitter): the marks then come at low
# delay, the case the hold is for. With NSCC's own target
# (CC_CORE_TARGET=0) every mark comes above it, and quick adapt and
# decreases answer instead. probe-period is 10 ms: active sends a probe
# for its bad values every period, and at the default 150 us the probes
# alone (frames of 58 bytes, 3 Mbit/s) would be more than spine 2 carries.
#
# CC_CORE_SPRAYS (reps active), CC_CORE_MSGS (40), CC_CORE_FRAC (0.9),
# CC_CORE_CC (the cc judged against cc none: nscc), CC_CORE_TARGET (10ms;
# 0 keeps NSCC's own) and CC_CORE_SET (more uetctl settings for both
# hosts) change the run.

root=${UET_ROOT:-$(cd "$(dirname "$(realpath "$0")")/.." && pwd)}
. "$root/selftests/fabric.sh"

SLOW=2			# the slow, marking spine
RATE=8			# Mbit/s, the other spines
SLOW_RATE=2		# Mbit/s, spine SLOW
MSS=1024
FRAME=$((MSS + 98))	# a full data packet as tbf counts it
LEN=262144
MSGS=${CC_CORE_MSGS:-40}
SPRAYS=${CC_CORE_SPRAYS:-reps active}
CC=${CC_CORE_CC:-nscc}
FRAC=${CC_CORE_FRAC:-0.9}
TARGET=${CC_CORE_TARGET:-10ms}
LINK_MBPS=4000
BRTT_NS=50000
# NSCC's largest window: 1.5 x link-rate x base-rtt (uet_nscc_params_init)
BOUND=$((LINK_MBPS * BRTT_NS * 3 / 2 / 8000))
CAP_WIRE=$((3 * RATE + SLOW_RATE))
CAP=$(awk -v c=$CAP_WIRE -v m=$MSS -v f=$FRAME \
	'BEGIN { printf "%.2f", c * m / f }')
COUNTERS="nscc_inc_prop nscc_inc_fair nscc_hold nscc_md nscc_md_wait
	  nscc_quick_adapt nscc_loss_dec retx_sack retx_timeout reps_explore
	  reps_recycle reps_discard reps_freeze ev_bad ev_restored probe_tx"

read -r -a sprays <<<"$SPRAYS"
ktap_header
ktap_plan $((5 * ${#sprays[@]}))

# skip_all WHY
skip_all()
{
	local i

	for i in $(seq $((5 * ${#sprays[@]}))); do
		ktap_skip "case $i" "$1"
	done
	ktap_finished
}

t_start=$SECONDS
if ! uet_fabric_build; then
	echo "# cannot build the fabric"
	exit "$KSFT_FAIL"
fi
for i in $(seq 1 "$UET_SPINES"); do
	ns=$(uet_spine_ns "$i")
	rate=$RATE
	mark=()
	if [ "$i" = $SLOW ]; then
		rate=$SLOW_RATE
		mark=(ce_threshold 1ms)
	fi
	# burst: 64 ms of the rate, in kB
	if ! tc -n "$ns" qdisc add dev "s$i-l2" root handle 1: tbf \
		rate "${rate}mbit" burst "$((rate * 8))kb" limit 4mb ||
	   ! tc -n "$ns" qdisc add dev "s$i-l2" parent 1:1 handle 10: \
		fq_codel ecn "${mark[@]}"; then
		skip_all "tbf or fq_codel not available"
	fi
done
target=()
[ "$TARGET" = 0 ] || target=(cc-target-qdelay "$TARGET")
for ns in "$FAB_H1" "$FAB_H2"; do
	# shellcheck disable=SC2086 # CC_CORE_SET is a list of settings
	if ! "$UETCTL" -n "$ns" set mss $MSS link-rate ${LINK_MBPS}mbit \
		base-rtt $((BRTT_NS / 1000))us probe-period 10ms \
		"${target[@]}" ${CC_CORE_SET:-} >/dev/null; then
		echo "# uetctl set failed"
		exit "$KSFT_FAIL"
	fi
done
mount | grep -q ' /sys/kernel/debug ' ||
	mount -t debugfs none /sys/kernel/debug 2>/dev/null
PDCS=/sys/kernel/debug/uet/$(ip netns exec "$FAB_H1" stat -L -c %i /proc/self/ns/net)/pdcs
echo "# fabric built in $((SECONDS - t_start)) s; remaining capacity $CAP_WIRE Mbit/s of frames, $CAP Mbit/s of payload"

# pct A B: 100 A / B, one decimal.
pct()
{
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (b > 0 ? 100 * a / b : 0) }'
}

# ge A B: A >= B (decimals).
ge()
{
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 >= b + 0) }'
}

# qstats: per spine, "FRAMES BYTES DROPS CE_THRESHOLD_MARKS CODEL_MARKS"
# of its s_i-l2 queue (tbf's counts, fq_codel's marks), comma-separated.
qstats()
{
	local i

	for i in $(seq 1 "$UET_SPINES"); do
		tc -n "$(uet_spine_ns "$i")" -s -j qdisc show dev "s$i-l2"
	done | jq -r -s '[.[] |
		(.[] | select(.kind == "tbf")) as $t |
		(.[] | select(.kind == "fq_codel")) as $f |
		"\($t.packets) \($t.bytes) \($t.drops) \($f.ce_mark // 0) \($f.ecn_mark // 0)"] |
		join(",")'
}

# qprint NAME BEFORE AFTER: one line of what each spine's queue counted.
qprint()
{
	awk -v name="$1" -v b="$2" -v a="$3" 'BEGIN {
		n = split(b, bb, ",")
		split(a, aa, ",")
		for (i = 1; i <= n; i++) {
			split(bb[i], x, " ")
			split(aa[i], y, " ")
			for (k = 1; k <= 5; k++)
				d[i, k] = y[k] - x[k]
			tot += d[i, 2]
		}
		printf "# %s: frames (share of bytes, drops, CE over 1 ms, CE by CoDel):", name
		for (i = 1; i <= n; i++)
			printf " s%d %d (%.1f%%, %d, %d, %d)", i, d[i, 1],
				(tot ? 100 * d[i, 2] / tot : 0), d[i, 3],
				d[i, 4], d[i, 5]
		printf "\n"
	}'
}

# deltas BEFORE AFTER [NAMES]: "name=delta" between two uet_stats, of
# NAMES in their order, or of every counter that moved (one awk: the VM
# has no /dev/fd for <(...)).
deltas()
{
	awk -v b="$1" -v a="$2" -v names="${3:-}" 'BEGIN {
		n = split(b, l, "\n")
		for (i = 1; i <= n; i++) {
			split(l[i], f, " ")
			bv[f[1]] = f[2]
		}
		m = split(a, l, "\n")
		for (i = 1; i <= m; i++) {
			split(l[i], f, " ")
			av[f[1]] = f[2]
			order[i] = f[1]
		}
		if (names == "") {
			for (i = 1; i <= m; i++)
				if (av[order[i]] != bv[order[i]])
					printf "%s=%d ", order[i],
						av[order[i]] - bv[order[i]]
			exit
		}
		n = split(names, nm, /[ \t\n]+/)
		for (i = 1; i <= n; i++)
			if (nm[i] != "")
				printf "%s=%d ", nm[i], av[nm[i]] - bv[nm[i]]
	}'
}

# sampler_start: every 50 ms until sampler_stop, spine SLOW's backlog
# (one `tc -batch` fed by this loop) and h1's initiator PDC in debugfs
# (the shell's own read).
sampler_start()
{
	SAMPLER_DIR=$(mktemp -d)
	(
		local l f cw inf cmin=-1 cmax=0 imin=0

		mkfifo "$SAMPLER_DIR/tick" && exec 3<>"$SAMPLER_DIR/tick" ||
			exit 2
		rm -f "$SAMPLER_DIR/tick"
		while [ ! -e "$SAMPLER_DIR/stop" ]; do
			echo "qdisc show dev s$SLOW-l2"
			while read -r l; do
				[[ $l == *" initiator "* ]] || continue
				cw=""
				inf=""
				for f in $l; do
					case "$f" in
					cwnd=*) cw=${f#cwnd=} ;;
					cc_in_flight=*) inf=${f#cc_in_flight=} ;;
					esac
				done
				[ -n "$cw" ] || continue
				((cmin < 0 || cw < cmin)) && cmin=$cw
				((cw > cmax)) && cmax=$cw
				((inf < imin)) && imin=$inf
			done 2>/dev/null <"$PDCS"
			echo "$cmin $cmax $imin" >"$SAMPLER_DIR/cc"
			read -r -t 0.05 -u 3
		done
	) | tc -n "$(uet_spine_ns $SLOW)" -s -j -batch - 2>/dev/null |
		jq -n -r '[inputs[] | select(.root)] |
			"\(length) \(map(.backlog) | max // 0) \(map(.qlen) | max // 0)"' \
		>"$SAMPLER_DIR/peak" &
	SAMPLER_PID=$!
}

# sampler_stop: sets SAMPLES, PEAK (bytes), PEAK_PKTS, and CWND_MIN,
# CWND_MAX, INFLIGHT_MIN (empty without NSCC or debugfs).
sampler_stop()
{
	touch "$SAMPLER_DIR/stop"
	wait "$SAMPLER_PID"
	read -r SAMPLES PEAK PEAK_PKTS <"$SAMPLER_DIR/peak"
	CWND_MIN=""
	read -r CWND_MIN CWND_MAX INFLIGHT_MIN <"$SAMPLER_DIR/cc" 2>/dev/null
	[ "${CWND_MIN:--1}" -ge 0 ] || CWND_MIN=""
	rm -rf "$SAMPLER_DIR"
	PEAK=${PEAK:-0}
}

no_pdcs()
{
	[ "$(uet_stat "$FAB_H1" pdc_active)" = 0 ] &&
		[ "$(uet_stat "$FAB_H2" pdc_active)" = 0 ]
}

# run SPRAY CC JOB: one transfer h1 -> h2 and its point (complete); sets
# GOODPUT (Mbit/s of payload) and PEAK, and prints the figures. Returns
# non-zero when the transfer could not be started.
run()
{
	local spray=$1 cc=$2 job=$3 name="$1, cc $2" out a0 a1 b0 b1 q0 q1 t0

	GOODPUT=0
	PEAK=0
	uet_wait_until 20 no_pdcs ||
		echo "# $name: PDCs of the case before still open"
	if ! "$UETCTL" -n "$FAB_H1" set spray "$spray" cc "$cc" >/dev/null ||
	   ! "$UETCTL" -n "$FAB_H2" set cc "$cc" >/dev/null; then
		ktap_fail "$name: transfer complete" "uetctl set failed"
		return 1
	fi
	out=$(mktemp -d)
	if ! uet_server "$FAB_H2" "$out/s" -j "$job" -n "$MSGS" -i 60 \
		-l $LEN -R 4194304; then
		ktap_fail "$name: transfer complete" "server did not start"
		rm -rf "$out"
		return 1
	fi
	a0=$(uet_stats "$FAB_H1")
	b0=$(uet_stats "$FAB_H2")
	q0=$(qstats)
	sampler_start
	t0=$SECONDS
	ip netns exec "$FAB_H1" "$UETPERF" -c 10.2.2.1 -j "$job" -J \
		-n "$MSGS" -l $LEN -S 16777216 >"$out/c" 2>"$out/c.err"
	wait "$UET_SERVER_PID"
	sampler_stop
	t0=$((SECONDS - t0))
	a1=$(uet_stats "$FAB_H1")
	b1=$(uet_stats "$FAB_H2")
	q1=$(qstats)
	uet_check_transfer "$name: transfer complete" "$out/s" "$out/c" "$MSGS"
	if [ "$(uet_json "$out/s" messages)" != "$MSGS" ]; then
		echo "# $name: h1 counters moved: $(deltas "$a0" "$a1")"
		echo "# $name: h2 counters moved: $(deltas "$b0" "$b1")"
	fi
	GOODPUT=$(jq -r "if .elapsed > 0 then (.bytes - $LEN) * 8 / .elapsed / 1e6 * 100 | round / 100 else 0 end" \
		"$out/s" 2>/dev/null)
	GOODPUT=${GOODPUT:-0}
	echo "# $name: goodput $GOODPUT Mbit/s, $(pct "$GOODPUT" "$CAP")% of $CAP ($t0 s)"
	echo "# $name: spine $SLOW backlog peak $PEAK bytes, $PEAK_PKTS packets ($SAMPLES samples)"
	qprint "$name" "$q0" "$q1"
	echo "# $name: h1 $(deltas "$a0" "$a1" "$COUNTERS")"
	echo "# $name: h2 duplicates received $(uet_stats_delta "$b0" "$b1" drop_duplicate)"
	[ -n "$CWND_MIN" ] &&
		echo "# $name: h1 window $CWND_MIN..$CWND_MAX bytes, in-flight down to $INFLIGHT_MIN bytes"
	rm -rf "$out"
	return 0
}

job=20
for spray in "${sprays[@]}"; do
	job=$((job + 2))
	run "$spray" none $job
	none_goodput=$GOODPUT
	none_peak=$PEAK
	if ! run "$spray" "$CC" $((job + 1)); then
		for i in 1 2 3; do
			ktap_fail "$spray, cc $CC: point $i" "no transfer"
		done
		continue
	fi

	want=$(awk -v c="$CAP" -v f="$FRAC" 'BEGIN { printf "%.2f", c * f }')
	if ge "$GOODPUT" "$want"; then
		ktap_ok "$spray, cc $CC: aggregate goodput $GOODPUT Mbit/s >= $FRAC x $CAP"
	else
		ktap_fail "$spray, cc $CC: aggregate goodput >= $FRAC x remaining capacity" \
			"$GOODPUT Mbit/s < $want ($FRAC x $CAP); cc none: $none_goodput"
	fi

	if [ "$PEAK" -le "$BOUND" ]; then
		ktap_ok "$spray, cc $CC: spine $SLOW's backlog within $BOUND bytes (peak $PEAK; cc none $none_peak)"
	else
		ktap_fail "$spray, cc $CC: spine $SLOW's backlog within $BOUND bytes" \
			"peak $PEAK bytes ($PEAK_PKTS packets); cc none: $none_peak"
	fi

	want=$(awk -v g="$none_goodput" 'BEGIN { printf "%.2f", 0.9 * g }')
	if ge "$GOODPUT" "$want"; then
		ktap_ok "$spray, cc $CC does not fight the path selector: $GOODPUT Mbit/s >= 0.9 x cc none's $none_goodput"
	else
		ktap_fail "$spray, cc $CC does not fight the path selector" \
			"$GOODPUT Mbit/s < 0.9 x cc none's $none_goodput"
	fi
done
echo "# took $((SECONDS - t_start)) s"
ktap_finished
