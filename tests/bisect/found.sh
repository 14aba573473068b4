#!/bin/bash
# One commit of the fixture (13 of 0..19) makes bench 50% slower (twice the work): bisect
# names exactly that commit, compares it with its parent, prints git's log,
# and leaves the repository on its branch.  kdelta compare then works on
# the stored runs.
source "$TESTLIB"
source "$SRCDIR/tests/bisect/common.sh"

make_fixture --slow-at 13
bisect --good main~19 --bad main --runs 3 --max-runs 12 --report "$T/mail"
[ "$status" = 0 ] || fail "exit status $status, want 0: $(cat "$T/err")"
expect_line "$T/out" "first bad commit: ${H[13]} (\"commit 13: bench: do 100% more work per operation\")"
expect_line "$T/out" "metric: exec.ops_per_sec"
expect_line "$T/out" "compared with its parent ${H[12]}"
# No earlier change: the parent does not differ from good by $MIN_CHANGE%.
grep -Eq "^before it: its parent ${H[12]:0:12} against good ${H[0]:0:12}: [-+][0-9]+\.[0-9]% \(interval [-+][0-9.]+% to [-+][0-9.]+%\), no change of $MIN_CHANGE% or more towards bad$" "$T/out" ||
	fail "no line saying that the parent is not worse than good: $(cat "$T/out" "$T/err")"
expect_line "$T/out" "git bisect log:"
expect_line "$T/out" "# first bad commit: [${H[13]}] commit 13: bench: do 100% more work per operation"
# The table: the parent as the base, the key result changed by about -50%.
grep -Eq '^ +[0-9]+( +±[ 0-9]+%)? +-(4[0-9]|5[0-9])\.[0-9]% +[0-9]+( +±[ 0-9]+%)? +exec\.ops_per_sec$' "$T/out" ||
	fail "no exec.ops_per_sec row with a change of about -50% in the table"
grep -Eq "^bisect: good ${H[0]:0:12}, bad ${H[19]:0:12}: [0-9]+ rounds(, [0-9]+ left out \(runs disturbed unevenly\))?, exec\.ops_per_sec [0-9.e+]+ and [0-9.e+]+ \(-(4[0-9]|5[0-9])\.[0-9]%, interval -[0-9.]+% to -[0-9.]+%\) → they differ$" "$T/err" ||
	fail "no line saying that good and bad differ by about -50% after their first rounds: $(cat "$T/err")"
# Each commit measured in rounds with good and bad, and built once.
grep -Eq "^bisect: testing [0-9a-f]{12} \([0-9]+ steps? left\): [0-9]+ rounds with good and bad \([0-9]+ new\)" "$T/err" ||
	fail "no commit measured in rounds with good and bad: $(cat "$T/err")"
# Each tested commit on one line, classified on the side of the fixture's
# change it is on.
testing=$(grep -c '^bisect: testing ' "$T/err")
[ "$testing" -ge 3 ] && [ "$testing" -le 6 ] ||
	fail "$testing commits tested, want 3 to 6 for 18 candidates"
for k in $(seq 1 18); do
	line=$(grep "^bisect: testing ${H[$k]:0:12} " "$T/err") || continue
	want=good
	[ "$k" -ge 13 ] && want=bad
	case $line in
	*"→ $want") ;;
	*) fail "commit $k: '$line', want → $want" ;;
	esac
done
expect_restored
# The robot's mail about it.
grep -Eq "^Subject: \[kdelta\] ${H[13]:0:12}: exec\.ops_per_sec -(4[0-9]|5[0-9])\.[0-9]% regression$" "$T/mail" ||
	fail "--report: no mail about the regression: $(head -3 "$T/mail")"
# Its "To reproduce" checks each commit out, builds and installs it.
grep -qF -- "--setup 'cd '\''$REPO'\'' && git checkout -q {commit} && cc -O2 -o bench bench.c && $INSTALL'" "$T/mail" ||
	fail "--report: the run command lacks the checkout and build: $(grep -A3 '^To reproduce' "$T/mail")"

# The runs are in the store under the full hashes; the mail and bisect's
# output name the commits by 12-digit abbreviations, and --good and --bad
# were revisions: all of them find those runs.
"$KDELTA" compare --result-root "$RESULTS" --min-change "$MIN_CHANGE" "${H[12]}" "${H[13]}" >"$T/cmp" 2>&1 ||
	fail "kdelta compare of the parent and the first bad commit failed: $(cat "$T/cmp")"
grep -q 'exec\.ops_per_sec$' "$T/cmp" || fail "kdelta compare shows no exec.ops_per_sec change"
labels() {	# ARGS: the labels kdelta compare found, in order
	"$KDELTA" compare --result-root "$RESULTS" --format csv "$@" 2>&1 |
		awk -F, 'NR > 1 && !seen[$4]++ { print $4 }' | paste -sd' '
}
[ "$(labels --repo "$REPO" main~19 main)" = "${H[0]} ${H[19]}" ] ||
	fail "--repo $REPO main~19 main: $(labels --repo "$REPO" main~19 main)"
[ "$(labels --repo "$REPO" main~7 main~6)" = "${H[12]} ${H[13]}" ] ||
	fail "--repo $REPO main~7 main~6: $(labels --repo "$REPO" main~7 main~6)"
source "$SRCDIR/tests/report/mail.sh"
kdelta_in_path
mail_file "$T/mail" "$T/again"
[ "$(sed -n 2p "$T/again/commands")" = "kdelta compare --min-change $MIN_CHANGE ${H[12]:0:12} ${H[13]:0:12}" ] ||
	fail "the mail's compare command: $(cat "$T/again/commands")"
(cd "$T/again" && KDELTA_RESULT_ROOT=$RESULTS sh -ec "$(sed -n 2p commands)") \
	>"$T/again/stored" 2>&1 || fail "the mail's compare on the bisection's store: $(cat "$T/again/stored")"
cmp -s "$T/cmp" "$T/again/stored" ||
	fail "the mail's compare shows other runs than compare of the full hashes: $(diff "$T/cmp" "$T/again/stored")"
# The mail's commands, run as they are into a new store, check each commit
# out, build it and show the regression again.
(cd "$T/again" && KDELTA_RESULT_ROOT=$T/again/results sh -e commands.sh) \
	>"$T/again/out" 2>"$T/again/err" || fail "the mail's commands failed: $(cat "$T/again/err")"
grep -Eq ' -(4[0-9]|5[0-9])\.[0-9]% .*exec\.ops_per_sec$' "$T/again/out" ||
	fail "the mail's commands did not reproduce the regression: $(cat "$T/again/out")"
finish
