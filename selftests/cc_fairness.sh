#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Fairness and convergence: two senders into one receiver through a switch
# whose port towards the receiver is the bottleneck, 50 Mbit/s (tbf) in
# front of a short queue (fq_codel, 20 packets, CE above 1 ms of sojourn,
# drops beyond its limit), as in cc_basic.sh and cc_rccc.sh:
#
#  $S1  s 10.0.0.11 --- p1 -+    +- $W ----------------------------+
#                           +----|- br0   pr: tbf 50mbit            |
#  $S2  s 10.0.0.12 --- p2 -+    |          + fq_codel limit 20 ecn  |
#                                |            ce_threshold 1ms      |
#                                +------------------|---------------+
#                                                  pr
#                                     $R           r 10.0.0.1
#
# Every namespace: mss 1024, link-rate 50mbit, base-rtt 1ms. For each cc
# (a job id of its own, so that each case has new PDCs, which take the
# cc set at their start): sender 1 starts a transfer of SECS1 seconds;
# once the receiver has seen its PDC for 2 s (4 samples) sender 2 starts
# one of SECS2 seconds. Every 0.5 s the receiver's target PDCs are read
# (debugfs uet/NETNS/pdcs, as uetctl pdc show has them: epsn - start,
# the packets delivered in order, mss payload bytes each), giving each
# sender's goodput and share per interval. From sender 2's first
# delivery (t2) on:
#
#  - convergence: from some window of 2 s (4 intervals) ending by t2 + 5 s
#    on, every window of 2 s ending by t2 + 6 s has min/max of the two
#    senders' deliveries >= 0.9 (one lucky window is not enough: with cc
#    none the shares swing from interval to interval);
#  - aggregate: both senders together, over [t2, t2 + 5 s], deliver at
#    least FRAC (0.1) of 50 Mbit/s in payload. The tbf also carries the
#    headers, so the most is some 0.9; under TCG, beside other VMs, the
#    two got 11 to 26 Mbit/s with rccc and nscc+rccc (the VM, not the
#    link, is the bottleneck): FRAC catches a stall, not a slow pacer;
#
# judged for every cc (CC_FAIR_JUDGE names the ones judged; one left out
# gets its figures printed and one point, that both transfers complete).
# Every case's samples go to a CSV (time_s,pdc,metric,value; pdc is
# "CC/s1" or "CC/s2", metric mbps or share), printed with a "# csv "
# prefix and kept in $CC_FAIR_OUT (default a file under /tmp):
# tools/plot-cc reads either, e.g. the test's log.

. "$(dirname "$0")/fabric.sh"

RATE=50mbit
RATE_MBPS=50
MSS=1024
LEN=65536
SNDBUF=1048576
RADDR=10.0.0.1
SECS1=${CC_FAIR_SECS1:-11}
SECS2=${CC_FAIR_SECS2:-7}
BOUND=5		# s after t2 by which the shares must have converged
WIN=2		# s, the window over which shares are compared
HORIZON=6	# s after t2 up to which they must stay so
RATIO=0.9
FRAC=${CC_FAIR_FRAC:-0.1}
CCS=${CC_FAIR_CCS:-rccc nscc+rccc nscc}
JUDGE=${CC_FAIR_JUDGE:-rccc nscc+rccc nscc}
CSV=${CC_FAIR_OUT:-$(mktemp /tmp/cc_fairness.XXXXXX.csv)}

# judged CC: whether CC's fairness and aggregate are test points.
judged()
{
	[[ " $JUDGE " == *" $1 "* ]]
}

plan=0
for cc in $CCS; do
	plan=$((plan + 1))
	judged "$cc" && plan=$((plan + 2))
done

ktap_header
ktap_plan $plan

# topology: the namespaces above; sets W, R, S1 and S2.
topology()
{
	local t0=$SECONDS ns

	uet_netns_new W && uet_netns_new R && uet_netns_new S1 &&
		uet_netns_new S2 || return 1
	ip -n "$W" -batch - <<-EOF || return 1
		link add br0 type bridge
		link set br0 up
		link add pr type veth peer name r netns $R
		link set pr master br0
		link set pr up
		link add p1 type veth peer name s netns $S1
		link set p1 master br0
		link set p1 up
		link add p2 type veth peer name s netns $S2
		link set p2 master br0
		link set p2 up
	EOF
	ip -n "$R" -batch - <<-EOF || return 1
		link set r up
		addr add $RADDR/24 dev r
	EOF
	ip -n "$S1" -batch - <<-EOF || return 1
		link set s up
		addr add 10.0.0.11/24 dev s
	EOF
	ip -n "$S2" -batch - <<-EOF || return 1
		link set s up
		addr add 10.0.0.12/24 dev s
	EOF
	for ns in "$R" "$S1" "$S2"; do
		"$UETCTL" -n "$ns" set mss $MSS link-rate $RATE base-rtt 1ms \
			pdc-idle 60s >/dev/null || return 1
	done
	echo "# topology built in $((SECONDS - t0)) s"
}

if ! topology; then
	echo "# setup failed"
	exit "$KSFT_FAIL"
fi
if ! ip netns exec "$W" tc qdisc add dev pr root handle 1: tbf rate $RATE \
	burst 16kb limit 4mb ||
   ! ip netns exec "$W" tc qdisc add dev pr parent 1:1 handle 10: \
	fq_codel limit 20 ecn ce_threshold 1ms; then
	for i in $(seq $plan); do
		ktap_skip "case $i" "tbf or fq_codel not available"
	done
	ktap_finished
fi

# R's PDCs in debugfs: read with bash's own read, a sample costs no
# process (under TCG a uetctl per sample takes some 0.5 s).
mount | grep -q ' /sys/kernel/debug ' ||
	mount -t debugfs none /sys/kernel/debug 2>/dev/null
PDCS=/sys/kernel/debug/uet/$(ip netns exec "$R" stat -L -c %i /proc/self/ns/net)/pdcs
if [ ! -r "$PDCS" ]; then
	for i in $(seq $plan); do
		ktap_skip "case $i" "no $PDCS (debugfs)"
	done
	ktap_finished
fi

# drive DIR JOB: the sampler, which also starts sender 2. Every 0.5 s,
# until DIR/c1.done exists and sender 2 has finished (60 s at most), print
# a line "T time" and R's PDCs as debugfs has them; once 4 samples have
# shown sender 1's PDC of JOB, start sender 2 (output DIR/c2). Builtins
# only but for sender 2: a process per poll would take the CPU from the
# traffic under TCG.
drive()
{
	local dir=$1 job=$2 fifo=${TMPDIR:-/tmp}/uet-fair.$$ pdcs l n1=0 p2=''
	local end=$((SECONDS + 60))

	mkfifo "$fifo" && exec 3<>"$fifo" && rm -f "$fifo" || return 1
	while [ "$SECONDS" -lt "$end" ]; do
		mapfile -t pdcs <"$PDCS"
		printf '%s\n' "T $EPOCHREALTIME" "${pdcs[@]}"
		if [ -z "$p2" ]; then
			for l in "${pdcs[@]}"; do
				[[ $l == *" target "*" -> 10.0.0.11 job=$job "* ]] &&
					n1=$((n1 + 1))
			done
			if [ "$n1" -ge 4 ]; then
				ip netns exec "$S2" "$UETPERF" -c $RADDR -j "$job" \
					-J -t "$SECS2" -l $LEN -S $SNDBUF \
					>"$dir/c2" 2>"$dir/c2.err" &
				p2=$!
			fi
		elif [ -e "$dir/c1.done" ] && ! kill -0 "$p2" 2>/dev/null; then
			break
		fi
		read -r -t 0.5 -u 3
	done
	[ -n "$p2" ] || echo "# sender 1 not seen at the receiver" >&2
	wait
	exec 3>&-
}

# deliveries FILE JOB: "time s1 s2" per sample, each sender's packets
# delivered in order so far to R's target PDC of JOB ("-": none yet).
# A target's line: lid target rid=N laddr -> raddr job=J ... start=S
# epsn=E ...
deliveries()
{
	awk -v job="job=$2" '
		function flush() {
			if (t != "")
				print t, (s1 == "" ? "-" : s1), (s2 == "" ? "-" : s2)
		}
		$1 == "T" { flush(); t = $2; s1 = s2 = ""; next }
		$2 == "target" && $7 == job {
			for (i = 8; i <= NF; i++) {
				split($i, kv, "=")
				v[kv[1]] = kv[2]
			}
			d = (v["epsn"] - v["start"] + 4294967296) % 4294967296
			if ($6 == "10.0.0.11") s1 = d
			if ($6 == "10.0.0.12") s2 = d
		}
		END { flush() }' "$1"
}

# analyse CC FILE JOB: print the CSV rows of the samples of FILE and the
# summary lines; sets FAIR (1 when converged in time), CONV (how long it
# took, s), AGG (Mbit/s over [t2, t2 + BOUND]) and SHARE (the figures).
analyse()
{
	local cc=$1 out

	out=$(deliveries "$2" "$3" |
	      awk -v cc="$cc" -v mss=$MSS -v bound=$BOUND -v win=$WIN \
		  -v hor=$HORIZON -v want=$RATIO '
		function ratio(a, b) { return a + b == 0 ? 0 : (a < b ? a / b : b / a) }
		$2 != "-" || $3 != "-" {
			n++; t[n] = $1; a[n] = $2 + 0; b[n] = $3 + 0
			if (t0 == "") t0 = $1
		}
		END {
			# interval i: from sample i - 1 to sample i
			for (i = 2; i <= n; i++) {
				s = t[i - 1] - t0; dt = t[i] - t[i - 1]
				d1[i] = a[i] - a[i - 1]; d2[i] = b[i] - b[i - 1]
				st[i] = s; en[i] = s + dt
				m1 = d1[i] * mss * 8 / dt / 1e6
				m2 = d2[i] * mss * 8 / dt / 1e6
				printf "csv %.3f,%s/s1,mbps,%.2f\n", s, cc, m1
				printf "csv %.3f,%s/s2,mbps,%.2f\n", s, cc, m2
				if (d1[i] + d2[i] > 0) {
					printf "csv %.3f,%s/s1,share,%.3f\n", s, cc, d1[i] / (d1[i] + d2[i])
					printf "csv %.3f,%s/s2,share,%.3f\n", s, cc, d2[i] / (d1[i] + d2[i])
				}
				if (t2 == "" && d2[i] > 0) { t2 = s; i2 = i }
			}
			if (t2 == "") {
				print "res 0 - 0 -"
				exit
			}
			# windows of >= win s from t2 on, ending by t2 + hor:
			# converged at the end of the first one from which on
			# every window has the shares within want, if it ends
			# by t2 + bound and the windows reach t2 + hor
			nw = 0; best = 0
			for (k = i2; k <= n; k++) {
				A = 0; B = 0
				for (m = k; m <= n; m++) {
					A += d1[m]; B += d2[m]
					if (en[m] - st[k] >= win - 0.05) break
				}
				if (m > n || en[m] - t2 > hor + 0.05) break
				r[++nw] = ratio(A, B); we[nw] = en[m] - t2
				if (r[nw] > best) { best = r[nw]; bw = sprintf("%.1f-%.1f s", st[k] - t2, we[nw]) }
			}
			conv = "-"
			for (w = nw; w >= 1 && r[w] >= want; w--)
				if (we[w] <= bound + 0.05) conv = sprintf("%.1f", we[w])
			if (nw == 0 || we[nw] < hor - 0.6) conv = "-"
			worst = 1
			for (w = 1; w <= nw; w++)
				if (conv != "-" && we[w] >= conv && r[w] < worst) worst = r[w]
			# from t2 to t2 + bound: each sender, both
			A = 0; B = 0; T = 0
			for (i = i2; i <= n && en[i] - t2 <= bound + 0.05; i++) {
				A += d1[i]; B += d2[i]; T = en[i] - t2
			}
			agg = T ? (A + B) * mss * 8 / T / 1e6 : 0
			printf "res %d %s %.1f s1 %.1f Mbit/s s2 %.1f Mbit/s ratio %.2f; 2 s windows to %.1f s: %d, best %.2f (%s)%s\n",
				conv != "-", conv, agg,
				T ? A * mss * 8 / T / 1e6 : 0, T ? B * mss * 8 / T / 1e6 : 0,
				ratio(A, B), nw ? we[nw] : 0, nw, best, bw,
				conv != "-" ? sprintf(", worst from %s s on %.2f", conv, worst) : ""
		}')
	echo "$out" | sed -n 's/^csv //p' >>"$CSV"
	echo "$out" | sed -n 's/^csv /# csv /p'
	read -r _ FAIR CONV AGG SHARE <<<"$(echo "$out" | grep '^res ')"
}

# retx NS: packets NS retransmitted: "timeout SACK-gap NACK".
retx()
{
	ip netns exec "$1" awk '
		$1 ~ /^retx_(timeout|sack|nack)$/ { v[$1] = $2 }
		END { print v["retx_timeout"] + 0, v["retx_sack"] + 0, v["retx_nack"] + 0 }
		' /proc/net/uet_stat
}

# retx_since "T S N" NS: what NS retransmitted since retx printed T S N:
# "total (T timeouts, S SACK, N NACK)".
retx_since()
{
	local a b

	read -r -a a <<<"$1"
	read -r -a b <<<"$(retx "$2")"
	echo "$((b[0] + b[1] + b[2] - a[0] - a[1] - a[2])) ($((b[0] - a[0])) timeouts, $((b[1] - a[1])) SACK, $((b[2] - a[2])) NACK)"
}

# result FILE: "messages errors duplicates" of a uetperf JSON summary.
result()
{
	jq -r '"\(.messages) \(.errors) \(.duplicates // 0)"' "$1" 2>/dev/null |
		tail -n 1
}

# run CC JOB: the case above with cc CC and job JOB.
run()
{
	local cc=$1 job=$2 dir ns bad='' t0=$SECONDS r1 r2 s c1 c2

	for ns in "$R" "$S1" "$S2"; do
		"$UETCTL" -n "$ns" set cc "$cc" >/dev/null || {
			ktap_fail "cc $cc: set" "uetctl set cc $cc failed"
			return 1
		}
	done
	r1=$(retx "$S1")
	r2=$(retx "$S2")
	dir=$(mktemp -d)
	if ! uet_server "$R" "$dir/s" -j "$job" -i 3 -l $LEN; then
		ktap_fail "cc $cc: both transfers complete" "server did not start"
		sed 's/^/# server: /' "$dir/s.err"
		return 1
	fi
	drive "$dir" "$job" >"$dir/samples" &
	ip netns exec "$S1" "$UETPERF" -c $RADDR -j "$job" -J -t "$SECS1" \
		-l $LEN -S $SNDBUF >"$dir/c1" 2>"$dir/c1.err"
	touch "$dir/c1.done"
	wait
	echo "# cc $cc took $((SECONDS - t0)) s"

	read -r -a s <<<"$(result "$dir/s")"
	read -r -a c1 <<<"$(result "$dir/c1")"
	read -r -a c2 <<<"$(result "$dir/c2")"
	echo "# cc $cc: sent ${c1[0]-?} + ${c2[0]-?} messages of $LEN bytes, retransmitted $(retx_since "$r1" "$S1") + $(retx_since "$r2" "$S2") packets"
	[ "${c1[1]-}/${c2[1]-}" = 0/0 ] ||
		bad="senders' errors '${c1[1]-}' '${c2[1]-}'"
	[ "${s[0]-}" = $(( ${c1[0]-0} + ${c2[0]-0} )) ] && [ "${s[1]-}/${s[2]-}" = 0/0 ] ||
		bad+="${bad:+; }server got '${s[0]-}' of ${c1[0]-?} + ${c2[0]-?}, errors '${s[1]-}', duplicates '${s[2]-}'"
	if [ -z "$bad" ]; then
		ktap_ok "cc $cc: both transfers complete"
	else
		ktap_fail "cc $cc: both transfers complete" "$bad"
		sed 's/^/# /' "$dir"/*.err | sort | uniq -c | head -n 10
	fi

	analyse "$cc" "$dir/samples" "$job"
	echo "# share $cc: converged ${CONV} s after sender 2 started; over its first $BOUND s: $AGG Mbit/s, $SHARE"
	if judged "$cc"; then
		if [ "$FAIR" = 1 ]; then
			ktap_ok "cc $cc: shares within $RATIO of each other over $WIN s from $CONV s on (by $BOUND s, to $HORIZON s)"
		else
			ktap_fail "cc $cc: shares within $RATIO of each other over $WIN s by $BOUND s, to $HORIZON s" "$SHARE"
		fi
		if awk -v a="$AGG" -v m=$RATE_MBPS -v f="$FRAC" 'BEGIN { exit !(a >= m * f) }'; then
			ktap_ok "cc $cc: aggregate $AGG Mbit/s >= $FRAC x $RATE_MBPS"
		else
			ktap_fail "cc $cc: aggregate >= $FRAC x $RATE_MBPS Mbit/s" "$AGG Mbit/s"
		fi
	fi
	rm -rf "$dir"
}

echo "# csv time_s,pdc,metric,value"
echo "time_s,pdc,metric,value" >"$CSV"
job=10
for cc in $CCS; do
	run "$cc" $job
	job=$((job + 1))
done
echo "# samples in $CSV"
echo "# took $SECONDS s in all"
ktap_finished
