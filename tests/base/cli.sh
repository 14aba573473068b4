#!/bin/bash
# The command line: --version, --help, help <cmd>, unknown commands.
source "$TESTLIB"

"$KDELTA" --version >"$T/v" || fail "--version failed"
grep -Eq '^kdelta [0-9]+\.[0-9]+\.[0-9]+$' "$T/v" || fail "--version: $(cat "$T/v")"

"$KDELTA" --help >"$T/help" || fail "--help failed"
grep -q '^usage: kdelta <command>' "$T/help" || fail "--help has no usage line"

# Every command --help lists answers its own --help, and "help <cmd>" alike.
for cmd in $(sed -n 's/^   \([a-z-]*\) .*/\1/p' "$T/help"); do
	"$KDELTA" "$cmd" --help >"$T/c1" || fail "$cmd --help failed"
	"$KDELTA" help "$cmd" >"$T/c2" || fail "help $cmd failed"
	cmp -s "$T/c1" "$T/c2" || fail "help $cmd differs from $cmd --help"
	grep -q "^usage: kdelta $cmd" "$T/c1" || fail "$cmd --help: no usage line"
done

expect_error 2 "kdelta: 'frobnicate' is not a kdelta command; see 'kdelta --help'" \
	"$KDELTA" frobnicate
expect_error 2 "kdelta: unknown option '--frob'; see 'kdelta --help'" \
	"$KDELTA" --frob
finish
