#!/bin/bash
# kdelta split: the listing, and the files it writes, compared exactly.
source "$TESTLIB"
cd "$T" || exit 1
cp "$TESTDATA/job/fs-disk.yaml" .

cat >want.print <<'OUT'
1BRD_1G-xfs
    testcase: fs-disk
    disk: 1BRD_1G
    fs: xfs
    runs: 5
1BRD_1G-ext4
    testcase: fs-disk
    disk: 1BRD_1G
    fs: ext4
    runs: 5
1BRD_4G-xfs
    testcase: fs-disk
    disk: 1BRD_4G
    fs: xfs
    runs: 5
1BRD_4G-ext4
    testcase: fs-disk
    disk: 1BRD_4G
    fs: ext4
    runs: 5
1BRD_1G-btrfs-noatime
    testcase: fs-disk
    disk: 1BRD_1G
    fs: btrfs
    runs: 5
    fs_mount_options: noatime
1BRD_1G-btrfs-compress=zstd
    testcase: fs-disk
    disk: 1BRD_1G
    fs: btrfs
    runs: 5
    fs_mount_options: compress=zstd
1BRD_4G-btrfs-noatime
    testcase: fs-disk
    disk: 1BRD_4G
    fs: btrfs
    runs: 5
    fs_mount_options: noatime
1BRD_4G-btrfs-compress=zstd
    testcase: fs-disk
    disk: 1BRD_4G
    fs: btrfs
    runs: 5
    fs_mount_options: compress=zstd
OUT
expect_output want.print "$KDELTA" split --print fs-disk.yaml
expect_output want.print "$KDELTA" split -p fs-disk.yaml

cat >want.paths <<'OUT'
jobs/fs-disk-1BRD_1G-xfs.yaml
jobs/fs-disk-1BRD_1G-ext4.yaml
jobs/fs-disk-1BRD_4G-xfs.yaml
jobs/fs-disk-1BRD_4G-ext4.yaml
jobs/fs-disk-1BRD_1G-btrfs-noatime.yaml
jobs/fs-disk-1BRD_1G-btrfs-compress=zstd.yaml
jobs/fs-disk-1BRD_4G-btrfs-noatime.yaml
jobs/fs-disk-1BRD_4G-btrfs-compress=zstd.yaml
OUT
expect_output want.paths "$KDELTA" split -o jobs fs-disk.yaml
[ "$(ls jobs | wc -l)" = 8 ] || fail "split -o jobs wrote $(ls jobs | wc -l) files"

cat >want.yaml <<'OUT'
testcase: fs-disk
disk: 1BRD_4G
fs: btrfs
runs: 5
fs_mount_options: compress=zstd
OUT
diff -u want.yaml "jobs/fs-disk-1BRD_4G-btrfs-compress=zstd.yaml" >&2 ||
	fail "the written job differs"

# A written job loads back as one job with the same name.
{ echo "1BRD_4G-btrfs-compress=zstd"; sed 's/^/    /' want.yaml; } >want.one
expect_output want.one "$KDELTA" split --print "jobs/fs-disk-1BRD_4G-btrfs-compress=zstd.yaml"

# Without -o, into the current directory; the paths are the file names.
mkdir here && cd here || exit 1
sed 's|^jobs/||' ../want.paths >want.here
expect_output want.here "$KDELTA" split ../fs-disk.yaml
[ "$(ls -- *.yaml | wc -l)" = 8 ] || fail "split wrote $(ls -- *.yaml | wc -l) files here"
cd .. || exit 1

# What split writes loads again as the same job, whatever its values: a
# script with lines that start with '{{' or '- ', quotes, a tab, a
# carriage return; split of a written job writes the same file.
cat >odd.yaml <<'EOF'
testcase: odd
suite: "a, {{b}}"
exec:
  name: odd
  cmd: "echo one\n{{ not a template }}\n- x: {{y}}\n\ttab 'q' \"dq\"\r\nend\n"
EOF
"$KDELTA" split -o odd1 odd.yaml >odd1.path 2>err || fail "split odd.yaml: $(cat err)"
"$KDELTA" split -o odd2 "$(cat odd1.path)" >odd2.path 2>err ||
	fail "split of what split wrote: $(cat err)"
[ "$(basename "$(cat odd1.path)")" = "$(basename "$(cat odd2.path)")" ] ||
	fail "the written job has another name: $(cat odd1.path) $(cat odd2.path)"
cmp -s "$(cat odd1.path)" "$(cat odd2.path)" || fail "split of a written job wrote another file"
"$KDELTA" split --print odd.yaml >odd.print || fail "split --print odd.yaml"
expect_output odd.print "$KDELTA" split --print "$(cat odd1.path)"

"$KDELTA" split --help >help.out || fail "split --help failed"
grep -q '^usage: kdelta split \[-o DIR\] JOB.yaml$' help.out || fail "split --help: no usage line"
finish
