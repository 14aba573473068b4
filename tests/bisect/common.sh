# shellcheck shell=bash
# Helpers of the bisect tests, sourced after "$TESTLIB".

# make_fixture [make-repo.sh options]: a fixture repository in $REPO
# (testdata/bisect/make-repo.sh), its commit hashes in H[0..19], and a job
# running the bench program installed in $BIN in $JOB.  The store is
# $RESULTS, the work directory $WORK.
make_fixture() {
	REPO=$T/repo RESULTS=$T/results WORK=$T/work JOB=$T/job.yaml BIN=$T/bin
	INSTALL="mkdir -p $BIN && cp bench $BIN/bench.new && mv $BIN/bench.new $BIN/bench"
	# The slow commit does twice the work (ops_per_sec -50%): clear also
	# when other work on the machine makes bench noisy.
	mapfile -t H < <("$TESTDATA/bisect/make-repo.sh" "$REPO" --more-work 100 "$@") ||
		skip "cannot make the fixture repository"
	[ "${#H[@]}" = 20 ] || skip "cannot make the fixture repository"
	cat >"$JOB" <<EOJ
testcase: bisect-fixture
monitors: {}
exec:
  argv: [$BIN/bench]
EOJ
}

# What the tests build, once per commit; make_fixture sets what installs
# it before each run, $INSTALL.
BUILD='cc -O2 -o bench bench.c'

# The fixture's slow commit does twice the work (-50%).  bench varies by
# about 1% on a quiet machine, but by several percent under ASan beside
# the other tests (the parent against good at -2.9%, interval -6.3% to
# +0.5%, after 12 rounds in one CI run): changes under 15% are not looked
# for, so that "no earlier change" is shown in a few rounds also there.
MIN_CHANGE=15

command -v git >/dev/null || skip "git is not installed"
command -v cc >/dev/null || skip "no C compiler (cc) to build the fixture"

# bisect ARGS...: kdelta bisect on the fixture, each commit built once
# (without $INSTALL: checked out and built in $REPO before each run),
# output in $T/out and $T/err, exit status in $status.
bisect() {
	"$KDELTA" bisect --repo "$REPO" --build "$BUILD" \
		${INSTALL:+--install "$INSTALL"} --min-change "$MIN_CHANGE" \
		--result-root "$RESULTS" --work-dir "$WORK" "$@" "$JOB" \
		>"$T/out" 2>"$T/err"
	status=$?
}

# expect_restored [REF]: the repository is on REF (default refs/heads/main),
# clean, with no bisection in progress, neither git's nor kdelta's.
expect_restored() {
	local want=${1:-refs/heads/main} head git_dir

	head=$(git -C "$REPO" symbolic-ref -q HEAD || git -C "$REPO" rev-parse HEAD)
	[ "$head" = "$want" ] || fail "repository left on $head, want $want"
	[ -z "$(git -C "$REPO" status --porcelain --untracked-files=no)" ] ||
		fail "repository left with changes: $(git -C "$REPO" status --short)"
	git_dir=$(git -C "$REPO" rev-parse --absolute-git-dir)
	[ ! -e "$git_dir/BISECT_START" ] || fail "git bisect left in progress"
	[ ! -e "$git_dir/KDELTA_BISECT" ] || fail "kdelta's bisect marker left"
}

# expect_line FILE TEXT: FILE has a line that is exactly TEXT.
expect_line() {
	grep -qxF -- "$2" "$1" || {
		fail "no line '$2' in $1"
		sed 's/^/  | /' "$1" >&2
		# The progress lines say why each commit was classified.
		[ "$1" = "$T/out" ] && sed 's/^/  ! /' "$T/err" >&2
	}
}

# run_counts: "<commit> <number of run directories>" for every commit
# directory of the store, sorted.
run_counts() {
	local dir

	for dir in "$RESULTS"/bisect-fixture/*/*/*/; do
		[ -d "$dir" ] || continue
		echo "$(basename "$dir") $(find "$dir" -mindepth 1 -maxdepth 1 -type d | wc -l)"
	done | sort
}

# ok_runs COMMIT: its complete runs that went well.
ok_runs() {
	grep -lx ok "$RESULTS"/bisect-fixture/*/*/"$1"/*/complete 2>/dev/null | wc -l
}
