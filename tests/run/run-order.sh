#!/bin/bash
# The order of a batch's runs, read back from the store's start times:
# rounds of every job and commit, shuffled by a seed that job.yaml records
# and --seed repeats; --order fixed keeps kdelta 0.1's job-by-job order.
. "$TESTLIB"
export KDELTA_RESULT_ROOT="$T/default-root"
command -v python3 >/dev/null || skip "python3 is needed to read the store"

# Two jobs (an axis) that run in a blink, without monitors.
cat >"$T/job.yaml" <<'EOF'
testcase: order
monitors: []
exec:
  cmd: "echo x: 1"
  name: [one, two]
EOF

# batch ROOT OPTION...: runs the job for commits a,b, 3 runs each.
batch() {
	local root=$1
	shift
	"$KDELTA" run "$T/job.yaml" --commits a,b --runs 3 --result-root "$root" \
		--work-dir "$T/w" "$@" 2>"$root.log" ||
		fail "run $*: $(cat "$root.log")"
}

# order ROOT: "job/commit/run" of each run by start time, then the
# kdelta.order and kdelta.seed of the runs (one line each if all agree).
order() {
	python3 - "$1" <<'PY'
import glob, os, sys
runs, keys = [], set()
for path in glob.glob(os.path.join(sys.argv[1], "order", "*", "*", "*", "*", "job.yaml")):
    parts = path.split(os.sep)
    job = {"one": "1", "two": "2"}[parts[-5].rsplit("-", 1)[1]]
    commit, run = parts[-3], parts[-2]
    kd = {}
    for line in open(path).read().split("\nkdelta:\n")[1].splitlines():
        if not line.startswith("  "):
            break
        k, _, v = line.strip().partition(": ")
        kd[k] = v
    runs.append((float(kd["start_time"]), f"{job}/{commit}/{run}"))
    keys.add((kd.get("order", "-"), kd.get("seed", "-")))
print(" ".join(name for _, name in sorted(runs)))
for k in sorted(keys):
    print(*k)
PY
}

batch "$T/s7" --seed 7
order "$T/s7" >"$T/s7.order"
grep -q '^kdelta: runs in rounds, each in the order of seed 7 (--seed 7 repeats it)$' \
	"$T/s7.log" || fail "no seed line: $(cat "$T/s7.log")"
# Each round holds every job and commit once, with that round's run.
python3 - "$T/s7.order" <<'PY' || fail "not in rounds: $(cat "$T/s7.order")"
import sys
lines = open(sys.argv[1]).read().splitlines()
runs = lines[0].split()
assert len(runs) == 12, runs
for r in range(3):
    assert sorted(runs[4 * r:4 * r + 4]) == sorted(
        f"{j}/{c}/{r}" for j in "12" for c in "ab"), runs
assert lines[1:] == ["shuffled 7"], lines[1:]
PY
# The order of seed 7, whatever the machine: a recorded seed must give the
# same order with every kdelta of this order scheme.
want="1/a/0 2/a/0 1/b/0 2/b/0 2/b/1 1/a/1 1/b/1 2/a/1 1/a/2 1/b/2 2/b/2 2/a/2"
[ "$(head -1 "$T/s7.order")" = "$want" ] ||
	fail "seed 7's order: $(head -1 "$T/s7.order"), want $want"
# The log lines come in the same order.
sed -n 's/^kdelta: \[[0-9]*\/12\] cmd-[0-9a-f]*-\([a-z]*\)\/\(.\) run \(.\)\/3: ok.*/\1\/\2\/\3/p' \
	"$T/s7.log" | sed 's/^one/1/; s/^two/2/' | tr '\n' ' ' >"$T/s7.lines"
python3 - "$T/s7.lines" "$T/s7.order" <<'PY' || fail "log order $(cat "$T/s7.lines")"
import sys
logged = [f"{j}/{c}/{int(r) - 1}" for j, c, r in (x.split("/") for x in open(sys.argv[1]).read().split())]
assert logged == open(sys.argv[2]).readline().split(), logged
PY

# --seed repeats the order; another seed gives another one.
batch "$T/again" --seed 7
order "$T/again" | cmp -s - "$T/s7.order" || fail "--seed 7 again: $(order "$T/again")"
batch "$T/s8" --seed 8
[ "$(order "$T/s8" | head -1)" != "$(head -1 "$T/s7.order")" ] ||
	fail "seeds 7 and 8 give the same order"
# No seed: a random one, printed and recorded, that repeats the batch.
batch "$T/random"
seed=$(sed -n 's/^kdelta: runs in rounds, each in the order of seed \([0-9]*\) .*/\1/p' "$T/random.log")
[ -n "$seed" ] || fail "no seed printed: $(cat "$T/random.log")"
[ "$(order "$T/random" | tail -n +2)" = "shuffled $seed" ] ||
	fail "recorded seed: $(order "$T/random" | tail -n +2), printed $seed"
batch "$T/repeat" --seed "$seed"
[ "$(order "$T/repeat" | head -1)" = "$(order "$T/random" | head -1)" ] ||
	fail "--seed $seed does not repeat the batch"

# --order fixed: job by job, the commits taking turns; job.yaml records
# kdelta.order: fixed, and no seed.
batch "$T/fixed" --order fixed --seed 7
printf '%s\n' "1/a/0 1/b/0 1/a/1 1/b/1 1/a/2 1/b/2 2/a/0 2/b/0 2/a/1 2/b/1 2/a/2 2/b/2" \
	"fixed -" >"$T/fixed.want"
order "$T/fixed" | diff -u "$T/fixed.want" - >&2 || fail "--order fixed"
grep -q 'runs in rounds' "$T/fixed.log" && fail "--order fixed printed a seed"

# One commit: the jobs are still shuffled.
"$KDELTA" run "$T/job.yaml" --commit a --runs 1 --result-root "$T/one" \
	--work-dir "$T/w" --seed 3 2>"$T/one.log" || fail "one: $(cat "$T/one.log")"
grep -q 'runs in rounds' "$T/one.log" || fail "two jobs, one commit: no seed line"

expect_error 2 "kdelta run: --order expects shuffled or fixed, not 'random'" \
	"$KDELTA" run "$T/job.yaml" --order random
expect_error 2 "kdelta run: --seed expects a number of 0 or more, not '-1'" \
	"$KDELTA" run "$T/job.yaml" --seed -1
expect_error 2 "kdelta run: --seed expects a number of 0 or more, not 'x'" \
	"$KDELTA" run "$T/job.yaml" --seed x
finish
