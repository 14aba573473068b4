#!/bin/bash
# End to end on an lkp-tests result tree (no matrix, no completion marks,
# eight levels deep): the default LKP table, as in seed 002, with a
# failure stat in the fail:runs table.
source "$TESTLIB"
R=$T/result
P=aim9/300s-creat-clo/lkp-wsx02/debian-x86_64-2015-02-07.cgz/x86_64-rhel/gcc-4.9
base=32b88194f71d6ae7768a29f87fbba454728273ee
fix=43819159da2b77fedcf7562134d6003dccd6a068

# run COMMIT N OPS PGFREE [FAILURES]
run() {
	mkdir -p "$R/$P/$1/$2"
	printf 'testcase: aim9\ntest: creat-clo\ntesttime: 300s\ntbox_group: lkp-wsx02\ncompiler: gcc-4.9\ncommit: %s\n' \
		"$1" >"$R/$P/$1/$2/job.yaml"
	printf '{"aim9.creat-clo.ops_per_sec": %s, "proc-vmstat.pgfree": %s, "meminfo.Dirty": %s%s}\n' \
		"$3" "$4" "$((100 + $2))" "${5:-}" >"$R/$P/$1/$2/stats.json"
}
# A warning in 2 of the fix's 3 runs, a boot failure (which lkp-tests
# does not report) in all of them: a fail:runs row for the first only.
warn=', "dmesg.WARNING:at_fs/xfs/xfs_log.c:#xlog_verify": 1, "dmesg.boot_failures": 1'
run $base 0 470000 8980000
run $base 1 475224 8984075
run $base 2 480448 8988150
run $fix 0 526648 9910000 "$warn"
run $fix 1 531968 9919044 "$warn"
run $fix 2 537288 9928088 ', "dmesg.boot_failures": 1'
# An unfinished run: no stats.json.
mkdir -p "$R/$P/$fix/3"

expect_output "$TESTDATA/compare/lkp-aim9.txt" \
	"$KDELTA" compare --result-root "$R" $base $fix
# Failures are findings: the fix's new warning and its unfinished run make
# it a regression for a robot, though its result improved.
"$KDELTA" compare --result-root "$R" --fail-on-regression $base $fix >"$T/out"
[ $? -eq 1 ] || fail "a new warning, an unfinished run: want status 1"
diff -u "$TESTDATA/compare/lkp-aim9.txt" "$T/out" >&2 ||
	fail "--fail-on-regression: output differs"
# lkp-tests' whole decision: the same rows here
expect_output "$TESTDATA/compare/lkp-aim9.txt" \
	"$KDELTA" compare --result-root "$R" --test lkp $base $fix

# A matrix.json as lkp-tests writes it (by hand, in its format): the last
# run lacked proc-vmstat.pgfree, so its array is short (lkp-tests saves the
# matrix before padding it with zeros), and runs marked incomplete
# (last_state.is_incomplete_run 1) are left out of performance stats.
# The samples below are those lkp-tests' own Ruby reads from these files
# (NMResultRoot#matrix, then complete_matrix: lib/nresult_root.rb).
R2=$T/ragged
for c in base fix; do
	for r in 0 1 2 3; do
		mkdir -p "$R2/$P/$c/$r"
		echo 'testcase: aim9' >"$R2/$P/$c/$r/job.yaml"
		echo '{}' >"$R2/$P/$c/$r/stats.json"
	done
done
cat >"$R2/$P/base/matrix.json" <<'EOF'
{
  "aim9.creat-clo.ops_per_sec": [100, 50, 101, 99],
  "last_state.is_incomplete_run": [0, 1],
  "proc-vmstat.pgfree": [10, 11, 12],
  "stats_source": ["b/0/stats.json", "b/1/stats.json", "b/2/stats.json",
                   "b/3/stats.json"]
}
EOF
cat >"$R2/$P/fix/matrix.json" <<'EOF'
{
  "aim9.creat-clo.ops_per_sec": [130, 131, 129, 60],
  "last_state.is_incomplete_run": [0, 0, 0, 1],
  "proc-vmstat.pgfree": [20, 20, 20, 30],
  "stats_source": ["f/0/stats.json", "f/1/stats.json", "f/2/stats.json",
                   "f/3/stats.json"]
}
EOF
cat >"$T/want" <<'EOF'
metric,variant,n,mean,samples
aim9.creat-clo.ops_per_sec,base,3,100,100 101 99
aim9.creat-clo.ops_per_sec,fix,3,130,130 131 129
proc-vmstat.pgfree,base,3,7.333333333,10 12 0
proc-vmstat.pgfree,fix,3,20,20 20 20
last_state.is_incomplete_run,base,4,0.25,0 1 0 0
last_state.is_incomplete_run,fix,4,0.25,0 0 0 1
EOF
"$KDELTA" compare --format csv --result-root "$R2" base fix >"$T/csv" ||
	fail "compare of a ragged lkp-tests matrix failed"
cut -d, -f2,4,5,6,21 "$T/csv" | diff -u "$T/want" - >&2 ||
	fail "ragged matrix, incomplete runs: not read as lkp-tests reads them"
"$KDELTA" compare --format json --result-root "$R2" base fix >"$T/json"
[ "$(tr -d ' \n' <"$T/json" | grep -o '"runs":3,"failed":0,"incomplete":1' | wc -l)" = 2 ] ||
	fail "lkp-tests' incomplete runs are not counted as incomplete"

# The job.yaml lkp-tests keeps holds its whole schedule (queue, enqueue_time,
# result_root, ...): the parameters are the axes lkp-tests shows, as its
# own Job#axes finds them in this file (see its header).
R3=$T/scheduled
P3=aim9/performance-creat-clo-300s/lkp-wsx02/debian-x86_64-2015-02-07.cgz/x86_64-rhel/gcc-4.9
for c in $base $fix; do
	for r in 0 1 2; do
		mkdir -p "$R3/$P3/$c/$r"
		sed "s/43819159da2b77fedcf7562134d6003dccd6a068/$c/g" \
			"$TESTDATA/compare/lkp-job.yaml" >"$R3/$P3/$c/$r/job.yaml"
		echo "{\"aim9.creat-clo.ops_per_sec\": 47000$r}" >"$R3/$P3/$c/$r/stats.json"
	done
done
cat >"$T/want" <<'EOF'
compiler/cpufreq_governor/kconfig/rootfs/tbox_group/test/testcase/testtime:
  gcc-4.9/performance/x86_64-rhel/debian-x86_64-2015-02-07.cgz/lkp-wsx02/creat-clo/aim9/300s
EOF
"$KDELTA" compare --result-root "$R3" $base $fix >"$T/out" ||
	fail "compare of a scheduled lkp-tests job failed"
sed -n 2,3p "$T/out" | diff -u "$T/want" - >&2 ||
	fail "the parameters of an lkp-tests job are not its axes"

# The same of jobs whose options are two mappings deep, and whose monitor
# has an option of the value of a program's (each file's header has
# lkp-tests' own axes of it), in trees of their own paths.
for job in cluster monitor; do
	f=$TESTDATA/compare/lkp-job-$job.yaml
	rt=$(sed -n 's|^_rt: "/result/\(.*\)/43819159da2b77fedcf7562134d6003dccd6a068"$|\1|p' "$f")
	for c in $base $fix; do
		for r in 0 1 2; do
			mkdir -p "$T/$job/$rt/$c/$r"
			sed "s/43819159da2b77fedcf7562134d6003dccd6a068/$c/g" "$f" \
				>"$T/$job/$rt/$c/$r/job.yaml"
			echo "{\"x.ops\": 47000$r}" >"$T/$job/$rt/$c/$r/stats.json"
		done
	done
	sed -n '/^# *[a-z_].*\/.*:$/{s/^# *//;p;n;s/^# *\(.*\)/  \1/p}' "$f" >"$T/want"
	"$KDELTA" compare --result-root "$T/$job" $base $fix >"$T/out" ||
		fail "compare of lkp-tests job $job failed"
	sed -n 2,3p "$T/out" | diff -u "$T/want" - >&2 ||
		fail "the parameters of lkp-tests job $job are not its axes"
done

# A change lkp-tests prints as "+5.5e+102%" (from a mean of 0, which it
# takes for 1e-100) fills its column: not changed, in parentheses, it has
# one digit fewer, so that it does not touch the column before it.
mkdir "$T/wide"
printf '{"proc-vmstat.nr_foo": [0, 0, 0], "stats_source": ["a", "b", "c"]}' >"$T/wide/0.json"
printf '{"proc-vmstat.nr_foo": [5, 6, 5.5], "stats_source": ["a", "b", "c"]}' >"$T/wide/1.json"
cp "$T/wide/1.json" "$T/wide/2.json"
"$KDELTA" compare --test lkp --all "$T/wide/0.json" "$T/wide/1.json" "$T/wide/2.json" 2>&1 |
	grep -qxF '      0.00        (+6e+102%)      5.50 ±  7%  (+6e+102%)      5.50 ±  7%  proc-vmstat.nr_foo' ||
	fail "a wide change in parentheses: $("$KDELTA" compare --test lkp --all "$T/wide/0.json" "$T/wide/1.json" "$T/wide/2.json" 2>&1)"
finish
