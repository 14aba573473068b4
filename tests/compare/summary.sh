#!/bin/bash
# Seed 004's GEO-MEAN table from a store: seven aim7 groups named as the
# robot named them, three commits, samples whose means are the seed's and
# whose spread makes the changes the seed shows significant (and only
# those).  kdelta compare --summary aim7.jobs-per-min must print the seed's
# rows: the same means, changes, "±" and group names (blanks aside: column
# widths are render tests' business).  The disk groups are stored under
# kdelta 0.1's names (disk_rr.jobs_per_min, ...), the others under
# lkp-tests': one table all the same.
source "$TESTLIB"
source "$SRCDIR/tests/compare/store.sh"
R=$T/results
labels=(99091700659f4df9 74a242ad94d13436a1644c0b45 bf4dc6e4ecc2a3d042029319bc)

# Per commit of each group: test, load, metric, commit and N values with
# the mean and the relative sample spread given.  The robot truncated its
# means: a whole mean shown as 70897 is taken as 70897.5.
python3 - "${labels[@]}" >"$T/cells" <<'PY'
import sys
groups = [
    ("creat-clo", 1500, "aim7.jobs-per-min", [(70897, 1, 5), (74137, 1, 5), (73775, 1, 5)]),
    ("disk_rd", 9000, "disk_rd.jobs_per_min", [(485217, 3.2, 10), (492431, 1, 5), (477533, 1, 5)]),
    ("disk_rr", 3000, "disk_rr.jobs_per_min", [(360451, 1, 5), (292980, 1, 5), (299377, 1, 5)]),
    ("disk_rw", 3000, "disk_rw.jobs_per_min", [(338114, 1, 5), (338410, 1, 5), (354078, 1, 5)]),
    ("disk_src", 3000, "aim7.jobs-per-min", [(60130, 5.2, 20), (62438, 1, 5), (62923, 1, 5)]),
    ("disk_wrt", 3000, "disk_wrt.jobs_per_min", [(403144, 1.9, 5), (397790, 1.9, 5), (410648, 1.9, 5)]),
    ("sync_disk_rw", 600, "aim7.jobs-per-min", [(26327, 1, 5), (26534, 1, 5), (26128, 1, 5)]),
]
for test, load, metric, cells in groups:
    for label, (m, s, n) in zip(sys.argv[1:], cells):
        m += 0.5
        z = [i - (n - 1) / 2 for i in range(n)]
        sd = (sum(v * v for v in z) / (n - 1)) ** 0.5
        print(test, load, metric, label,
              ",".join(repr(m + m * s / 100 * v / sd) for v in z))
PY
while read -r test load metric label values; do
	store_commit "$R/aim7/1BRD_48G-xfs-$test-$load-performance/ivb44/$label" \
		"$(printf 'testcase: aim7\ndisk: 1BRD_48G\nfs: xfs\naim7:\n  test: %s\n  load: %s\ncpufreq_governor: performance\n' "$test" "$load")" \
		"$metric=$values"
done <"$T/cells"

# The seed's lines: the "%stddev" header, the GEO-MEAN row (wrapped in the
# mail), the seven groups; blanks squeezed, "Â" (a mangled "±") repaired.
python3 - "$TESTDATA/render/seed004-summary.txt" >"$T/want" <<'PY'
import re, sys
lines = [l[4:].rstrip("\n") for l in open(sys.argv[1]) if l.startswith("> > ")]
squeeze = lambda l: " ".join(l.replace("Â", "±").split())
print(squeeze(lines[2]))
print(squeeze(lines[4].lstrip("\\") + " " + lines[5]))
for l in lines[6:13]:
    print(squeeze(l))
PY
check_summary() {	# METRIC: the table, against the seed's lines
	"$KDELTA" compare --result-root "$R" --summary "$1" "${labels[@]}" \
		>"$T/out" 2>"$T/err" || { fail "--summary $1: $(cat "$T/err")"; return; }
	sed -n '3p;5,12p' "$T/out" | tr -s ' ' | sed 's/^ //; s/ $//' >"$T/got"
	diff -u "$T/want" "$T/got" >&2 || fail "--summary $1 differs from seed 004"
	[ "$(sed -n 1p "$T/out" | tr -s ' ')" = \
	  "99091700659f4df9 74a242ad94d13436a1644c0b45 bf4dc6e4ecc2a3d042029319bc testcase/testparams/testbox" ] ||
		fail "--summary $1: labels: $(sed -n 1p "$T/out")"
}
check_summary aim7.jobs-per-min
# An old name is read as today's.
check_summary disk_wrt.jobs_per_min
finish
