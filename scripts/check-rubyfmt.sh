#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Bulk check of kdelta's Ruby-compatible number formatting against a live
# Ruby (needs ruby): COUNT values per format (default 100000), from the
# generator of testdata/render/rubyfmt-reference.txt, formatted by Ruby, by
# kdelta (tests/render/test-rubyfmt --print) and by glibc's printf (awk).
# Prints how many lines kdelta and glibc each print differently from Ruby.
#
#   scripts/check-rubyfmt.sh [BUILD_DIR [COUNT [SEED]]]
set -euo pipefail
build=${1:-build}
count=${2:-100000}
seed=${3:-$RANDOM}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ruby "$(dirname "$0")/gen-rubyfmt-ref.rb" "$count" "$seed" >"$tmp/ruby"
cut -f1,2 "$tmp/ruby" | "$build/tests/render/test-rubyfmt" --print >"$tmp/kdelta"
LC_ALL=C awk -F'\t' -v OFS='\t' '{ print $1, $2, sprintf($1, $2 + 0) }' \
	<"$tmp/ruby" >"$tmp/glibc"
total=$(wc -l <"$tmp/ruby")
echo "seed $seed: $total values"
echo "kdelta differs from Ruby on $(diff "$tmp/ruby" "$tmp/kdelta" | grep -c '^<' || true)"
echo "glibc differs from Ruby on $(diff "$tmp/ruby" "$tmp/glibc" | grep -c '^<' || true)"
diff "$tmp/ruby" "$tmp/kdelta" | head -20 || true
