#!/bin/bash
# --axis (compare the values of a job parameter) and --repo (commit subjects).
source "$TESTLIB"
source "$SRCDIR/tests/compare/store.sh"
R=$T/results

job() { printf 'testcase: punch\nfs: %s\npunch:\n  size: %s\ncommit: %s\nhost: box\n' "$@"; }
for c in v1 v2; do
	store_commit "$R/punch/fs=xfs-size=1G/box/$c" "$(job xfs 1G $c)" punch.usecs=10,11,12
	store_commit "$R/punch/fs=ext4-size=1G/box/$c" "$(job ext4 1G $c)" punch.usecs=20,21,22
	store_commit "$R/punch/fs=xfs-size=2G/box/$c" "$(job xfs 2G $c)" punch.usecs=30,31,32
done
# No ext4 at 2G: that group is left out.
store_commit "$R/punch/fs=btrfs-size=2G/box/v1" "$(job btrfs 2G v1)" punch.usecs=1,2,3

cmp_() { "$KDELTA" compare --result-root "$R" --format csv "$@" | cut -d, -f1-6; }
cat >"$T/want" <<'EOT'
group,metric,key,variant,n,mean
punch/1G/box/v1,punch.usecs,1,xfs,3,11
punch/1G/box/v1,punch.usecs,1,ext4,3,21
punch/1G/box/v2,punch.usecs,1,xfs,3,11
punch/1G/box/v2,punch.usecs,1,ext4,3,21
EOT
expect_output "$T/want" cmp_ --axis fs xfs ext4
head -3 "$T/want" >"$T/want-v1"
expect_output "$T/want-v1" cmp_ --axis fs --commit v1 xfs ext4
cat >"$T/want-btrfs" <<'EOT'
group,metric,key,variant,n,mean
punch/2G/box/v1,punch.usecs,1,btrfs,3,2
punch/2G/box/v1,punch.usecs,1,xfs,3,31
EOT
expect_output "$T/want-btrfs" cmp_ --axis fs btrfs xfs
# Each commit is a group of its own, and the table's parameters say which.
"$KDELTA" compare --result-root "$R" --axis fs --all xfs ext4 >"$T/lkp"
grep -A1 '^commit/host/size/testcase:$' "$T/lkp" | grep -x '  v1/box/1G/punch' >/dev/null ||
	fail "--axis fs: the v1 group's parameters do not name its commit"
grep -x '  v2/box/1G/punch' "$T/lkp" >/dev/null ||
	fail "--axis fs: the v2 group's parameters do not name its commit"
# The axis parameter leaves the group's parameters.
"$KDELTA" compare --result-root "$R" --format json --axis fs xfs ext4 >"$T/json"
grep -q '"fs":' "$T/json" && fail "--axis fs: fs is still a group parameter"
grep -q '"axis": "fs"' "$T/json" || fail "--axis fs: no axis in the JSON"
expect_error 2 "kdelta compare: $R: no job of these results has a parameter 'fstype'" \
	"$KDELTA" compare --result-root "$R" --axis fstype xfs ext4
expect_error 2 "kdelta compare: $R: no jobs that differ only in 'fs' have results for all of 'xfs', 'zfs'" \
	"$KDELTA" compare --result-root "$R" --axis fs xfs zfs

# --repo: labels that are commits of the repository get their subject.
command -v git >/dev/null || { finish; }
G=$T/repo
git init -q "$G" && cd "$G" || fail "git init"
git -c user.name=t -c user.email=t@t commit -q --allow-empty -m 'xfs: first; $(touch pwned)'
a=$(git rev-parse --short=12 HEAD)
git -c user.name=t -c user.email=t@t commit -q --allow-empty -m 'xfs: second, "quoted"'
b=$(git rev-parse --short=12 HEAD)
cd "$T" || fail cd
R2=$T/r2
for c in "$a" "$b" not-a-commit; do
	store_commit "$R2/punch/p/box/$c" 'testcase: punch' punch.usecs=1,2,3
done
"$KDELTA" compare --result-root "$R2" --repo "$G" --format json "$a" "$b" not-a-commit >"$T/json" ||
	fail "--repo failed"
grep -q '"subject": "xfs: first; $(touch pwned)"' "$T/json" || fail "--repo: no subject of $a"
grep -q '"subject": "xfs: second, \\"quoted\\""' "$T/json" || fail "--repo: no subject of $b"
[ "$(grep -c '"subject": null' "$T/json")" = 1 ] || fail "--repo: not-a-commit has a subject"
[ -e "$T/pwned" ] && fail "--repo: a subject was run by a shell"
finish
