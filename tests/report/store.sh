# shellcheck shell=bash
# The report tests' real store: two commits of a git repository, run by
# kdelta run with testdata/report/score.yaml, the second 10% slower.  Sets
# G (the repository), A and B (their hashes), R (the result root).

command -v git >/dev/null || skip "git is not installed"
[ -x /usr/bin/python3 ] || skip "/usr/bin/python3 is not installed"

export REPORT_TEST_DIR=$T/state
mkdir -p "$REPORT_TEST_DIR"
cp "$TESTDATA/report/score.sh" "$REPORT_TEST_DIR/"
G=$T/repo
git init -q "$G"
git_commit() {
	git -C "$G" -c user.name=t -c user.email=t@example.org commit -q \
		--allow-empty --cleanup=verbatim -m "$1"
	git -C "$G" rev-parse HEAD
}
A=$(git_commit 'xfs: prepare the iomap write path')
# The subject carries CR LF and a header: it must stay in the subject.
B=$(git_commit $'xfs: iomap write path\r\nBcc: x@y')
echo "$B" >"$REPORT_TEST_DIR/slower"
R=$T/results
"$KDELTA" run "$TESTDATA/report/score.yaml" --commits "$A,$B" \
	--setup "echo {commit} >\"\$REPORT_TEST_DIR/commit\"" \
	--result-root "$R" --work-dir "$T/work" 2>"$T/run.log" ||
	{ cat "$T/run.log" >&2; fail "kdelta run failed"; finish; }
