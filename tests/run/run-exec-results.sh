#!/bin/bash
# A program that prints no "key: value" line (seed 000's trunc-bench prints
# "1566944 us") has measured nothing: each run fails, saying so, and
# compare --fail-on-regression says why and exits 7 (no data).  Before,
# the runs were "ok" with no result and compare exited 0, clean.  exec's
# "results" turns such output into results: a regular expression a key.
. "$TESTLIB"
export KDELTA_RESULT_ROOT="$T/default-root"

trunc_job() {	# FILE [RESULTS LINES]
	{
		printf 'testcase: trunc\nmonitors: {}\nexec:\n  name: trunc\n'
		printf '  cmd: "echo Removing files... >&2; echo 1566944 us; echo Done. >&2"\n'
		[ -z "${2:-}" ] || printf '  results:\n%s\n' "$2"
	} >"$1"
}

trunc_job "$T/plain.yaml"
"$KDELTA" run "$T/plain.yaml" --commits base,test --runs 3 \
	--result-root "$T/r1" --work-dir "$T/w" 2>"$T/err"
status=$?
[ "$status" = 1 ] || fail "no result: exit status $status, want 1: $(cat "$T/err")"
grep -q "^kdelta: \[1/6\] .*: failed: trunc printed no 'key: value' line; see kdelta-job(5) exec$" "$T/err" ||
	fail "no failure line: $(cat "$T/err")"
grep -q '^kdelta: 0 run(s) ok, 6 failed' "$T/err" || fail "summary: $(cat "$T/err")"
"$KDELTA" compare --result-root "$T/r1" --fail-on-regression base test >"$T/out" 2>&1
status=$?
[ "$status" = 7 ] || fail "compare --fail-on-regression: exit status $status, want 7 (no data): $(cat "$T/out")"
grep -q "^base: no usable run: 3 of 3 runs failed: trunc printed no 'key: value' line; see$" "$T/out" ||
	fail "compare does not say why: $(cat "$T/out")"

# results: the value from the line the pattern matches.
trunc_job "$T/results.yaml" '    usecs: "^([0-9]+) us$"'
"$KDELTA" run "$T/results.yaml" --commits base,test --runs 3 \
	--result-root "$T/r2" --work-dir "$T/w" 2>"$T/err" ||
	fail "results: $(cat "$T/err")"
grep -q '^kdelta: \[1/6\] .*: ok, [0-9.]*s, trunc.usecs: 1566944$' "$T/err" ||
	fail "results: the run's line: $(cat "$T/err")"
run=$(echo "$T"/r2/trunc/*/*/base/0)
[ "$(cat "$run/trunc.log")" = "$(printf '1566944 us\nusecs: 1566944')" ] ||
	fail "results: the log: $(cat "$run/trunc.log")"
grep -q '"trunc.usecs": 1566944' "$run/stats.json" || fail "results: stats.json: $(cat "$run/stats.json")"
"$KDELTA" compare --result-root "$T/r2" --fail-on-regression base test >"$T/out" 2>&1 ||
	fail "compare of the results: exit status $?: $(cat "$T/out")"
grep -Eq '^ +1566944 +(\(\+0\.0%\) +)?1566944 +trunc\.usecs$' "$T/out" || fail "compare: no trunc.usecs row: $(cat "$T/out")"

# A pattern that matches nothing gives no result: the run fails, as above.
trunc_job "$T/nomatch.yaml" '    usecs: "^([0-9]+) ms$"'
"$KDELTA" run "$T/nomatch.yaml" --commit x --runs 1 --result-root "$T/r3" \
	--work-dir "$T/w" 2>"$T/err"
[ $? = 1 ] && grep -q "failed: trunc printed no 'key: value' line" "$T/err" ||
	fail "a pattern that matches nothing: $(cat "$T/err")"

# Bad patterns and keys are refused as the file loads, with where.
trunc_job "$T/bad.yaml" '    usecs: "^([0-9]+ us$"'
"$KDELTA" run "$T/bad.yaml" --commit x --result-root "$T/r4" --work-dir "$T/w" 2>"$T/err"
[ $? = 2 ] || fail "a bad pattern: exit status $?"
[ "$(cat "$T/err")" = "kdelta run: $T/bad.yaml:7:5: exec: results: usecs: '^([0-9]+ us\$' is no regular expression: Unmatched ( or \\(" ] ||
	fail "a bad pattern: $(cat "$T/err")"
trunc_job "$T/badkey.yaml" '    "a b": "([0-9]+)"'
"$KDELTA" run "$T/badkey.yaml" --commit x --result-root "$T/r4" --work-dir "$T/w" 2>"$T/err"
[ $? = 2 ] && grep -q "exec: results: 'a b' is no result key (no blanks, no ':')" "$T/err" ||
	fail "a bad key: $(cat "$T/err")"
finish
