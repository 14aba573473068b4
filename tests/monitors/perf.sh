#!/bin/bash
# The monitors that run perf(1), perf-stat and perf-profile: without perf in
# PATH, and with a perf that refuses (as perf does for an ordinary user), the
# run goes on and says so once per batch; as root with Debian's linux-perf,
# a profile of creat-clo names the kernel's open path, perf's files are
# gone, and kdelta stats extracts the same stats again.
. "$TESTLIB"
command -v python3 >/dev/null || skip "python3 is needed to read the JSON"
export KDELTA_RESULT_ROOT="$T/default-root"

cat >"$T/job.yaml" <<'EOF'
testcase: perf
monitors:
  perf-stat:
  perf-profile:
  time:
aim9:
  test: creat-clo
  testtime: 0.5s
EOF

# run NAME [VAR=value...]: two runs of the job into $T/NAME
run() {
	local name=$1
	shift
	env "$@" "$KDELTA" run "$T/job.yaml" --commit c --runs 2 \
		--result-root "$T/$name" --work-dir "$T/w" \
		>"$T/stdout" 2>"$T/stderr"
	status=$?
	[ "$status" = 0 ] || fail "$name: exit status $status: $(cat "$T/stderr")"
}

# notices REASON: each perf monitor's notice once, with REASON
notices() {
	local m
	for m in perf-stat perf-profile; do
		[ "$(grep -cxF "kdelta: $m unavailable: $1" "$T/stderr")" = 1 ] ||
			fail "no single '$m unavailable: $1' in: $(cat "$T/stderr")"
	done
}

# No perf in PATH.
mkdir "$T/empty"
run missing PATH="$T/empty"
notices "perf not found in PATH (Debian's linux-perf has it)"
ls "$T"/missing/perf/*/*/c/0/perf-* 2>/dev/null && fail "raw perf files without perf"
grep -q '^ *- perf-profile$' "$T"/missing/perf/*/*/c/1/job.yaml ||
	fail "job.yaml does not list perf-profile as unavailable"

# A perf that refuses, as perf does without the permission.
mkdir "$T/refusing"
cat >"$T/refusing/perf" <<'EOF'
#!/bin/sh
echo Error: >&2
echo 'Access to performance monitoring and observability operations is limited.' >&2
exit 255
EOF
chmod +x "$T/refusing/perf"
run refused PATH="$T/refusing"
notices "perf exited with status 255: Access to performance monitoring and observability operations is limited."

if [ "$(id -u)" != 0 ] || ! command -v perf >/dev/null; then
	[ "$failures" -ne 0 ] && finish
	skip "a real profile needs root and perf (Debian's linux-perf)"
fi

# The real thing: nothing goes below TMPDIR (perf's private directory is in
# the run's workspace, tests/monitors/perf-leftovers.sh).
mkdir "$T/tmp"
run real TMPDIR="$T/tmp"
[ -z "$(ls -A "$T/tmp")" ] || fail "perf's files left: $(ls -A "$T/tmp")"
grep -q unavailable "$T/stderr" && fail "unavailable with perf: $(cat "$T/stderr")"
dir=$(echo "$T"/real/perf/*/*/c/0)
zgrep -q "^# Samples: .* of event 'c" "$dir/perf-profile.gz" ||
	fail "perf-profile.gz: not perf report's text"
zgrep -q '^perf stat -a -x , -I 1000 ' "$dir/perf-stat.gz" ||
	fail "perf-stat.gz: no command line"
python3 - "$dir/stats.json" <<'PY' || fail "stats of the real run"
import json, sys
s = json.load(open(sys.argv[1]))
self = sum(v for k, v in s.items() if k.startswith("perf-profile.self.cycles-pp."))
bad = []
# perf report prints hundredths: a few hundred of them may add up past 100
if not 50 < self < 103:
    bad.append("self sums to %s" % self)
# creat() goes through do_sys_openat2 whatever the file system
if s.get("perf-profile.children.cycles-pp.do_sys_openat2", 0) <= 0:
    bad.append("no do_sys_openat2")
if not any(k.startswith("perf-profile.calltrace.cycles-pp.") for k in s):
    bad.append("no calltrace")
for k in ("perf-stat.ps.context-switches", "perf-stat.i.task-clock",
          "perf-stat.ps.cpu-clock"):
    if k not in s:
        bad.append("no " + k)
print("\n".join(bad), file=sys.stderr)
sys.exit(1 if bad else 0)
PY
# LKP's delay, longer than the run: the run ends when the workload does,
# with an empty profile (perf's own -D would hold perf until it is over).
cat >"$T/delayed.yaml" <<'EOF'
testcase: delayed
perf-profile: {delay: 60s, duration: 10s}
monitors: [time]
aim9:
  test: creat-clo
  testtime: 0.3s
EOF
"$KDELTA" run "$T/delayed.yaml" --commit c --runs 1 --result-root "$T/delayed" \
	--work-dir "$T/w" >"$T/stdout" 2>"$T/stderr" ||
	fail "a profile delayed beyond the run: $(cat "$T/stderr")"
grep -q '"perf-profile\.' "$T"/delayed/delayed/*/*/c/0/stats.json &&
	fail "samples taken before the delay was over"

# Extracted again from the raw files: the same stats.
cp "$dir/stats.json" "$T/before.json"
"$KDELTA" stats "$dir" >/dev/null 2>"$T/err" || fail "kdelta stats: $(cat "$T/err")"
cmp -s "$T/before.json" "$dir/stats.json" || fail "kdelta stats extracted other stats"
finish
