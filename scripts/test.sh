#!/bin/bash
# The README's test command: installs the Debian packages that are missing,
# then builds kdelta three times, with warnings as errors -- optimised, with
# AddressSanitizer + UndefinedBehaviorSanitizer, and with ThreadSanitizer --
# runs the whole suite in the first two and the tests of threaded code (the
# monitors' sampler thread, kdelta run with it and signals, compare's
# parallel loading) in the third, and ends with one line
# "N passed, N failed[, N skipped]" over all three.
set -u
cd "$(dirname "$0")/.." || exit 2
. scripts/lib.sh

ensure_packages $BUILD_PACKAGES $TEST_PACKAGES || exit 2

passed=0 failed=0 skipped=0

# count BUILD_DIR: adds meson's results from its testlog.json.
count() {
	local counts
	counts=$(python3 - "$1/meson-logs/testlog.json" <<'PY'
import json, sys
p = f = s = 0
for line in open(sys.argv[1]):
    r = json.loads(line)["result"]
    if r == "OK":
        p += 1
    elif r == "SKIP":
        s += 1
    else:
        f += 1
print(p, f, s)
PY
) || counts="0 1 0"
	set -- $counts
	passed=$((passed + $1)) failed=$((failed + $2)) skipped=$((skipped + $3))
}

# run_suite BUILD_DIR MESON_OPTION... [-- TEST...]: builds and runs the
# tests (all, or those named after --; the arguments of this script too).
run_suite() {
	local dir=$1 options=() tests=()
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		options+=("$1")
		shift
	done
	[ $# -gt 0 ] && shift
	tests=("$@")
	set -- "${options[@]}"
	echo "=== $dir: $*"
	mkdir -p "$dir"
	if [ -f "$dir/build.ninja" ]; then
		meson setup --reconfigure "$dir" "$@" >"$dir/setup.log" 2>&1
	else
		meson setup "$dir" "$@" >"$dir/setup.log" 2>&1
	fi || { cat "$dir/setup.log"; failed=$((failed + 1)); return; }
	if ! meson compile -C "$dir"; then
		echo "$dir: build failed"
		failed=$((failed + 1))
		return
	fi
	rm -f "$dir/meson-logs/testlog.json"
	[ ${#tests[@]} -eq 0 ] && tests=("${TEST_ARGS[@]}")
	meson test -C "$dir" --print-errorlogs --timeout-multiplier 3 \
		"${tests[@]}"
	count "$dir"
}

TEST_ARGS=("$@")
run_suite build -Dbuildtype=release -Dwerror=true
run_suite build-asan -Dbuildtype=debug -Dwerror=true \
	-Db_sanitize=address,undefined -Db_lundef=false
# ThreadSanitizer: the tests whose code runs threads (each is in the full
# suite above too); not when this script was given tests to run.
if [ ${#TEST_ARGS[@]} -eq 0 ]; then
	run_suite build-tsan -Dbuildtype=debug -Dwerror=true \
		-Db_sanitize=thread -Db_lundef=false \
		-- session run-commits run-interrupt compare-compare perf
else
	echo "=== build-tsan: skipped (tests were named)"
fi

line="$passed passed, $failed failed"
[ "$skipped" -ne 0 ] && line="$line, $skipped skipped"
echo "$line"
[ "$failed" -eq 0 ]
