#!/bin/bash
# kdelta stats: raw files made of captures of this machine's /proc files
# (testdata/monitors/) extract to the values an independent Python script
# computed (testdata/monitors/expected.py -> expected-stats.txt); workload
# logs; and the errors, which leave an existing stats.json alone.
source "$TESTLIB"
D=$TESTDATA/monitors

# raw NAME CAPTURE: <run>/NAME.gz from CAPTURE.1..3 sampled at the times
# expected.py assumes.
raw_text() {
	local i=1 t
	for t in 1796001600.000000 1796001601.500000 1796001603.250000; do
		printf 'time: %s\n' "$t"
		cat "$D/$1.$i"
		i=$((i + 1))
	done
}
raw() {
	raw_text "$2" | gzip >"$R/$1.gz"
}

# labelled NAME LABEL CAPTURE...: like raw, each capture after its label
# line ("node: 0"); LABEL is a list, one per capture, separated by '|'.
labelled() {
	local name=$1 labels=$2 i=1 t
	shift 2
	for t in 1796001600.000000 1796001601.500000 1796001603.250000; do
		printf 'time: %s\n' "$t"
		local IFS='|' label j=0 captures=("$@")
		for label in $labels; do
			printf '%s\n' "$label"
			cat "$D/${captures[$j]}.$i"
			j=$((j + 1))
		done
		i=$((i + 1))
	done | gzip >"$R/$name.gz"
}

R=$T/run
mkdir "$R"
raw proc-vmstat vmstat
raw slabinfo slabinfo
raw meminfo meminfo
raw vmstat stat
raw interrupts interrupts
raw softirqs softirqs
labelled numa-meminfo 'node: 0' node0-meminfo
labelled numa-vmstat 'node: 0' node0-vmstat
labelled pressure 'resource: cpu|resource: io|resource: memory' \
	pressure-cpu pressure-io pressure-memory
labelled iostat 'devices: loop0=ram0 vda' diskstats
gzip <"$D/perf-stat" >"$R/perf-stat.gz"
cat >"$R/creat-clo.log" <<'LOG'
ops_per_sec: 812345.25
files: 3
note: not a number
two words: 7
nan: nan
scaled: 1e3
LOG
# The setup hook's stdout gives no metrics.
echo "built: 1" >"$R/setup.log"

"$KDELTA" stats "$R" >"$T/out" 2>"$T/err" || fail "kdelta stats failed: $(cat "$T/err")"
echo "$R/stats.json: 1439 metrics" >"$T/want"
diff -u "$T/want" "$T/out" || fail "kdelta stats printed something else"
python3 - "$R/stats.json" "$D/expected-stats.txt" <<'PY' || fail "stats.json differs from expected-stats.txt"
import json, sys
got = json.load(open(sys.argv[1]))
want = {}
for line in open(sys.argv[2]):
    k, v = line.split()
    want[k] = float(v)
want["creat-clo.ops_per_sec"] = 812345.25
want["creat-clo.files"] = 3
want["creat-clo.scaled"] = 1000
bad = 0
for k in sorted(set(got) | set(want)):
    if k not in got or k not in want:
        print("only in", "stats.json" if k in got else "expected", k)
        bad += 1
    elif abs(got[k] - want[k]) > 1e-12 * max(1, abs(want[k])):
        print(k, "got", got[k], "want", want[k])
        bad += 1
sys.exit(1 if bad else 0)
PY
# Keys sorted, and reals that read back exactly.
python3 - "$R/stats.json" <<'PY' || fail "stats.json: keys not sorted"
import json, sys
keys = list(json.load(open(sys.argv[1])))
sys.exit(0 if keys == sorted(keys) else 1)
PY
grep -q '"proc-vmstat.nr_free_pages": 1059570.3333333333,' "$R/stats.json" ||
	fail "stats.json: nr_free_pages not printed to round-trip"

# Errors: one line, status 2, and the stats.json already there stays.
cp "$R/stats.json" "$T/before"
size=$(stat -c %s "$R/proc-vmstat.gz")
head -c $((size / 2)) "$R/proc-vmstat.gz" >"$T/cut.gz"
cp "$T/cut.gz" "$R/proc-vmstat.gz"
expect_error 2 "kdelta stats: $R/proc-vmstat.gz: corrupt or truncated gzip data" \
	"$KDELTA" stats "$R"
cmp -s "$T/before" "$R/stats.json" || fail "a failed kdelta stats changed stats.json"

printf 'pgfree 1\n' | gzip >"$R/proc-vmstat.gz"
expect_error 2 "kdelta stats: $R/proc-vmstat.gz: not a raw sample file: expected 'time: <epoch>' at byte 0" \
	"$KDELTA" stats "$R"
printf 'time: 1.0\npgfree x\n' | gzip >"$R/proc-vmstat.gz"
expect_error 2 "kdelta stats: $R/proc-vmstat.gz: sample at 1.000000: bad line 'pgfree x': expected 'name value'" \
	"$KDELTA" stats "$R"
# A NUL would end a name: "proc-vmstat." and "proc-vmstat.pgfree" from this.
printf 'time: 1.0\npgfree 1\n\0 2\n\0pgfree 3\n' | gzip >"$R/proc-vmstat.gz"
expect_error 2 "kdelta stats: $R/proc-vmstat.gz: binary data (a NUL byte at byte 19), not a raw sample file" \
	"$KDELTA" stats "$R"
raw proc-vmstat vmstat

# Raw files that are not what their names say.
: >"$R/proc-vmstat.gz"
expect_error 2 "kdelta stats: $R/proc-vmstat.gz: empty file, not gzip data" \
	"$KDELTA" stats "$R"
{ raw_text vmstat | gzip; echo junk; } >"$R/proc-vmstat.gz"
expect_error 2 "kdelta stats: $R/proc-vmstat.gz: trailing garbage after the gzip data" \
	"$KDELTA" stats "$R"
for t in nan -1 0x10 1e9; do
	printf 'time: %s\npgfree 1\n' "$t" | gzip >"$R/proc-vmstat.gz"
	expect_error 2 "kdelta stats: $R/proc-vmstat.gz: bad 'time:' line at byte 0: expected an epoch like 1764466000.123456" \
		"$KDELTA" stats "$R"
done
rm "$R/proc-vmstat.gz"
ln -s /dev/zero "$R/proc-vmstat.gz"
expect_error 2 "kdelta stats: $R/proc-vmstat.gz: not a regular file" \
	"$KDELTA" stats "$R"
rm "$R/proc-vmstat.gz"
mkfifo "$R/fio.log"
expect_error 2 "kdelta stats: $R/fio.log: not a regular file" "$KDELTA" stats "$R"
rm "$R/fio.log"
raw proc-vmstat vmstat
cmp -s "$T/before" "$R/stats.json" || fail "a failed kdelta stats changed stats.json"

printf 'time: 1.0\nslabinfo - version: 2.0\n' | gzip >"$R/slabinfo.gz"
expect_error 2 "kdelta stats: $R/slabinfo.gz: slabinfo version 2.0 is not supported: kdelta reads version 2.1" \
	"$KDELTA" stats "$R"
raw slabinfo slabinfo

# bad NAME TEXT MESSAGE: NAME.gz holding TEXT fails with MESSAGE; then
# NAME.gz is as it was.
bad() {
	cp "$R/$1.gz" "$T/good.gz"
	printf "$2" | gzip >"$R/$1.gz"
	expect_error 2 "kdelta stats: $R/$1.gz: $3" "$KDELTA" stats "$R"
	mv "$T/good.gz" "$R/$1.gz"
}
bad numa-meminfo 'time: 1.0\nnode: 0\nNode 0 MemFree 5 kB\n' \
	"sample at 1.000000: bad line 'Node 0 MemFree 5 kB': expected 'Node N Name: value [kB]'"
bad numa-vmstat 'time: 1.0\nnr_free_pages 5\n' \
	"sample at 1.000000: bad line 'nr_free_pages 5': expected 'node: <N>' first"
bad numa-vmstat 'time: 1.0\nnode: 0\nnr_free_pages x\n' \
	"sample at 1.000000: bad line 'nr_free_pages x': expected 'name value'"
bad interrupts 'time: 1.0\n 0: 1 2\n' \
	"sample at 1.000000: bad line ' 0: 1 2': expected the header 'CPU0 CPU1 ...'"
bad interrupts 'time: 1.0\n CPU0 CPU1\n 0: 1 IO-APIC 2-edge timer\n' \
	"sample at 1.000000: bad line ' 0: 1 IO-APIC 2-edge timer': expected a count per CPU"
bad interrupts 'time: 1.0\n CPU0 CPU1\nLOC\n' \
	"sample at 1.000000: bad line 'LOC': expected 'NAME: count...'"
bad softirqs 'time: 1.0\n CPU0\n TIMER: 1 x\n' \
	"sample at 1.000000: bad line ' TIMER: 1 x': expected a count per CPU"
bad iostat 'time: 1.0\n 7 0 loop0 1 2 3 4 5 6 7 8 9 10 11\n' \
	"sample at 1.000000: expected 'devices: ...' first"
bad iostat 'time: 1.0\ndevices: loop0=\n' \
	"sample at 1.000000: bad line 'devices: loop0=': expected 'devices: name[=shown]...'"
bad iostat 'time: 1.0\ndevices: loop0\n 7 0 loop0 1 2 3\n' \
	"sample at 1.000000: bad line ' 7 0 loop0 1 2 3': expected 11 to 17 counters"
bad pressure 'time: 1.0\nsome avg10=0.00 total=0\n' \
	"sample at 1.000000: bad line 'some avg10=0.00 total=0': expected 'resource: <name>' first"
bad pressure 'time: 1.0\nresource: io\nsome avg10 total=0\n' \
	"sample at 1.000000: bad line 'some avg10 total=0': expected key=number"
bad pressure 'time: 1.0\nresource: io\nmost avg10=1\n' \
	"sample at 1.000000: bad line 'most avg10=1': expected 'some|full avg10=... total=...'"

expect_error 2 "kdelta stats: $T/nowhere: no such run directory" \
	"$KDELTA" stats "$T/nowhere"
expect_error 2 "kdelta stats: unknown option '--frob'; see 'kdelta stats --help'" \
	"$KDELTA" stats --frob
expect_error 2 "kdelta stats: no run directory given; see 'kdelta stats --help'" \
	"$KDELTA" stats

# 100,000 distinct latency_stats stacks: found by hashing, not by a search
# through all of them for each (that took minutes); bounded by CPU time,
# which a loaded machine does not stretch.
mkdir "$T/latency"
python3 -c '
import sys
w = sys.stdout.write
w("time: 1796001600\nLatency Top version : v0.1\n")
for i in range(100000):
    w("1 %d 3 f%d g\n" % (i + 2, i))' | gzip >"$T/latency/latency_stats.gz"
(ulimit -t 20 && exec "$KDELTA" stats "$T/latency") >"$T/out" 2>"$T/err" ||
	fail "100,000 stacks: status $?: $(cat "$T/err")"
[ "$(cat "$T/out")" = "$T/latency/stats.json: 400004 metrics" ] ||
	fail "100,000 stacks: $(cat "$T/out")"
grep -q '"latency_stats.sum.f99999.g": 100001,' "$T/latency/stats.json" ||
	fail "100,000 stacks: no f99999.g"

# Not a run directory: nothing is written there.
mkdir "$T/logs"
echo 'x: 1' >"$T/logs/x.log"
expect_error 2 "kdelta stats: $T/logs: not a run directory: no job.yaml, complete, stats.json or raw monitor file (<monitor>.gz) in it" \
	"$KDELTA" stats "$T/logs"
[ -e "$T/logs/stats.json" ] && fail "kdelta stats wrote into a directory that is no run directory"

# Several directories: each extracted, the bad one reported, status 2.
mkdir "$T/empty"
echo 'testcase: x' >"$T/empty/job.yaml"
"$KDELTA" stats "$T/empty" "$T/nowhere" >"$T/out" 2>"$T/err"
[ $? = 2 ] || fail "status $? with a missing directory among others"
[ "$(cat "$T/out")" = "$T/empty/stats.json: 0 metrics" ] || fail "stdout: $(cat "$T/out")"
[ "$(cat "$T/empty/stats.json")" = "{}" ] || fail "empty run: $(cat "$T/empty/stats.json")"
finish
