#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kdelta's "--format lkp" and "--test lkp" against lkp-tests' own compare,
# run on the same matrices.  Needs ruby, ruby-activesupport and
# ruby-tty-command (Debian) and an lkp-tests work tree, by default the one
# scripts/fetch-lkp-tests.sh fetches:
#
#   scripts/fetch-lkp-tests.sh
#   scripts/lkp-oracle.sh [BUILD_DIR [LKP_SRC [COUNT [SEED]]]]
#
# Three sets of inputs: the tables of real robot mails of
# testdata/render/mails-lkp.txt, rebuilt as matrices by
# tests/render/test-mails, COUNT synthetic result sets
# (scripts/lkp-oracle/gen-stores.py), and a store that "kdelta run" writes
# (two commits of an exec job, a stat only some runs print), whose commit
# directories lkp-tests reads as its own result roots (its load_json of
# matrix.json[.gz] and matrix_fill_missing_zeros; needs ruby-tty-command).  For each: the stats lkp-tests calls
# changed and those "kdelta compare --test lkp" calls changed, and the
# table rows both print (by name), byte for byte, column by column (each
# later column also against lkp-tests' comparison of it alone with the
# base).  scripts/lkp-oracle/agree.py prints the counts and every
# difference, and exits 1 on any but those kdelta(1), LKP COMPATIBILITY,
# documents, each excused only where it can see it is that one.
# LKP_ORACLE_DIR=DIR keeps the inputs and outputs there.
set -euo pipefail
shopt -s nullglob
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
lkp=${2:-$here/../lkp-tests}
[ -f "$lkp/lib/compare.rb" ] || {
	echo "lkp-oracle: no lkp-tests in $lkp: scripts/fetch-lkp-tests.sh fetches it" >&2
	exit 2
}
lkp=$(cd "$lkp" && pwd)
count=${3:-40}
seed=${4:-1}
if [ -n "${LKP_ORACLE_DIR:-}" ]; then	# kept, to look at
	tmp=$LKP_ORACLE_DIR
	rm -rf "$tmp" && mkdir -p "$tmp"
else
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
fi

lkp_compare() {
	RUBYLIB=$here/lkp-oracle/stub LKP_SRC=$lkp \
		ruby "$here/lkp-oracle/compare.rb" "$@"
}

mkdir "$tmp/mails" "$tmp/synthetic"
TESTDATA="$here/../testdata" "$build/tests/render/test-mails" \
	--write-matrices "$tmp/mails" >/dev/null
python3 "$here/lkp-oracle/gen-stores.py" "$tmp/synthetic" "$count" "$seed"
for dir in "$tmp"/mails/* "$tmp"/synthetic/*; do
	matrices=$(ls "$dir"/*.json | sort -V)
	# shellcheck disable=SC2086
	lkp_compare --keys $matrices >"$dir/lkp.keys"
	# Each later column alone against the base, as kdelta compares it
	# (kdelta(1), LKP COMPATIBILITY: lkp-tests strips the base of its
	# incomplete runs while it compares the first column).
	# shellcheck disable=SC2086
	set -- $matrices
	for ((i = 3; i <= $#; i++)); do
		lkp_compare --keys "$1" "${!i}" >"$dir/lkp.pair$((i - 1)).keys"
	done
	# shellcheck disable=SC2086
	lkp_compare $matrices >"$dir/lkp.table"
	# shellcheck disable=SC2086
	"$build/kdelta" compare --test lkp --format csv $matrices >"$dir/kdelta.csv" \
		2>>"$tmp/kdelta.err"
	# shellcheck disable=SC2086
	"$build/kdelta" compare --test lkp $matrices >"$dir/kdelta.table" \
		2>>"$tmp/kdelta.err"
done
# A store kdelta wrote.  lkp-tests' load_json runs zcat through the real
# tty-command gem: only the git stub on RUBYLIB.
mkdir -p "$tmp/gitstub" "$tmp/store/kdelta-run" && mkdir -m 700 "$tmp/w"
ln -s "$here/lkp-oracle/stub/git.rb" "$tmp/gitstub/git.rb"
if ruby -e 'require "tty-command"' 2>/dev/null; then
	cat >"$tmp/bench.sh" <<'EOF'
#!/bin/sh
# ops: the commit's RATE and a little noise; retries: odd runs only.
n=$(cat "$STATE" 2>/dev/null || echo 0)
echo $((n + 1)) >"$STATE"
echo "ops: $((RATE + n % 3))"
[ $((n % 2)) = 1 ] && echo "retries: $n"
exit 0
EOF
	chmod +x "$tmp/bench.sh"
	printf 'testcase: lkp-oracle\nmonitors: {}\nexec:\n  argv: [%s]\n' \
		"$tmp/bench.sh" >"$tmp/job.yaml"
	for c in base:1000 new:1100; do
		STATE=$tmp/count RATE=${c#*:} "$build/kdelta" run "$tmp/job.yaml" \
			--commit "${c%%:*}" --runs 5 --result-root "$tmp/r" \
			--work-dir "$tmp/w" >/dev/null 2>"$tmp/run.log" ||
			{ cat "$tmp/run.log" >&2; exit 1; }
	done
	d=$tmp/store/kdelta-run
	dirs=()
	for c in base new; do	# as 0.json, 1.json: the matrices in order
		dirs+=("$(dirname "$(echo "$tmp"/r/*/*/*/"$c"/matrix.json.gz)")")
		zcat "${dirs[-1]}/matrix.json.gz" >"$d/$((${#dirs[@]} - 1)).json"
	done
	RUBYLIB=$tmp/gitstub LKP_SRC=$lkp ruby "$here/lkp-oracle/compare.rb" \
		--keys "${dirs[@]}" >"$d/lkp.keys"
	RUBYLIB=$tmp/gitstub LKP_SRC=$lkp ruby "$here/lkp-oracle/compare.rb" \
		"${dirs[@]}" >"$d/lkp.table"
	"$build/kdelta" compare --result-root "$tmp/r" --test lkp --format csv \
		base new >"$d/kdelta.csv"
	"$build/kdelta" compare --result-root "$tmp/r" --test lkp base new \
		>"$d/kdelta.table"
else
	echo "lkp-oracle: no ruby-tty-command: a store kdelta wrote not checked (apt-get install ruby-tty-command)" >&2
fi
python3 "$here/lkp-oracle/agree.py" "$tmp"/mails/* "$tmp"/synthetic/* \
	"$tmp"/store/*
