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
expect_output "$TESTDATA/compare/lkp-aim9.txt" \
	"$KDELTA" compare --result-root "$R" --fail-on-regression $base $fix
# lkp-tests' whole decision: the same rows here
expect_output "$TESTDATA/compare/lkp-aim9.txt" \
	"$KDELTA" compare --result-root "$R" --test lkp $base $fix
finish
