#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-incast.sh: an incast (issue 14), run inside the VM:
#	tools/vm/vm-run --ko KO --timeout 1800 -- tools/bench-incast.sh
#
# N senders each send S bytes at the same moment to one receiver, through a
# switch whose port towards the receiver is limited to BENCH_RATE (tbf) in
# front of a short queue that marks ECN (fq_codel limit BENCH_QLIMIT ecn
# ce_threshold BENCH_CE, drops beyond its limit), as selftests/cc_rccc.sh
# builds it:
#
#  S1  s 10.0.0.11 --- p1 -+
#  S2  s 10.0.0.12 --- p2 -+   W: br0, pr: tbf BENCH_RATE
#  ..                      +-- br0       + fq_codel ecn ce_threshold
#  SN  s 10.0.0.1N --- pN -+    |
#                               pr --- r 10.0.0.1  R
#
# Each run builds it afresh (a PDC keeps the cc it started with, and the
# counters start from 0). Compared, for each N:
#  - uet under cc none, nscc, rccc and nscc+rccc (set on every namespace,
#    with mss, link-rate BENCH_RATE and base-rtt): each sender is one
#    uetperf client sending S / BENCH_MSG messages of BENCH_MSG bytes to a
#    uetperf server of its own in R (one endpoint per sender);
#  - TCP cubic (tcp_ecn left at its default: cubic sees drops only) and
#    TCP dctcp (tcp_dctcp, tcp_ecn=1 and tcp_congestion_control=dctcp in
#    every namespace): one connection per sender, a perl sender and sink.
#
# Every sender is running and waits on one FIFO, and starts when the
# script writes to it (a perl TCP sender connects only then; a uetperf
# client, its socket open, sends its first message, which opens its PDC),
# so that they start together whatever starting a process costs under TCG.
# A sender is done when its receiver has every byte: the server (uetperf,
# or the TCP sink at EOF) exits and its end is stamped. Reported per run:
# the last sender's completion time, the ideal time N x S x 8 / rate
# (payload only, no header), their ratio, Jain's fairness index of the N
# completion times, the senders' retransmissions (uet: retx_timeout +
# retx_sack + retx_nack; TCP: TcpRetransSegs) and their timeouts (uet:
# retx_timeout; TCP: TcpExtTCPTimeouts) and how many of those were
# spurious, the packet not lost (uet: retx_spurious; TCP:
# TcpExtTCPSpuriousRTOs), the queue's peak (its largest
# backlog sampled every 10 ms, as milliseconds at the rate), and "wire":
# the bytes the port sent, headers and all, over the payload (what the
# headers cost on the link, which the payload-only ideal leaves out); a
# JSON line per run (with the per-sender times, the queue's drops, ECN
# marks and peak backlog, the port's bytes and the receiver's
# rccc_credit_tx), then one table. A run that has not completed after
# BENCH_TIMEOUT (default 60 s + 20 x ideal) is stopped and reported
# incomplete.
#
# Environment: N_LIST (default "4 8"), BENCH_SIZE bytes per sender
# (default 4194304), BENCH_MSG uet message bytes (default 1048576, or S
# if smaller), BENCH_RATE (default 50mbit), BENCH_QLIMIT (default 20),
# BENCH_CE (default 1ms), BENCH_MSS (default 1024), BENCH_MTU (every
# link's MTU; default the veth's 1500), BENCH_BASE_RTT
# (default 1ms), BENCH_VARIANTS (default "uet-none uet-nscc uet-rccc
# uet-nscc+rccc tcp-cubic tcp-dctcp"), BENCH_TIMEOUT (seconds),
# BENCH_RTO_MIN (uet's rto-min, e.g. 10ms; default: uet's own),
# BENCH_STATS (set: print every uet counter that moved, summed over the
# senders, and the receiver's, after each uet run).
#
# Exits 1 when the setup fails (topology, qdisc, uetctl, dctcp, a server
# that does not start); incomplete runs are results, not failures.

set -u

root=${UET_ROOT:-$(cd "$(dirname "$(realpath "$0")")/.." && pwd)}
. "$root/selftests/fabric.sh"

n_list=${N_LIST:-4 8}
size=${BENCH_SIZE:-4194304}
msg=${BENCH_MSG:-1048576}
rate=${BENCH_RATE:-50mbit}
qlimit=${BENCH_QLIMIT:-20}
ce=${BENCH_CE:-1ms}
mss=${BENCH_MSS:-1024}
mtu=${BENCH_MTU:-}
base_rtt=${BENCH_BASE_RTT:-1ms}
rto_min=${BENCH_RTO_MIN:-}
all_variants="uet-none uet-nscc uet-rccc uet-nscc+rccc tcp-cubic tcp-dctcp"
variants=${BENCH_VARIANTS:-$all_variants}
raddr=10.0.0.1
port0=5200
ep0=100

[ "$msg" -gt "$size" ] && msg=$size
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; _uet_cleanup' EXIT

die()
{
	echo "bench-incast: $*" >&2
	exit 1
}

# The TCP sink: listen on port ARGV[0], take one connection, read it to
# EOF, print the bytes read.
# shellcheck disable=SC2016 # perl's variables
sink_pl='use IO::Socket::INET;
my $l = IO::Socket::INET->new(LocalPort => $ARGV[0], Listen => 8,
			      ReuseAddr => 1) or die "listen: $!";
print STDERR "tcpsink: ready\n";
my $c = $l->accept or die "accept: $!";
my ($n, $r, $b) = (0);
$n += $r while ($r = sysread($c, $b, 1 << 20));
print "$n\n";'

# The TCP sender: say it is ready (file ARGV[0]), wait for a byte on the
# start FIFO (ARGV[1]; one byte, so that each sender takes its own), then
# connect to ARGV[2] port ARGV[3] and send ARGV[4] bytes.
# shellcheck disable=SC2016 # perl's variables
send_pl='use IO::Socket::INET;
my ($ready, $go, $addr, $port, $left) = @ARGV;
my $buf = "\0" x 65536;
open(my $g, "<", $go) or die "$go: $!";
open(my $f, ">", $ready) or die "$ready: $!";
close($f);
sysread($g, my $c, 1);
my $s = IO::Socket::INET->new(PeerAddr => $addr, PeerPort => $port,
			      Proto => "tcp") or die "connect: $!";
while ($left > 0) {
	my $w = syswrite($s, $buf, $left < 65536 ? $left : 65536);
	die "write: $!" unless defined $w;
	$left -= $w;
}
close($s) or die "close: $!";'

# rate_bps RATE: tc's "50mbit" in bit/s
rate_bps()
{
	echo "$1" | awk '{ v = $1 + 0; u = tolower($1); sub(/^[0-9.]+/, "", u)
		m = u ~ /^g/ ? 1e9 : u ~ /^m/ ? 1e6 : u ~ /^k/ ? 1e3 : 1
		printf "%d", v * m }'
}

# now_us: the time in microseconds, without starting a process
now_us()
{
	local t=$EPOCHREALTIME

	echo "${t/[.,]/}"
}

# incast N: the topology above; sets W, R and S (the senders' namespaces)
incast()
{
	local n=$1 i ns

	_uet_cleanup
	_uet_netns=()
	uet_netns_new W && uet_netns_new R || return 1
	S=()
	for i in $(seq "$n"); do
		uet_netns_new ns || return 1
		S+=("$ns")
	done
	for ns in "$W" "$R" "${S[@]}"; do
		uet_ns_quiet "$ns"
	done
	ip -n "$W" link add br0 type bridge &&
		ip -n "$W" link set br0 up &&
		uet_link "$W" pr "$R" r ${mtu:+"$mtu"} &&
		ip -n "$W" link set pr master br0 &&
		uet_addr "$R" r "$raddr/24" fd00::1/64 || return 1
	for i in $(seq "$n"); do
		uet_link "$W" "p$i" "${S[i - 1]}" s ${mtu:+"$mtu"} &&
			ip -n "$W" link set "p$i" master br0 &&
			uet_addr "${S[i - 1]}" s "10.0.0.$((10 + i))/24" \
				"fd00::$((10 + i))/64" || return 1
	done
	ip netns exec "$W" tc qdisc add dev pr root handle 1: tbf \
		rate "$rate" burst 16kb limit 4mb &&
		ip netns exec "$W" tc qdisc add dev pr parent 1:1 handle 10: \
			fq_codel limit "$qlimit" ecn ce_threshold "$ce"
}

# tcp_cc NS CC: TCP congestion control CC in NS (and ECN on for dctcp)
tcp_cc()
{
	local key=net.ipv4.tcp_congestion_control

	ip netns exec "$1" sysctl -q -w "$key=$2" >/dev/null || return 1
	if [ "$2" = dctcp ]; then
		ip netns exec "$1" sysctl -q -w net.ipv4.tcp_ecn=1 \
			>/dev/null || return 1
	fi
	[ "$(ip netns exec "$1" sysctl -n "$key")" = "$2" ]
}

# configure VARIANT: uetctl or the TCP sysctls in R and every sender
configure()
{
	local ns

	for ns in "$R" "${S[@]}"; do
		case $1 in
		uet-*)
			"$UETCTL" -n "$ns" set mss "$mss" link-rate "$rate" \
				base-rtt "$base_rtt" cc "${1#uet-}" \
				${rto_min:+rto-min "$rto_min"} \
				>/dev/null || return 1
			;;
		tcp-*)
			tcp_cc "$ns" "${1#tcp-}" || return 1
			;;
		*)
			return 1
			;;
		esac
	done
}

# stamped K CMD...: run server CMD in R, stdout to end.K.out, stderr to
# end.K.err; its end time (us) goes to end.K
stamped()
{
	local k=$1

	shift
	: >"$tmp/end.$k.err"
	# shellcheck disable=SC2016 # the inner shell's arguments
	ip netns exec "$R" bash -c '"$@" >"$0.out" 2>"$0.err"
		t=$EPOCHREALTIME; echo "${t/[.,]/}" >"$0"' "$tmp/end.$k" "$@" &
}

# gated K NS CMD...: run uetperf CMD in NS with -G: it opens its socket,
# says "uetperf: waiting" and starts once a line arrives on the start
# FIFO (held open by the caller on fd 3, so that opening it never
# blocks). It is running before the release, as the TCP sender is:
# started by the release, a uetperf took some 0.1 s of TCG to load that
# counted against it.
gated()
{
	local k=$1 ns=$2

	shift 2
	ip netns exec "$ns" "$@" -G <"$tmp/go" >"$tmp/send.$k.out" \
		2>"$tmp/send.$k.err" &
}

# waiting N: the N uetperf clients wait for the release
waiting()
{
	local k

	for k in $(seq "$1"); do
		grep -q '^uetperf: waiting' "$tmp/send.$k.err" || return 1
	done
}

# count_files PATTERN: how many files match tmp/PATTERN (no process)
count_files()
{
	local f cnt=0

	for f in "$tmp"/$1; do
		[ -e "$f" ] && cnt=$((cnt + 1))
	done
	echo "$cnt"
}

# nap: sleep 0.5 s without starting a process (a read with a timeout on
# a FIFO no one writes, held on fd 4); returns 0
nap()
{
	read -r -t 0.5 -u 4 || :
}

# wait_for S COND...: run COND every 0.5 s until it succeeds or S seconds
# passed
wait_for()
{
	local end=$((SECONDS + $1))

	shift
	until "$@"; do
		[ "$SECONDS" -lt "$end" ] || return 1
		nap
	done
}

# ready_is PATTERN N: N files match tmp/PATTERN
ready_is()
{
	[ "$(count_files "$1")" -ge "$2" ]
}

# ended N: the N servers have exited
ended()
{
	local k

	for ((k = 1; k <= $1; k++)); do
		[ -s "$tmp/end.$k" ] || return 1
	done
}

# sum_stat NAMES...: the sum of these uet counters over the senders
sum_stat()
{
	local ns n v s=0

	for ns in "${S[@]}"; do
		for n in "$@"; do
			v=$(uet_stat "$ns" "$n")
			s=$((s + ${v:-0}))
		done
	done
	echo "$s"
}

# stats_line NS...: every uet counter that is not 0, summed over the
# namespaces, as "name value" pairs on one line
stats_line()
{
	local ns

	for ns in "$@"; do
		uet_stats "$ns"
	done | awk '{ s[$1] += $2 } END {
		for (k in s)
			if (s[k])
				printf "%s %d ", k, s[k]
		printf "\n" }'
}

# sum_nstat NAMES...: the sum of these nstat counters over the senders
sum_nstat()
{
	local ns s=0 v

	for ns in "${S[@]}"; do
		v=$(ip netns exec "$ns" nstat -asz "$@" 2>/dev/null |
			awk '$1 !~ /^#/ { s += $2 } END { print s + 0 }')
		s=$((s + v))
	done
	echo "$s"
}

# qstat KEY...: the sum of these counters of the fq_codel queue at the
# bottleneck (wherever tc -j puts them)
qstat()
{
	local k f=''

	for k in "$@"; do
		f+="${f:+, }.$k?"
	done
	ip netns exec "$W" tc -s -j qdisc show dev pr 2>/dev/null |
		jq "[.[] | select(.kind == \"fq_codel\") | .. | objects |
		    $f | numbers] | add // 0" 2>/dev/null
}

# link_bytes: the bytes the bottleneck has sent, headers and all
link_bytes()
{
	ip netns exec "$W" cat /sys/class/net/pr/statistics/tx_bytes
}

# qsample_start: sample the bottleneck's backlog (tbf's, which holds its
# fq_codel's) every 10 ms until qsample_stop, in one tc process (-batch)
# fed by one perl loop; the largest sample, in bytes, goes to tmp/qpeak.
# A sample sees the queue at that instant: the peak is a lower bound.
qsample_start()
{
	rm -f "$tmp/qpeak" "$tmp/qstop"
	# shellcheck disable=SC2016 # perl's and awk's variables
	ip netns exec "$W" sh -c 'perl -e '\''$| = 1; until (-e $ARGV[0]) {
		print "qdisc show dev pr\n";
		select(undef, undef, undef, 0.01) }'\'' "$1" |
		tc -s -j -batch - 2>/dev/null | grep -o "\"backlog\":[0-9]*" |
		awk -F: '\''$2 > m { m = $2 } END { print m + 0 }'\'' \
		>"$0"' "$tmp/qpeak" "$tmp/qstop" &
	QSAMPLER=$!
}

# qsample_stop: stop the sampler; prints the peak backlog in bytes
qsample_stop()
{
	: >"$tmp/qstop"
	wait "$QSAMPLER" 2>/dev/null
	cat "$tmp/qpeak" 2>/dev/null || echo 0
}

# run VARIANT N: the incast once; prints a JSON line and sets ROW (the
# table's row) and RELEASED (when the senders were released, in
# SECONDS). Returns 1 on a setup failure.
run()
{
	local v=$1 n=$2 k t0 ideal limit count ok=true timeout=false
	local ends=() e got retx rto credit drops marks times qpeak

	incast "$n" || { echo "topology or qdisc setup failed" >&2; return 1; }
	configure "$v" || { echo "cannot configure $v" >&2; return 1; }
	rm -f "$tmp"/end.* "$tmp"/ready.* "$tmp"/send.* "$tmp/go"
	mkfifo "$tmp/go" || return 1
	exec 3<>"$tmp/go"
	count=$((size / msg))
	for k in $(seq "$n"); do
		case $v in
		uet-*)
			stamped "$k" "$UETPERF" -s -J -e $((ep0 + k)) \
				-n "$count" -l "$msg" -i 3600
			wait_for 60 grep -q '^uetperf: ready' \
				"$tmp/end.$k.err" ||
				{ echo "uetperf server $k did not start" >&2
				  cat "$tmp/end.$k.err" >&2
				  return 1; }
			;;
		tcp-*)
			stamped "$k" perl -e "$sink_pl" $((port0 + k))
			wait_for 60 grep -q '^tcpsink: ready' \
				"$tmp/end.$k.err" ||
				{ echo "TCP sink $k did not start" >&2
				  cat "$tmp/end.$k.err" >&2
				  return 1; }
			;;
		esac
	done
	for k in $(seq "$n"); do
		case $v in
		uet-*)
			gated "$k" "${S[k - 1]}" "$UETPERF" -c "$raddr" \
				-p $((ep0 + k)) -n "$count" -l "$msg" -J
			;;
		tcp-*)
			ip netns exec "${S[k - 1]}" perl -e "$send_pl" \
				"$tmp/ready.$k" "$tmp/go" "$raddr" \
				$((port0 + k)) "$size" >"$tmp/send.$k.out" \
				2>"$tmp/send.$k.err" &
			;;
		esac
	done
	case $v in
	uet-*) wait_for 60 waiting "$n" ;;
	tcp-*) wait_for 60 ready_is 'ready.*' "$n" ;;
	esac || { echo "the senders did not get ready" >&2; return 1; }

	ideal=$(awk -v n="$n" -v s="$size" -v c="$(rate_bps "$rate")" \
		'BEGIN { printf "%.3f", n * s * 8 / c }')
	limit=${BENCH_TIMEOUT:-$(awk -v i="$ideal" \
		'BEGIN { printf "%d", 60 + 20 * i }')}
	qsample_start
	wire=$(link_bytes)
	t0=$(now_us)
	RELEASED=$SECONDS
	for k in $(seq "$n"); do
		echo >&3
	done
	if ! wait_for "$limit" ended "$n"; then
		timeout=true
		for e in "$R" "${S[@]}"; do
			ip netns pids "$e" 2>/dev/null |
				xargs -r kill 2>/dev/null
		done
	fi
	qpeak=$(qsample_stop)
	wire=$(($(link_bytes) - wire))
	wait
	exec 3>&-

	for k in $(seq "$n"); do
		e=$(cat "$tmp/end.$k" 2>/dev/null)
		case $v in
		uet-*)
			got=$(uet_json "$tmp/end.$k.out" messages)/$(uet_json \
				"$tmp/end.$k.out" errors)/$(uet_json \
				"$tmp/end.$k.out" duplicates)
			[ "$got" = "$count/0/0" ] || ok=false
			;;
		tcp-*)
			got=$(cat "$tmp/end.$k.out" 2>/dev/null)
			[ "$got" = "$size" ] || ok=false
			;;
		esac
		if $timeout || [ -z "$e" ]; then
			ok=false
		fi
		ends+=("$(awk -v e="${e:-0}" -v t="$t0" \
			'BEGIN { printf "%.3f", (e - t) / 1e6 }')")
	done
	$timeout && ok=false
	if ! $ok; then
		for k in $(seq "$n"); do
			sed "s/^/# $v sender $k: /" "$tmp/send.$k.err" \
				"$tmp/end.$k.err" 2>/dev/null | head -n 3 >&2
		done
	fi

	case $v in
	uet-*)
		retx=$(sum_stat retx_timeout retx_sack retx_nack)
		rto=$(sum_stat retx_timeout)
		spur=$(sum_stat retx_spurious)
		credit=$(uet_stat "$R" rccc_credit_tx)
		if [ -n "${BENCH_STATS:-}" ]; then
			echo "# $v N = $n senders: $(stats_line "${S[@]}")" >&2
			echo "# $v N = $n receiver: $(stats_line "$R")" >&2
		fi
		;;
	tcp-*)
		retx=$(sum_nstat TcpRetransSegs)
		rto=$(sum_nstat TcpExtTCPTimeouts)
		spur=$(sum_nstat TcpExtTCPSpuriousRTOs)
		credit=null
		;;
	esac
	drops=$(qstat drops)
	# ecn_mark: CoDel's marks; ce_mark: those above ce_threshold
	marks=$(qstat ecn_mark ce_mark)
	times=${ends[*]}

	# the JSON line and the table's row, from the per-sender times
	awk -v v="$v" -v n="$n" -v s="$size" -v rate="$rate" -v i="$ideal" \
		-v ok="$ok" -v to="$timeout" -v retx="$retx" -v rto="$rto" \
		-v spur="${spur:-0}" \
		-v credit="${credit:-0}" -v drops="${drops:-0}" \
		-v marks="${marks:-0}" -v qpeak="${qpeak:-0}" -v wire="$wire" \
		-v bps="$(rate_bps "$rate")" -v t="$times" -v rowf="$tmp/row" 'BEGIN {
		k = split(t, c, " ")
		last = 0; sum = 0; sq = 0; list = ""
		for (j = 1; j <= k; j++) {
			if (c[j] > last)
				last = c[j]
			sum += c[j]; sq += c[j] * c[j]
			list = list (j > 1 ? "," : "") c[j]
		}
		jain = sq > 0 ? sum * sum / (k * sq) : 0
		if (ok == "true") {
			ls = sprintf("%.2f", last); r = sprintf("%.2f", last / i)
			js = sprintf("%.3f", jain)
			jl = sprintf("%.3f", last); jr = sprintf("%.3f", last / i)
			jj = js
		} else {
			ls = to == "true" ? "timeout" : "fail"; r = "-"; js = "-"
			jl = "null"; jr = "null"; jj = "null"
		}
		printf "{\"bench\":\"incast\",\"variant\":\"%s\",\"n\":%d,", v, n
		printf "\"bytes\":%d,\"rate\":\"%s\",\"complete\":%s,", s, rate, ok
		printf "\"last_s\":%s,\"ideal_s\":%.3f,\"ratio\":%s,", jl, i, jr
		printf "\"jain\":%s,\"per_sender_s\":[%s],", jj, list
		printf "\"retx\":%d,\"timeouts\":%d,\"spurious\":%d,", \
			retx, rto, spur
		printf "\"rccc_credit_tx\":%s,", credit
		qms = qpeak * 8 * 1000 / bps
		printf "\"q_drops\":%d,\"q_ecn_marks\":%d,", drops, marks
		printf "\"q_peak_bytes\":%d,\"q_peak_ms\":%.2f,", qpeak, qms
		printf "\"link_bytes\":%d}\n", wire
		printf "%-4s %-14s %9s %8s %8s %6s %8s %8s %5s %7s %7s %7.2f %6.3f\n", \
			n, v, ls, sprintf("%.2f", i), r, js, retx, rto, spur, \
			drops, marks, qms, wire / (n * s) >rowf
	}'
	ROW=$(cat "$tmp/row")
}

bps=$(rate_bps "$rate")
[ "$bps" -gt 0 ] || die "bad BENCH_RATE $rate"
[ $((size % msg)) -eq 0 ] || die "BENCH_SIZE is not a multiple of BENCH_MSG"
[ -x "$UETPERF" ] || die "no $UETPERF (make -C tools)"
[ -x "$UETCTL" ] || die "no $UETCTL (make -C tools)"
case " $variants " in
*" tcp-dctcp "*)
	modprobe tcp_dctcp || die "no tcp_dctcp"
	allowed=$(sysctl -n net.ipv4.tcp_allowed_congestion_control)
	case " $allowed " in
	*" dctcp "*) ;;
	*)
		# a namespace may only choose an allowed one
		sysctl -q -w \
			net.ipv4.tcp_allowed_congestion_control="$allowed dctcp" ||
			die "cannot allow dctcp"
		;;
	esac
	;;
esac
mkfifo "$tmp/tick" || die "cannot make a FIFO in $tmp"
exec 4<>"$tmp/tick"

echo "incast benchmark: N senders x $size bytes -> 1 receiver, $rate (tbf)" \
	"+ fq_codel limit $qlimit ecn ce_threshold $ce; uet mss $mss, mtu ${mtu:-1500}, base-rtt $base_rtt, rto-min ${rto_min:-default}"
hdr=$(printf "%-4s %-14s %9s %8s %8s %6s %8s %8s %5s %7s %7s %7s %6s" N \
	variant "last s" "ideal s" "x ideal" Jain retx timeouts spur qdrops \
	qmarks "qpeak ms" wire)
rows=()
for n in $n_list; do
	for v in $variants; do
		t=$SECONDS
		run "$v" "$n" || die "setup failed ($v, N = $n)"
		rows+=("$ROW")
		echo "# $v N = $n: setup $((RELEASED - t)) s," \
			"then $((SECONDS - RELEASED)) s" >&2
	done
done
_uet_cleanup
_uet_netns=()

echo
echo "incast: $size bytes per sender, $rate;" \
	"ideal = N x S x 8 / rate (payload only)"
echo "$hdr"
printf '%s\n' "${rows[@]}"
