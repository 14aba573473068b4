#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Fetches lkp-tests (https://github.com/intel/lkp-tests) at the commit
# kdelta's checks of it were made against, into DIR (default: lkp-tests/
# at the top of this tree, which git ignores).  Nothing of it is part of
# kdelta: tests/job/lkp-tests-jobs.sh loads its job files (the list of
# their names and what kdelta says of each is testdata/lkp-tests/jobs.txt)
# and scripts/lkp-oracle.sh runs its compare; both skip without it.
#
#   scripts/fetch-lkp-tests.sh [DIR]
#
# LKP_TESTS_URL clones another copy (a mirror, a local clone) instead.
set -euo pipefail
cd "$(dirname "$0")/.."
commit=$(sed -n 's/^commit //p' testdata/lkp-tests/jobs.txt)
url=${LKP_TESTS_URL:-https://github.com/intel/lkp-tests}
dir=${1:-lkp-tests}

if [ ! -d "$dir/.git" ]; then
	git clone --quiet --no-checkout "$url" "$dir"
elif ! git -C "$dir" cat-file -e "$commit^{commit}" 2>/dev/null; then
	git -C "$dir" fetch --quiet "$url"
fi
git -C "$dir" -c advice.detachedHead=false checkout --quiet "$commit"
echo "lkp-tests $commit in $dir"
