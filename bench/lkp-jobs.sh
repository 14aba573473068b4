#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# lkp-tests' own aim9.yaml, aim7-fs-1brd.yaml and aim7-fs-raid.yaml, run
# by kdelta here, each job once: issue 21's bar "every one of them runs
# here".  Long (aim7's loads of 3000 and 9000 workers write 1M files each:
# 50 minutes for aim7-fs-1brd alone and up to 10G of RAM disk on a busy
# 2-core machine), so not a test.  The files are lkp-tests'
# (scripts/fetch-lkp-tests.sh), unchanged but for their test time:
# TESTTIME (default 1s) replaces aim9's 300s and is added to every aim7
# section, so the names end in it ("add_double-1s",
# "1BRD_48G-xfs-3000-disk_rr-1s").  First, each file's job names with that
# suffix taken off must be lkp-tests' own (testdata/lkp-tests/names/).
# Prints each file's count of runs ok and failed, and for the runs that
# failed their first error line.  Runs as root (RAM disks, mounts).
#
#   bench/lkp-jobs.sh [BUILD_DIR [LKP_TESTS_DIR [OUT_DIR]]]
#
# OUT_DIR (default: a new directory in /tmp) keeps the job files, the
# results and each file's log.  LKP_JOBS="aim9 ..." runs only those.
#
# aim7-fs-raid's jobs need md RAID, which a kernel without md cannot make:
# KERNEL=PATH (a kernel with md, as kdelta run --kernel takes it: Debian's
# cloud kernel, extracted) runs them in its guest, each job in a boot of
# its own (the guest's memory, which holds its RAM disks, goes back to this
# machine after each job), the lightest first; VM_MEMORY=SIZE gives the guests' memory
# (--vm-memory; default: 1G plus the job's disks), VM_DISKS=file puts the
# disks in files on this machine (--vm-disks file: for RAID1 at aim7's
# loads of 3000 and disk_rd at 9000, which need more than its memory),
# VM_JOBS="..." the files
# that run in guests (default aim7-fs-raid).  Run it under nice: aim7's
# thousands of workers, confined to QEMU, still take both cores.
set -u
cd "$(dirname "$0")/.." || exit 2
build=$(realpath "${1:-build}")
lkp=$(realpath "${2:-lkp-tests}")
out=${3:-$(mktemp -d /tmp/kdelta-lkp-jobs.XXXXXX)}
testtime=${TESTTIME:-1s}
names=$PWD/testdata/lkp-tests/names
[ -f "$lkp/jobs/aim9.yaml" ] ||
	{ echo "lkp-jobs: no lkp-tests in $lkp: scripts/fetch-lkp-tests.sh fetches it" >&2; exit 2; }
mkdir -p "$out" && out=$(realpath "$out")
status=0
for f in ${LKP_JOBS:-aim9 aim7-fs-1brd aim7-fs-raid}; do
	job=$out/$f.yaml
	sed -e "s/^  testtime: 300s\$/  testtime: $testtime/" \
	    -e "s/^aim7:\$/aim7:\n  testtime: $testtime/" "$lkp/jobs/$f.yaml" >"$job"
	"$build/kdelta" split --print "$job" | grep -v '^ ' |
		sed "s/-$testtime\$//; s/-$testtime-/-/" | sort >"$out/$f.names"
	if grep -v '^#' "$names/$f.txt" | sort | diff - "$out/$f.names" >"$out/$f.names.diff"; then
		echo "$f: $(wc -l <"$out/$f.names") jobs, named as lkp-tests' split-job names them"
	else
		echo "$f: job names differ from lkp-tests' ($out/$f.names.diff)"
		status=1
	fi
	if [ -n "${KERNEL:-}" ] && [[ " ${VM_JOBS:-aim7-fs-raid} " == *" $f "* ]]; then
		rm -rf "$out/$f.jobs"
		# Lightest first (by aim7's load): a bench cut short has run the most.
		"$build/kdelta" split -o "$out/$f.jobs" "$job" |
			while read -r one; do
				echo "$(sed -n 's/^  load: //p' "$one" | head -n 1) $one"
			done | sort -n -s -k1,1 | cut -d' ' -f2- >"$out/$f.files"
		: >"$out/$f.log"
		while read -r one; do
			"$build/kdelta" run "$one" --runs 1 --concurrent \
				--kernel "guest=$KERNEL" ${VM_MEMORY:+--vm-memory "$VM_MEMORY"} \
				${VM_DISKS:+--vm-disks "$VM_DISKS"} \
				--result-root "$out/results" --work-dir "$out/work" \
				>/dev/null 2>>"$out/$f.log" </dev/null
		done <"$out/$f.files"
	else
		"$build/kdelta" run "$job" --runs 1 --concurrent --result-root "$out/results" \
			--work-dir "$out/work" >/dev/null 2>"$out/$f.log"
	fi
	ok=$(grep -c '^kdelta: \[[0-9]*/[0-9]*\] .*: ok, ' "$out/$f.log")
	failed=$(grep -c '^kdelta: \[[0-9]*/[0-9]*\] .*: failed' "$out/$f.log")
	echo "$f: $ok run(s) ok, $failed failed"
	grep '^kdelta: \[[0-9]*/[0-9]*\] .*: failed' "$out/$f.log" |
		sed 's/^kdelta: [^ ]* [^ ]* [^ ]* [^ ]* failed[:,]* */    /' | sort | uniq -c | head -5
	[ "$failed" = 0 ] || status=1
done
echo "results and logs in $out"
exit $status
