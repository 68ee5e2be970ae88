#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Jobs isolate: an unprivileged user (nobody, no capability) binds an
# endpoint only in a job the administrator created for its uid or one of
# its groups, the implicit bind of connect() and sendto() likewise; root
# (CAP_NET_ADMIN) binds any job; jobs are per namespace.  What names PDC
# ids and PSNs is for CAP_NET_ADMIN only: the pdc and dest dumps and the
# events group refuse nobody, with a message.  Errnos: no such job ENOENT,
# not the caller's job EPERM.

. "$(dirname "$0")/fabric.sh"

ktap_header
ktap_plan 21

out=$(mktemp -d)
trap 'rm -rf "$out"; _uet_cleanup' EXIT
chmod 755 "$out"

# bind|connect|sendto JOB: one AF_UET socket does OP in JOB and prints
# "ok" or the errno's name.  python3's socket module cannot pass a
# sockaddr_uet, so the calls go through libc.
cat >"$out/uet_bind.py" <<'PY'
import ctypes, errno, socket, struct, sys

AF_UET = 19
libc = ctypes.CDLL(None, use_errno=True)
op, job = sys.argv[1], int(sys.argv[2])
s = socket.socket(AF_UET, socket.SOCK_RDM)
if op == 'bind':	# any address, any endpoint
    sa = struct.pack('=HHIHHI16s', AF_UET, 0, job, 0, 0, 0, b'')
else:			# 127.0.0.1, endpoint 1
    sa = struct.pack('=HHIHHI16s', AF_UET, socket.AF_INET, job, 1, 0, 0,
                     socket.inet_aton('127.0.0.1'))
buf = ctypes.create_string_buffer(sa, len(sa))
if op == 'bind':
    r = libc.bind(s.fileno(), buf, len(sa))
elif op == 'connect':
    r = libc.connect(s.fileno(), buf, len(sa))
else:
    r = libc.sendto(s.fileno(), b'x', 1, 0x40, buf, len(sa))  # MSG_DONTWAIT
print('ok' if r >= 0 else errno.errorcode[ctypes.get_errno()])
PY

NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)

# as_nobody NS CMD...: CMD in NS as uid/gid 65534 without capabilities.
as_nobody()
{
	local ns=$1

	shift
	ip netns exec "$ns" "${NOBODY[@]}" "$@"
}

# op NS WHO OP JOB: the result of OP in JOB by WHO (root, nobody, or
# nobody+G: nobody with supplementary group G).
op()
{
	local ns=$1 who=$2

	shift 2
	case $who in
	root) ip netns exec "$ns" python3 "$out/uet_bind.py" "$@" ;;
	nobody) as_nobody "$ns" python3 "$out/uet_bind.py" "$@" ;;
	nobody+*)
		ip netns exec "$ns" setpriv --reuid=65534 --regid=65534 \
			--groups="${who#nobody+}" python3 "$out/uet_bind.py" "$@" ;;
	esac 2>&1
}

uet_netns_new A
uet_netns_new B

uet_check_eq "$(as_nobody "$A" grep CapEff /proc/self/status | awk '{print $2}')" \
	0000000000000000 "nobody has no capability"

uet_check_eq "$(op "$A" nobody bind 7)" ENOENT "nobody: bind in a job that does not exist: ENOENT"

if "$UETCTL" -n "$A" job add 7 uid 65534 && "$UETCTL" -n "$A" job add 8 gid 4242 &&
	"$UETCTL" -n "$A" job add 9; then
	ktap_ok "job add"
else
	ktap_fail "job add"
fi
uet_check_eq "$("$UETCTL" -n "$A" job show | tr '\n' ';')" \
	"job 7 uid 65534;job 8 gid 4242;job 9 admin-only;" "job show lists the jobs"
uet_check_eq "$("$UETCTL" -j -n "$A" job show 8 | jq -c .)" '[{"job":8,"gid":4242}]' \
	"job show JOB, JSON"

uet_check_eq "$(op "$A" nobody bind 7)" ok "nobody: bind in its uid's job"
uet_check_eq "$(op "$A" nobody bind 8)" EPERM "nobody: bind in another group's job: EPERM"
uet_check_eq "$(op "$A" nobody+4242 bind 8)" ok "nobody in group 4242: bind in its group's job"
uet_check_eq "$(op "$A" nobody bind 9)" EPERM "nobody: bind in an admin-only job: EPERM"
uet_check_eq "$(op "$A" nobody connect 8)" EPERM "nobody: connect() binds implicitly, checked: EPERM"
uet_check_eq "$(op "$A" nobody sendto 9)" EPERM "nobody: sendto() binds implicitly, checked: EPERM"
uet_check_eq "$(op "$A" root bind 9)/$(op "$A" root bind 100)" ok/ok \
	"root binds an admin-only job and one that does not exist"
uet_check_eq "$(op "$B" nobody bind 7)" ENOENT "jobs are per namespace"

err=$(as_nobody "$A" "$UETCTL" job add 10 2>&1)
uet_check_eq "$?:$("$UETCTL" -n "$A" job show 10 >/dev/null 2>&1; echo $?)" 1:1 \
	"nobody cannot add a job ($err)"
err=$("$UETCTL" -n "$A" job add 7 2>&1)
uet_check_eq "$?:$err" "1:Error: Job exists (delete it first)" "job add of an existing job"
err=$("$UETCTL" -n "$A" job add 16777216 2>&1)
uet_check_eq "$?" 1 "job id beyond 24 bits refused ($err)"

"$UETCTL" -n "$A" job del 7
uet_check_eq "$(op "$A" nobody bind 7)" ENOENT "nobody: bind after job del: ENOENT"
err=$("$UETCTL" -n "$A" job del 7 2>&1)
uet_check_eq "$?:$err" "1:Error: No such job" "job del of a missing job"

# PDC ids and PSNs are for CAP_NET_ADMIN.
err=$(as_nobody "$A" "$UETCTL" pdc show 2>&1)
rc=$?
if [ $rc -ne 0 ] && grep -q "needs CAP_NET_ADMIN" <<<"$err" &&
	ip netns exec "$A" "$UETCTL" pdc show >/dev/null; then
	ktap_ok "pdc show: nobody refused ($err), root allowed"
else
	ktap_fail "pdc show: nobody refused, root allowed" "nobody: rc $rc '$err'"
fi
err=$(as_nobody "$A" "$UETCTL" dest show 2>&1)
rc=$?
if [ $rc -ne 0 ] && grep -q "needs CAP_NET_ADMIN" <<<"$err" &&
	ip netns exec "$A" "$UETCTL" dest show >/dev/null; then
	ktap_ok "dest show: nobody refused, root allowed"
else
	ktap_fail "dest show: nobody refused, root allowed" "nobody: rc $rc '$err'"
fi
err=$(as_nobody "$A" timeout 10 "$UETCTL" monitor -c 1 2>&1)
rc=$?
if [ $rc -eq 1 ] && grep -q "cannot join" <<<"$err"; then
	ktap_ok "events group: nobody cannot join ($err)"
else
	ktap_fail "events group: nobody cannot join" "rc $rc '$err'"
fi

ktap_finished
