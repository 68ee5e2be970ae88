#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The "events" multicast group through `uetctl monitor`: PDCs opened and
# closed, a message given up, an active value made bad by a timeout and
# restored by a probe once its path works again, REPS freezing started
# and ended; as many events as the counters say, JSON that parses, and
# nothing in a namespace where nothing happened.

. "$(dirname "$0")/fabric.sh"

ktap_header
ktap_plan 12

out=$(mktemp -d)
mons=()
trap 'kill "${mons[@]}" 2>/dev/null; rm -rf "$out"; _uet_cleanup' EXIT

# monitor NS NAME: `uetctl -j monitor` in NS into $out/NAME, listening
# before this returns.
monitor()
{
	"$UETCTL" -j -n "$1" monitor >"$out/$2" 2>"$out/$2.err" &
	mons+=($!)
	uet_wait_until 10 grep -q 'monitoring events' "$out/$2.err"
}

# nev FILE TYPE: how many events of TYPE FILE holds.
nev()
{
	jq -s --arg t "$2" '[.[] | select(.event == $t)] | length' "$1"
}

# wait_ev FILE JQ_FILTER: wait (bounded) for an event matching the filter.
wait_ev()
{
	uet_wait_until 30 sh -c "jq -e -s '[.[] | select($2)] | length > 0' $1 >/dev/null 2>&1"
}

st()
{
	"$UETCTL" -j -n "$1" stats | jq -r ".$2"
}

uet_pair A B || { echo "# setup failed"; exit "$KSFT_FAIL"; }
uet_netns_new G
"$UETCTL" -n "$A" set pdc-idle 60s >/dev/null
"$UETCTL" -n "$B" set pdc-idle 200ms >/dev/null
if monitor "$A" a && monitor "$B" b && monitor "$G" g; then
	ktap_ok "monitors listening"
else
	ktap_fail "monitors listening"
fi

# PDCs opened; B's closes when idle.
uet_transfer "transfer" "$B" "$A" 10.0.0.2 4 -l 65536 -- -l 65536
lid=$("$UETCTL" -j -n "$A" pdc show | jq '.[] | select(.role == "initiator") | .lid')
if wait_ev "$out/a" ".event == \"pdc-open\" and .pdc == ${lid:-0} and .raddr == \"10.0.0.2\" and .role == \"initiator\""; then
	ktap_ok "pdc-open names the PDC the dump shows"
else
	ktap_fail "pdc-open names the PDC the dump shows" "lid '$lid'"
fi
tlid=$(jq -s '[.[] | select(.event == "pdc-open" and .role == "target")][0].pdc' "$out/b")
if wait_ev "$out/b" ".event == \"pdc-close\" and .pdc == $tlid and .raddr == \"10.0.0.1\""; then
	ktap_ok "pdc-close once the target PDC idled"
else
	ktap_fail "pdc-close once the target PDC idled" "target PDC '$tlid'"
fi

# A message nobody answers is given up, then its PDC closes.
ip -n "$A" link add d0 type dummy
ip -n "$A" link set d0 up
ip -n "$A" addr add 10.200.0.1/16 dev d0
"$UETCTL" -n "$A" set max-retx 1 rto-min 1ms rto-max 10ms >/dev/null
ip netns exec "$A" "$UETPERF" -c 10.200.0.2 -J -n 1 -l 3000 >/dev/null 2>&1
if wait_ev "$out/a" '.event == "msg-failed" and .raddr == "10.200.0.2" and .errno == 110 and .msg_seq == 0 and .msg_len == 3000' &&
   wait_ev "$out/a" '.event == "pdc-close" and .raddr == "10.200.0.2"'; then
	ktap_ok "msg-failed with its error, then pdc-close"
else
	ktap_fail "msg-failed with its error, then pdc-close"
	sed 's/^/# /' "$out/a"
fi

# As many events as the counters counted, every line JSON.
got="$(nev "$out/a" pdc-open) $(nev "$out/a" pdc-close) $(nev "$out/a" msg-failed)"
want="$(st "$A" pdc_opened) $(st "$A" pdc_closed) $(st "$A" tx_messages_failed)"
if [ "$got" = "$want" ] && [ "$(st "$A" events_lost)" = 0 ] &&
   python3 -c 'import json, sys; [json.loads(l) for l in open(sys.argv[1])]' "$out/a"; then
	ktap_ok "one event per PDC opened, closed and message failed"
else
	ktap_fail "one event per PDC opened, closed and message failed" "events $got, counters $want"
fi

# active: a value whose path drops everything becomes bad after a
# timeout, is probed, and comes back once the path works.
uet_pair C D || { echo "# setup failed"; exit "$KSFT_FAIL"; }
"$UETCTL" -n "$C" set spray active active-set-size 128 sack-retx-thresh 1024 \
	probe-period 20ms pdc-idle 60s >/dev/null
"$UETCTL" -n "$D" set pdc-idle 60s >/dev/null
ev=$(( $("$UETCTL" -j -n "$C" show | jq .start_port) + 5 ))
ip netns exec "$C" tc qdisc add dev va clsact
ip netns exec "$C" tc filter add dev va egress protocol ip prio 1 u32 \
	match ip protocol 17 0xff match ip sport $ev 0xffff \
	match ip dport 4793 0xffff action drop
monitor "$C" c
uet_transfer "transfer of one-packet messages, one value black-holed" \
	"$D" "$C" 10.0.0.2 200 -l 1000 -R 33554432 -- -l 1000
if wait_ev "$out/c" ".event == \"value-bad\" and .value == $ev" &&
   "$UETCTL" -j -n "$C" dest show 10.0.0.2 |
	jq -e --argjson v $ev '.[0].spray | .nbad >= 1 and
	   ([.values[] | select(.value == $v and (.flags | index("bad")))] |
	    length) == 1' >/dev/null; then
	ktap_ok "value-bad: the dropped value leaves the rotation"
else
	ktap_fail "value-bad: the dropped value leaves the rotation"
	sed 's/^/# /' "$out/c"
fi
p0=$(st "$C" probe_tx)
ip netns exec "$C" tc qdisc del dev va clsact
if wait_ev "$out/c" ".event == \"value-restored\" and .value == $ev" &&
   [ "$p0" -gt 0 ] && [ "$(st "$C" probe_ack_rx)" -ge 1 ] &&
   "$UETCTL" -j -n "$C" dest show 10.0.0.2 |
	jq -e --argjson v $ev '[.[0].spray.values[] | select(.value == $v and (.flags | index("bad")))] | length == 0' >/dev/null; then
	ktap_ok "value-restored: a probe answered brings it back"
else
	ktap_fail "value-restored: a probe answered brings it back" "probes sent before: $p0"
fi

# REPS: a quarter of the entropy values (source ports with the top two
# bits clear) lead nowhere, so packets explored onto them time out and
# freeze the state; acknowledgements after the freezing timeout end it.
uet_pair E F || { echo "# setup failed"; exit "$KSFT_FAIL"; }
"$UETCTL" -n "$E" set spray reps pdc-idle 60s >/dev/null
ip netns exec "$E" tc qdisc add dev va clsact
ip netns exec "$E" tc filter add dev va egress protocol ip prio 1 u32 \
	match ip protocol 17 0xff match ip sport 0 0xc000 \
	match ip dport 4793 0xffff action drop
monitor "$E" e
uet_transfer "REPS transfer" "$F" "$E" 10.0.0.2 4 -l 1048576 -R 33554432 \
	-- -l 1048576
uet_wait_until 10 sh -c "[ \$(jq -s '[.[] | select(.event == \"freeze-end\")] | length' $out/e) -ge \$($UETCTL -j -n $E stats | jq .reps_thaw) ]"
got="$(nev "$out/e" freeze-start) $(nev "$out/e" freeze-end)"
want="$(st "$E" reps_freeze) $(st "$E" reps_thaw)"
echo "# freeze-start, freeze-end: events $got, counters $want"
if [ "$got" = "$want" ] && [ "${got%% *}" -gt 0 ] && [ "${got##* }" -gt 0 ]; then
	ktap_ok "freeze-start and freeze-end, one per freeze counted"
else
	ktap_fail "freeze-start and freeze-end, one per freeze counted" "events $got, counters $want"
fi

uet_check_eq "$(wc -c <"$out/g")" 0 "nothing reaches a namespace where nothing happened"

ktap_finished
