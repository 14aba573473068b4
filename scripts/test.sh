#!/bin/bash
# The README's test command: installs the Debian packages that are missing,
# then builds kdelta three times, with warnings as errors -- optimised, with
# AddressSanitizer + UndefinedBehaviorSanitizer, and with ThreadSanitizer --
# runs the whole suite in the first two and the tests of threaded code (the
# monitors' sampler thread, kdelta run with it and signals, compare's
# parallel loading) in the third; then builds the libFuzzer targets with
# clang and runs each for FUZZ_SECONDS, where anything found fails it and
# its input is printed.  Ends with one line "N passed, N failed[, N
# skipped]" over all of it (a fuzz target counts as one test).
set -u
cd "$(dirname "$0")/.." || exit 2
. scripts/lib.sh

ensure_packages $BUILD_PACKAGES $TEST_PACKAGES $FUZZ_PACKAGES || exit 2

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

# setup BUILD_DIR MESON_OPTION...: configures (again); a failure counts.
setup() {
	local dir=$1
	shift
	mkdir -p "$dir"
	if [ -f "$dir/build.ninja" ]; then
		meson setup --reconfigure "$dir" "$@" >"$dir/setup.log" 2>&1
	else
		meson setup "$dir" "$@" >"$dir/setup.log" 2>&1
	fi && return
	cat "$dir/setup.log"
	failed=$((failed + 1))
	return 1
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
	setup "$dir" "$@" || return
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

# Fuzzing: about 10 s per target is enough to catch what a change broke in
# a parser (the seed corpora already cover each one's paths); campaigns
# that find new things take hours (README, "Fuzzing").
FUZZ_SECONDS=10

# fuzz DIR TARGET: runs DIR/tests/fuzz/fuzz-TARGET for FUZZ_SECONDS from
# the tree's seeds and crash reproducers (which clang's UBSan checks more
# closely than gcc's), with a scratch corpus for what it adds.  A crash, leak,
# undefined behaviour, failed property, hang (-timeout, per input) or memory
# blow-up fails it; then the report and the input, in base64, are printed,
# with how to keep it as a reproducer.
fuzz() {
	local dir=$1 t=$2 work f inputs=()
	work=$(mktemp -d "${TMPDIR:-/tmp}/kdelta-fuzz-$t.XXXXXX") || {
		failed=$((failed + 1))
		return
	}
	mkdir "$work/corpus" "$work/tmp"
	for f in corpus crashes; do
		[ -d "testdata/fuzz/$t/$f" ] && inputs+=("testdata/fuzz/$t/$f")
	done
	if UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 TMPDIR="$work/tmp" \
		"$dir/tests/fuzz/fuzz-$t" -max_total_time="$FUZZ_SECONDS" \
		-timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
		-dict="testdata/fuzz/$t.dict" -artifact_prefix="$work/" \
		"$work/corpus" "${inputs[@]}" >"$work/log" 2>&1; then
		echo "fuzz-$t: OK, $(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log") inputs in ${FUZZ_SECONDS}s"
		passed=$((passed + 1))
		rm -rf "$work"
		return
	fi
	echo "fuzz-$t: FAILED; what it found ($work/log):"
	# From the first report line (a failed property, a sanitizer's or
	# libFuzzer's own: leak, time-out, out-of-memory) on.
	awk '/property failed|^==[0-9]+==|runtime error|^ALARM|out-of-memory/ {
		found = 1 } found && n++ < 80' "$work/log" | grep . ||
		tail -n 40 "$work/log"
	for f in "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-*; do
		[ -f "$f" ] || continue
		echo "fuzz-$t: the input ($f), in base64:"
		base64 "$f"
		echo "fuzz-$t: keep it: base64 -d >testdata/fuzz/$t/crashes/WHAT-IT-WAS, then replay it: build/tests/fuzz/replay-$t testdata/fuzz/$t/crashes/WHAT-IT-WAS"
	done
	failed=$((failed + 1))
}

# fuzz_all: builds the fuzz targets (tests/fuzz/fuzz-*.c) with clang,
# ASan and UBSan, and runs each.
fuzz_all() {
	local dir=build-fuzz targets=() src t
	for src in tests/fuzz/fuzz-*.c; do
		src=${src#tests/fuzz/fuzz-}
		targets+=("${src%.c}")
	done
	echo "=== $dir: each fuzz target for ${FUZZ_SECONDS}s: ${targets[*]}"
	CC=clang setup "$dir" -Dfuzz=enabled -Dbuildtype=debugoptimized \
		-Dwerror=true -Db_sanitize=address,undefined -Db_lundef=false ||
		return
	if ! meson compile -C "$dir" "${targets[@]/#/tests/fuzz/fuzz-}"; then
		echo "$dir: build failed"
		failed=$((failed + 1))
		return
	fi
	for t in "${targets[@]}"; do
		fuzz "$dir" "$t"
	done
}

if [ ${#TEST_ARGS[@]} -eq 0 ]; then
	fuzz_all
else
	echo "=== build-fuzz: skipped (tests were named)"
fi

line="$passed passed, $failed failed"
[ "$skipped" -ne 0 ] && line="$line, $skipped skipped"
echo "$line"
[ "$failed" -eq 0 ]
