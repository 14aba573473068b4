#!/bin/bash
# kdelta-job(5) is generated from the schema and renders without warnings;
# kdelta(1) documents split.
source "$TESTLIB"
page=$(realpath "$2")
command -v man >/dev/null || skip "man is not installed"
[ -s "$page" ] || fail "$page is missing or empty"

out=$(man --warnings -E UTF-8 -l -Tutf8 -Z "$page" 2>&1 >/dev/null)
[ -z "$out" ] || fail "kdelta-job.5 renders with warnings: $out"
out=$(man --warnings -E UTF-8 -l -Tutf8 -Z "$SRCDIR/man/kdelta.1" 2>&1 >/dev/null)
[ -z "$out" ] || fail "kdelta.1 renders with warnings: $out"

MANWIDTH=200 man -l "$page" >"$T/page" 2>/dev/null || fail "man -l $page failed"
grep -q '@PARAMETERS@' "$page" && fail "the parameters marker was not replaced"
# Every common parameter is in the generated reference, with its help.
for p in testcase suite category runs disk fs fs_mount_options monitors \
	cpufreq_governor nr_threads kconfig compiler kernel_cmdline rootfs \
	testbox tbox_group need_memory commit host machine kdelta; do
	grep -Eq "^ +$p \(" "$T/page" || fail "kdelta-job.5 lacks parameter $p"
done
grep -Eq "^ +runs \(integer, at least 1; default 3; not in the job's name\)\$" "$T/page" ||
	fail "kdelta-job.5 lacks runs' type, bounds and default"
grep -Eq '^ +load \(integer, 1 to 100000\)$' "$T/page" ||
	fail "kdelta-job.5 lacks aim7's load bounds"
grep -q '^ *Recorded, not applied: kdelta runs the kernel the machine booted' "$T/page" ||
	fail "kdelta-job.5 does not say kconfig is not applied"
grep -q 'runs per commit, at least 1' "$T/page" || fail "kdelta-job.5 lacks runs' help"
MANWIDTH=200 man -l "$SRCDIR/man/kdelta.1" 2>/dev/null | grep -q 'kdelta split' ||
	fail "kdelta.1 does not document split"
MANWIDTH=200 man -l "$SRCDIR/man/kdelta.1" 2>/dev/null |
	grep -q '^ *kdelta split \[-o|--output dir\] job.yaml$' ||
	fail "kdelta.1 does not give split's --output"
finish
