#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kdelta's "--format lkp" and "--test lkp" against lkp-tests' own compare,
# run on the same matrices.  Needs ruby and ruby-activesupport (Debian) and
# an lkp-tests work tree:
#
#   git clone https://github.com/intel/lkp-tests /tmp/lkp   (or any copy)
#   scripts/lkp-oracle.sh [BUILD_DIR [LKP_SRC [COUNT [SEED]]]]
#
# Two sets of inputs: the tables of real robot mails of
# testdata/render/mails-lkp.txt, rebuilt as matrices by
# tests/render/test-mails, and COUNT synthetic result sets
# (scripts/lkp-oracle/gen-stores.py).  For each: the stats lkp-tests calls
# changed and those "kdelta compare --test lkp" calls changed, and the
# table rows both print (by name), byte for byte.  Prints the counts and
# every difference; exits 1 when there is one.
set -euo pipefail
shopt -s nullglob
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
lkp=${2:-/tmp/lkp}
count=${3:-40}
seed=${4:-1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

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
	# shellcheck disable=SC2086
	lkp_compare $matrices >"$dir/lkp.table"
	# shellcheck disable=SC2086
	"$build/kdelta" compare --test lkp --format csv $matrices >"$dir/kdelta.csv"
	# shellcheck disable=SC2086
	"$build/kdelta" compare --test lkp $matrices >"$dir/kdelta.table"
done
python3 "$here/lkp-oracle/agree.py" "$tmp"/mails/* "$tmp"/synthetic/*
