#!/bin/bash
# The machine's run lock: a second kdelta run waits for the first, or
# refuses with --no-wait (status 8), or runs beside it with --concurrent
# and records the other run in its job.yaml; Ctrl-C while waiting stops
# it with nothing run.  The first run waits for $T/go, so the order of
# events does not depend on timing.
. "$TESTLIB"
export KDELTA_RESULT_ROOT="$T/default-root"
command -v python3 >/dev/null || skip "python3 is needed to read the store"

cat >"$T/slow.yaml" <<EOF
testcase: slow
monitors: []
exec:
  cmd: "while [ ! -e '$T/go' ]; do sleep 0.05; done; echo x: 1"
EOF
cat >"$T/quick.yaml" <<'EOF'
testcase: quick
monitors: []
exec:
  cmd: "echo x: 1"
EOF

# run NAME JOB OPTION...: kdelta run in the background, stderr in NAME.err.
run() {
	local name=$1 job=$2
	shift 2
	"$KDELTA" run "$T/$job.yaml" --commit "$name" --runs 1 \
		--result-root "$T/r" --work-dir "$T/w" "$@" 2>"$T/$name.err" &
}

run first slow
first=$!
wait_nonempty "$T/run.lock" || fail "the first run took no lock: $(cat "$T/first.err")"
holder="kdelta run (pid $first, since [-0-9]* [0-9:]* [-+][0-9]*, work dir $T/w)"

# --no-wait: refused at once, nothing run.
"$KDELTA" run "$T/quick.yaml" --commit refused --runs 1 --result-root "$T/r" \
	--work-dir "$T/w" --no-wait 2>"$T/refused.err"
status=$?
[ "$status" = 8 ] || fail "--no-wait: status $status, want 8: $(cat "$T/refused.err")"
grep -qx "kdelta run: $holder holds the machine's run lock $T/run.lock; try again later, or run beside it with --concurrent" \
	"$T/refused.err" || fail "--no-wait message: $(cat "$T/refused.err")"
[ -e "$T/r/quick" ] && fail "--no-wait ran"

# --concurrent: runs now, and records the run it ran beside.
"$KDELTA" run "$T/quick.yaml" --commit beside --runs 1 --result-root "$T/r" \
	--work-dir "$T/w" --concurrent 2>"$T/beside.err" ||
	fail "--concurrent: $(cat "$T/beside.err")"
[ -e "$T/go" ] && fail "the first run ended before --concurrent ran"

# Waiting: says so once, runs when the first is done.
run second quick
second=$!
wait_nonempty "$T/second.err" || fail "the second run says nothing"
grep -qx "kdelta run: waiting for the machine's run lock $T/run.lock, held by $holder (--no-wait refuses, --concurrent runs beside it)" \
	"$T/second.err" || fail "waiting message: $(cat "$T/second.err")"

# Ctrl-C while waiting: stops, nothing run.
run third quick
third=$!
wait_nonempty "$T/third.err" || fail "the third run says nothing"
kill -INT "$third"
wait "$third"
status=$?
[ "$status" = 130 ] || fail "SIGINT while waiting: status $status, want 130"
grep -qx "kdelta: stopped by SIGINT while waiting for the run lock; nothing ran" \
	"$T/third.err" || fail "SIGINT message: $(cat "$T/third.err")"

touch "$T/go"
wait "$first" || fail "first run: $(cat "$T/first.err")"
wait "$second" || fail "second run: $(cat "$T/second.err")"
[ -s "$T/run.lock" ] && fail "the lock file still names a holder: $(cat "$T/run.lock")"

python3 - "$T/r" <<'PY' || fail "store checks"
import glob, os, sys
root = sys.argv[1]
def kdelta(commit):
    [path] = glob.glob(os.path.join(root, "*", "*", "*", commit, "0", "job.yaml"))
    block = open(path).read().split("\nkdelta:\n")[1]
    out = {}
    for line in block.splitlines():
        if not line.startswith("  ") or line.startswith("   "):
            if not line.startswith("  "):
                break
            continue
        k, _, v = line.strip().partition(":")
        out[k] = v.strip()
    return out, open(os.path.join(os.path.dirname(path), "complete")).read()
errors = []
first, first_done = kdelta("first")
beside, _ = kdelta("beside")
second, _ = kdelta("second")
if int(beside["concurrent_runs"]) < 1:
    errors.append(f"--concurrent run saw no other run: {beside}")
if float(second["start_time"]) < os.path.getmtime(glob.glob(os.path.join(root, "*", "*", "*", "first", "0", "complete"))[0]) - 0.001:
    errors.append("the second run started before the first ended")
for name, k in (("first", first), ("beside", beside), ("second", second)):
    for key in ("load_avg_start", "load_avg_end", "concurrent_runs"):
        if key not in k:
            errors.append(f"{name}: no kdelta.{key}")
    if os.path.exists("/proc/pressure/cpu") and "pressure" not in k:
        errors.append(f"{name}: no kdelta.pressure")
for e in errors:
    print("FAIL:", e, file=sys.stderr)
sys.exit(1 if errors else 0)
PY

expect_error 2 "kdelta run: --no-wait and --concurrent exclude each other: --concurrent takes no lock" \
	"$KDELTA" run "$T/quick.yaml" --no-wait --concurrent
finish
