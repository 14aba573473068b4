#!/bin/bash
# The README's test command: installs the Debian packages that are missing,
# then builds kdelta twice -- optimised, and with AddressSanitizer +
# UndefinedBehaviorSanitizer, both with warnings as errors -- runs the whole
# suite in each, and ends with one line "N passed, N failed[, N skipped]".
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

run_suite() {
	local dir=$1
	shift
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
	meson test -C "$dir" --print-errorlogs --timeout-multiplier 3 "${TEST_ARGS[@]}"
	count "$dir"
}

TEST_ARGS=("$@")
run_suite build -Dbuildtype=release -Dwerror=true
run_suite build-asan -Dbuildtype=debug -Dwerror=true \
	-Db_sanitize=address,undefined -Db_lundef=false

line="$passed passed, $failed failed"
[ "$skipped" -ne 0 ] && line="$line, $skipped skipped"
echo "$line"
[ "$failed" -eq 0 ]
