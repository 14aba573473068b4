#!/bin/bash
# lkp-tests' runs that it marks incomplete, against lkp-tests' own compare
# (lib/compare.rb at bbbc29c4, through scripts/lkp-oracle/compare.rb) on
# the matrices of testdata/compare/lkp-incomplete: the fail:runs rows it
# prints, the stats it calls changed, and where kdelta keeps its own way
# (kdelta(1), LKP COMPATIBILITY).
source "$TESTLIB"
D=$TESTDATA/compare/lkp-incomplete

# rows FILE...: the fail:runs rows of kdelta compare --test lkp, without
# kdelta's own runs.incomplete row.
rows() {
	"$KDELTA" compare --test lkp "$@" 2>/dev/null |
		sed -n '/fail:runs/,/%stddev/p' | grep ':[0-9]' | grep -v ' runs.incomplete$'
}

# changed COLUMN FILE...: the stats kdelta calls changed in a column (1:
# the first after the base), sorted.
changed() {
	local column=$1
	shift
	"$KDELTA" compare --test lkp --format csv "$@" 2>/dev/null |
		awk -F, -v c="$column" 'NR > 1 { n[$2]++; if (n[$2] == c + 1 && $19 == "changed") print $2 }' |
		sort
}

# A failure stat counts every run of its matrix, incomplete ones too, also
# where a variant lacks the stat (kmsg.oom_kill in fix); dmesg.*,
# last_state.* and stderr.* are changed over every run, kmsg.* and the
# others over the complete runs only.  lkp-tests prints these rows:
cat >"$T/want" <<'ROWS'
          1:4          -25%            :3          -25%            :3     dmesg.WARNING:at_mm/page_alloc.c
          1:4          -25%            :3            8%           1:3     kmsg.oom_kill
          1:4          -25%            :3          -25%            :3     last_state.is_incomplete_run
ROWS
rows "$D/base.json" "$D/fix.json" "$D/later.json" | diff -u "$T/want" - >&2 ||
	fail "fail:runs rows of incomplete runs are not lkp-tests'"
# Every failure stat, as lkp-tests' "ncompare -a" lists them (in another
# order): .fail and .pass too count the incomplete run.
cat >"$T/want" <<'ROWS'
          1:4          -25%            :3     dmesg.WARNING:at_mm/page_alloc.c
          1:4          -25%            :3     kmsg.oom_kill
          1:4          -25%            :3     last_state.is_incomplete_run
          1:4          -25%            :3     ltp.syscalls.fail
          3:4            0%           3:3     ltp.syscalls.pass
ROWS
rows --all "$D/base.json" "$D/fix.json" | sort -k4 | diff -u "$T/want" - >&2 ||
	fail "every fail:runs row of incomplete runs is not lkp-tests'"
# lkp-tests calls these changed in fix (its column 1) ...
printf '%s\n' aim9.creat-clo.ops_per_sec dmesg.WARNING:at_mm/page_alloc.c \
	last_state.is_incomplete_run perf-profile.self.cycles-pp.memcpy >"$T/want"
# ... but perf-profile.self.cycles-pp.memcpy, whose fix row is ragged: its
# two runs lkp-tests pads with the Integer 0 make the middle run an
# Integer, and lkp-tests decides it by its integer rule (not changed);
# kdelta takes a side written as fractions as fractions.
changed 1 "$D/base.json" "$D/fix.json" | diff -u "$T/want" - >&2 ||
	fail "fix's changed stats: $(changed 1 "$D/base.json" "$D/fix.json")"
changed 1 "$D/base.json" "$D/fix.json" "$D/later.json" | diff -u "$T/want" - >&2 ||
	fail "fix's changed stats beside later"
# The later column: lkp-tests compares it with the base its first
# column's comparison stripped of its incomplete run, and calls only
# kmsg.oom_kill changed; kdelta compares it as the two alone, where
# lkp-tests calls these changed:
printf '%s\n' dmesg.WARNING:at_mm/page_alloc.c kmsg.oom_kill \
	last_state.is_incomplete_run >"$T/want"
changed 2 "$D/base.json" "$D/fix.json" "$D/later.json" | diff -u "$T/want" - >&2 ||
	fail "later's changed stats: not those of the two alone"
changed 1 "$D/base.json" "$D/later.json" | diff -u "$T/want" - >&2 ||
	fail "later alone: $(changed 1 "$D/base.json" "$D/later.json")"
# A base with no complete run: its stats are changed over every run only,
# and counted over them (not ":0", not "NaN%").
cat >"$T/want" <<'ROWS'
          2:2         -100%            :3     dmesg.WARNING:at_mm/page_alloc.c
          2:2         -100%            :3     last_state.is_incomplete_run
ROWS
rows "$D/none.json" "$D/later.json" | diff -u "$T/want" - >&2 ||
	fail "a base without a complete run: not lkp-tests' rows"
printf '%s\n' dmesg.WARNING:at_mm/page_alloc.c last_state.is_incomplete_run >"$T/want"
changed 1 "$D/none.json" "$D/later.json" | diff -u "$T/want" - >&2 ||
	fail "a base without a complete run: $(changed 1 "$D/none.json" "$D/later.json")"
"$KDELTA" compare --test lkp --explain kmsg.oom_kill "$D/none.json" "$D/later.json" 2>/dev/null |
	grep -q 'a side has no complete run, and lkp-tests compares this stat over complete runs only' ||
	fail "kmsg.oom_kill without a complete run: not explained"
finish
