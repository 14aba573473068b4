# shellcheck shell=bash
# Helpers for shell tests: source "$TESTLIB".  Each test runs the real binary
# ($KDELTA) in its own temporary directory ($T), removed on exit.
set -u

: "${KDELTA:?KDELTA must point at the kdelta binary}"
T=$(mktemp -d "${TMPDIR:-/tmp}/kdelta-test.XXXXXX")
# On exit the test's own shell runs what at_exit added, newest first, then
# removes $T.  Only that shell: bash runs the EXIT trap in a subshell that
# is killed before it has reset its traps -- expect_error's watchdog when
# the command was fast, on a loaded machine -- which removed $T under a
# running test.
test_shell=$BASHPID
exit_commands=
trap '[ "$BASHPID" = "$test_shell" ] && { eval "$exit_commands"; rm -rf "$T"; }' EXIT

# at_exit COMMANDS: runs the shell COMMANDS when the test ends.
at_exit() {
	exit_commands="$1
$exit_commands"
}
failures=0
# Each test its own run lock (kdelta(1), KDELTA_RUN_LOCK): the tests of a
# suite run side by side, and so do those of several checkouts.
export KDELTA_RUN_LOCK="$T/run.lock"
# lkp-tests' tree, which job files are checked against when set
# (kdelta-job(5)): only where a test sets it (meson's environment too).
unset LKP_SRC

fail() {
	echo "FAIL: $*" >&2
	failures=$((failures + 1))
}

skip() {
	echo "SKIP: $*"
	exit 77
}

# expect_error STATUS MESSAGE CMD...: CMD fails with STATUS, prints exactly
# MESSAGE (one line) on stderr and nothing on stdout.  Speed is not asserted
# (on a loaded machine any command can take a second), only that CMD ends:
# one that is still running after a minute has hung.
expect_error() {
	local want_status=$1 want_msg=$2 status
	shift 2
	local pid watchdog
	"$@" <&0 >"$T/out" 2>"$T/err" &
	pid=$!
	(sleep 60 && kill -9 "$pid" && touch "$T/hung") >/dev/null 2>&1 &
	watchdog=$!
	wait "$pid"
	status=$?
	# SIGKILL: a bash child that a catchable signal reaches before it has
	# reset its traps runs the test's EXIT trap (see above).
	pkill -KILL -P "$watchdog" 2>/dev/null
	kill -KILL "$watchdog" 2>/dev/null
	wait "$watchdog" 2>/dev/null
	if [ -e "$T/hung" ]; then
		rm -f "$T/hung"
		fail "$*: still running after 60 s"
	fi
	if [ "$status" != "$want_status" ]; then
		fail "$*: exit status $status, want $want_status"
	fi
	if [ "$(cat "$T/err")" != "$want_msg" ]; then
		fail "$*: stderr differs"
		echo "  got:  $(cat "$T/err")" >&2
		echo "  want: $want_msg" >&2
	fi
	if [ -s "$T/out" ]; then
		fail "$*: printed on stdout"
	fi
}

# expect_output FILE CMD...: CMD succeeds and its stdout equals FILE.
expect_output() {
	local want=$1
	shift
	if ! "$@" >"$T/out" 2>"$T/err"; then
		fail "$*: failed: $(cat "$T/err")"
		return
	fi
	if ! diff -u "$want" "$T/out" >&2; then
		fail "$*: output differs from $want"
	fi
}

# gone PID: the process has exited (a zombie counts), within 5 s.
gone() {
	local i
	for i in $(seq 50); do
		[ -e "/proc/$1" ] || return 0
		[ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" = Z ] && return 0
		sleep 0.1
	done
	return 1
}

# wait_nonempty FILE: true once FILE is not empty, false after 20 s.
wait_nonempty() {
	local i
	for i in $(seq 200); do
		[ -s "$1" ] && return 0
		sleep 0.1
	done
	return 1
}

# wait_line FILE REGEX PID: true once a line of FILE matches the extended
# regex; false when process PID ended first, or after 120 s.
wait_line() {
	local i
	for ((i = 0; i < 1200; i++)); do
		grep -Eqs -- "$2" "$1" && return 0
		kill -0 "$3" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# have_cgroup2: true when this process may make a cgroup (v2) below its
# own, as kdelta does for each run.
have_cgroup2() {
	local mnt own probe
	mnt=$(findmnt -n -t cgroup2 -o TARGET 2>/dev/null | head -n 1)
	own=$(sed -n 's/^0:://p' /proc/self/cgroup)
	[ -n "$mnt" ] && [ -n "$own" ] || return 1
	probe="$mnt${own%/}/kdelta-probe.$$"
	mkdir "$probe" 2>/dev/null && rmdir "$probe"
}

# address_space_sanitizer: true when $KDELTA is built with ASan or TSan,
# which reserve terabytes of address space and cannot run under ulimit -v.
address_space_sanitizer() {
	ldd "$KDELTA" 2>/dev/null | grep -qE 'lib(asan|tsan)\.'
}

# Ends the test: status 0 when nothing failed.
finish() {
	if [ "$failures" -ne 0 ]; then
		echo "$failures failure(s)" >&2
		exit 1
	fi
	exit 0
}
