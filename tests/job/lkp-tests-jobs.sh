#!/bin/bash
# lkp-tests' own job files, as they are: each of them loads or fails with
# one "... is not built into kdelta" error, of the class that
# testdata/lkp-tests/jobs.txt gives it; the files that load give lkp-tests'
# own jobs, by number and name (testdata/lkp-tests/names/, which
# lkp-tests' sbin/split-job gave).  The files are not kdelta's:
# scripts/fetch-lkp-tests.sh fetches them, into lkp-tests/ of the source
# tree or LKP_TESTS_DIR; without them this test is skipped.  Prints the
# count of each class.
source "$TESTLIB"
list=$TESTDATA/lkp-tests/jobs.txt
tree=${LKP_TESTS_DIR:-$SRCDIR/lkp-tests}
commit=$(sed -n 's/^commit //p' "$list")

[ -d "$tree/jobs" ] ||
	skip "no lkp-tests in $tree: scripts/fetch-lkp-tests.sh fetches it (README, Development)"
[ "$(git -C "$tree" rev-parse HEAD 2>/dev/null)" = "$commit" ] ||
	skip "$tree is not lkp-tests at $commit, which $list is of: scripts/fetch-lkp-tests.sh checks it out"
cd "$tree" || exit 1

# class FILE: what kdelta split says of FILE, as jobs.txt has it.
class() {
	local out status
	out=$("$KDELTA" split --print "$1" 2>"$T/err")
	status=$?
	if [ $status = 0 ]; then
		echo "loads $(grep -vc '^ ' <<<"$out")"
		return
	fi
	# "file:line:col: <class> 'name' is not built into kdelta..." (the
	# class may end in ':', "disk: '1HDD'"), "a cluster job ('...')".
	sed -n -E "1{
		s/^kdelta split: [^ ]+:[0-9]+:[0-9]+: a cluster job \(.*\) is not built into kdelta.*/cluster/p
		s/^kdelta split: [^ ]+:[0-9]+:[0-9]+: ([a-z]+):? '[^']*' is not built into kdelta[;,:] .*/\1/p
	}" "$T/err" | grep . || echo "other: $(head -1 "$T/err") (status $status)"
}

declare -A want count
while read -r file expected; do
	want[$file]=$expected
done < <(grep '^jobs/' "$list")
git ls-files 'jobs/*.yaml' >"$T/files"
[ "$(wc -l <"$T/files")" = "${#want[@]}" ] ||
	fail "$tree has $(wc -l <"$T/files") job files, $list ${#want[@]}"
while read -r file; do
	got=$(class "$file")
	count[${got%% *}]=$((${count[${got%% *}]:-0} + 1))
	[ "$got" = "${want[$file]:-}" ] ||
		fail "$file: '$got', not '${want[$file]:-(not listed)}'"
	if [ "${got%% *}" = loads ]; then
		name=$(basename "$file" .yaml)
		"$KDELTA" split --print "$file" | grep -v '^ ' | sort >"$T/names"
		grep -v "^#" "$TESTDATA/lkp-tests/names/$name.txt" | sort | diff - "$T/names" >"$T/diff" ||
			fail "$file: not lkp-tests' job names: $(cat "$T/diff")"
	fi
done <"$T/files"
for c in "${!count[@]}"; do
	echo "$c: ${count[$c]}"
done | sort
finish
