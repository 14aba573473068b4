#!/bin/bash
# Bad job files: one clear line, exit status 2, in under a second.
# $1: job-print, which loads with the test schema (tests/job/test-schema.h).
source "$TESTLIB"
JOB_PRINT=$(realpath "$1")
cd "$T" || exit 1

split() {
	"$KDELTA" split --print "$@"
}

expect_error 2 "kdelta split: missing.yaml: No such file or directory" split missing.yaml

: >empty.yaml
expect_error 2 "kdelta split: empty.yaml: empty job file; see kdelta-job(5) for the format" \
	split empty.yaml

printf 'fs: [xfs, ext4\nruns: 3\n' >syntax.yaml
expect_error 2 "kdelta split: syntax.yaml:2:5: YAML syntax error: did not find expected ',' or ']' (while parsing a flow sequence at line 1, column 5)" \
	split syntax.yaml

printf 'fs: xfs\nmachine:\n\tcpus: 2\n' >tab.yaml
expect_error 2 "kdelta split: tab.yaml:3:1: tab character in indentation; indent with spaces" \
	split tab.yaml
printf 'machine:\n  cpus: 2\n  \tmemory: 4G\n' >tab2.yaml
expect_error 2 "kdelta split: tab2.yaml:3:3: tab character in indentation; indent with spaces" \
	split tab2.yaml

printf 'fs: xfs\nruns: many\n' >type.yaml
expect_error 2 "kdelta split: type.yaml:2:7: runs: expected an integer, got 'many'" \
	split type.yaml

printf 'disk: 1BRD_4G\nfss: xfs\n' >typo.yaml
expect_error 2 "kdelta split: typo.yaml:2:1: unknown parameter 'fss'; did you mean 'fs'?" \
	split typo.yaml
printf 'colour: blue\n' >unknown.yaml
expect_error 2 "kdelta split: unknown.yaml:1:1: unknown parameter 'colour'; see kdelta-job(5)" \
	split unknown.yaml

printf 'fs: xfs\npunch:\n  file_size: -1G\n' >negative.yaml
expect_error 2 "kdelta: negative.yaml:3:14: punch.file_size: size '-1G' is negative" \
	"$JOB_PRINT" negative.yaml
printf 'punch: {file_size: [1G, 99999999999T]}\n' >overflow.yaml
expect_error 2 "kdelta: overflow.yaml:1:25: punch.file_size: size '99999999999T' is too large (at most 2^64 - 1 bytes)" \
	"$JOB_PRINT" overflow.yaml

# Three lists of 100 values: 1,000,000 jobs.
for key in suite category fs_mount_options; do
	printf '%s: [%s]\n' "$key" "$(seq -s, -f "v%g" 100)"
done >cap.yaml
expect_error 2 "kdelta split: cap.yaml: expands to 1000000 jobs, more than the limit of 10000; use fewer or shorter lists" \
	split cap.yaml

# "Billion laughs": 10^9 strings if aliases were expanded.
{
	echo 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'
	prev=a
	for n in b c d e f g h i; do
		echo "$n: &$n [*$prev,*$prev,*$prev,*$prev,*$prev,*$prev,*$prev,*$prev,*$prev]"
		prev=$n
	done
} >bomb.yaml
expect_error 2 "kdelta split: bomb.yaml:1:4: YAML anchors (&name) are not allowed in job files; write the values out" \
	split bomb.yaml

printf '\177ELF\002\001\001\000\000\000\000\000\000\000\000\000\003\000>\000' >garbage.bin
expect_error 2 "kdelta split: garbage.bin:1:1: binary data (byte 0x7f), not a YAML job file" \
	split garbage.bin

# A NUL byte too (strchr() would find one in "\t\n\r").
printf 'fs: xfs\nsuite: a\000b\naim7: {test: disk_rr, load: {{ 2 }}}\n' >nul.yaml
expect_error 2 "kdelta split: nul.yaml:2:9: binary data (byte 0x00), not a YAML job file" \
	split nul.yaml

printf 'fs: xfs\nsuite: caf\351\n' >latin1.yaml
expect_error 2 "kdelta split: latin1.yaml:2:11: invalid UTF-8 (byte 0xe9); job files must be UTF-8 text" \
	split latin1.yaml

printf 'fs: [xfs, ext4]\ndisk: 1BRD_1G\naim7:\n  test: disk_rr\n  load: {{\n    fs == "xfs" ? 3 :\n      [1, 2].max\n  }}\n' >ruby.yaml
expect_error 2 "kdelta split: ruby.yaml:7:7: '{{ }}': Ruby's '[' is not built into kdelta's '{{ }}' expressions (EXPRESSIONS in kdelta-job(5))" \
	split ruby.yaml

printf 'aim7: {test: a}\npunch: {}\n' >two.yaml
expect_error 2 "kdelta: two.yaml:2:1: second workload section 'punch' after 'aim7'; a job runs one workload" \
	"$JOB_PRINT" two.yaml

# An exec workload named like a monitor would overwrite its metrics.
printf 'exec:\n  cmd: echo\n  name: [mine, time]\n' >monitor-name.yaml
expect_error 2 "kdelta split: monitor-name.yaml:3:16: exec.name: 'time' is the name of a monitor: its results would mix with that monitor's metrics; choose another name" \
	split monitor-name.yaml

mkdir dir.yaml
expect_error 2 "kdelta split: dir.yaml: is a directory, not a job file" split dir.yaml

# Constraints between parameters, checked on every job as the file loads:
# the position of the value the message is about (of the section when
# that value is a default), status 2, by split and run alike.
constraint() {
	printf "$2" >"$1.yaml"
	expect_error 2 "kdelta split: $1.yaml:$3" split "$1.yaml"
}
constraint fs-no-disk 'fs: xfs\n' \
	"1:5: fs: xfs needs a disk: add disk: 1BRD_<size> (a RAM disk), e.g. 1BRD_4G"
constraint fs-list-no-disk 'fs: [tmpfs, btrfs]\n' \
	"1:13: fs: btrfs needs a disk: add disk: 1BRD_<size> (a RAM disk), e.g. 1BRD_4G"
constraint disk-no-fs 'runs: 1\ndisk: 1BRD_4G\n' \
	"2:7: disk: 1BRD_4G needs a file system: add fs: xfs, ext4, btrfs or tmpfs"
constraint options-no-fs 'fs_mount_options: noatime\n' \
	"1:19: fs_mount_options: 'noatime' needs a file system: add fs: xfs, ext4, btrfs or tmpfs"
constraint bind 'fs: tmpfs\nfs_mount_options: noatime,bind\n' \
	"2:19: fs_mount_options: 'bind' is an option of mount(8), not of the file system; remove it"
constraint bind-doc 'fs: tmpfs\n---\nfs_mount_options: [noatime, x-mine]\n' \
	"3:29: fs_mount_options: 'x-mine' is an option of mount(8), not of the file system; remove it"
constraint xfs-small 'fs: xfs\ndisk: 1BRD_100M\n' \
	"2:7: disk: 1BRD_100M is too small for xfs: mkfs.xfs needs at least 300M; use 1BRD_300M or more"
constraint md-small 'fs: [ext4, xfs]\ndisk: 4BRD_50M\nmd: RAID5\n' \
	"2:7: disk: 4BRD_50M with md: RAID5 makes a device of 150M, too small for xfs: mkfs.xfs needs at least 300M; use 4BRD_100M or more"
constraint raid10-small 'fs: btrfs\ndisk: 4BRD_50M\nmd: RAID10\n' \
	"2:7: disk: 4BRD_50M with md: RAID10 makes a device of 100M, too small for btrfs: mkfs.btrfs needs at least 109M; use 4BRD_55M or more"
printf 'fs: xfs\ndisk: 4BRD_100M\nmd: RAID5\n' >md-fits.yaml
split md-fits.yaml >/dev/null 2>"$T/err" || fail "4BRD_100M RAID5 xfs refused: $(cat "$T/err")"
constraint stride 'punch:\n  punch_size: 128k\n  stride: 64k\n' \
	"3:11: punch: punch_size 128k is larger than stride 64k: the holes would overlap"
constraint stride-default-size 'punch:\n  stride: 2k\n' \
	"2:11: punch: punch_size 4k is larger than stride 2k: the holes would overlap"
constraint stride-default 'punch:\n  punch_size: 128k\n' \
	"2:3: punch: punch_size 128k is larger than stride 64k: the holes would overlap"
constraint punches 'punch:\n  file_size: 1M\n  nr_punches: [16, 17]\n' \
	"3:20: punch: 17 holes every 64k do not fit in file_size 1M (at most 16); lower nr_punches or stride, or raise file_size"
constraint no-hole 'punch: {file_size: 4k}\n' \
	"1:8: punch: stride 64k is larger than file_size 4k: no hole fits"
constraint no-command 'exec:\n  name: x\n' \
	"2:3: exec: no command: give cmd (a shell command line) or argv (a list of arguments)"
constraint two-commands 'exec: {cmd: "true", argv: [a]}\n' \
	"1:27: exec: give either cmd (a shell command line) or argv (a list), not both"
constraint empty-argv 'exec: {argv: []}\n' \
	"1:14: exec: argv must be a non-empty list of arguments"
# run refuses them before anything runs: no store, no work directory.
expect_error 2 "kdelta run: stride.yaml:3:11: punch: punch_size 128k is larger than stride 64k: the holes would overlap" \
	"$KDELTA" run stride.yaml --result-root "$T/r" --work-dir "$T/w"
[ -e "$T/r" ] || [ -e "$T/w" ] && fail "run made $T/r or $T/w"

# The command line of split.
expect_error 2 "kdelta split: no job file given; see 'kdelta split --help'" \
	"$KDELTA" split
expect_error 2 "kdelta split: unknown option '--frob'; see 'kdelta split --help'" \
	"$KDELTA" split --frob x.yaml
expect_error 2 "kdelta split: one job file at a time; got 'a.yaml' and 'b.yaml'" \
	"$KDELTA" split a.yaml b.yaml
expect_error 2 "kdelta split: option '-o' needs a value; see 'kdelta split --help'" "$KDELTA" split x.yaml -o
expect_error 2 "kdelta split: --print writes nothing; drop -o" \
	"$KDELTA" split --print -o out x.yaml
expect_error 2 "kdelta split: option '--print' takes no value; see 'kdelta split --help'" \
	"$KDELTA" split --print=yes x.yaml
expect_error 2 "kdelta split: unknown option '-z'; see 'kdelta split --help'" \
	"$KDELTA" split -z x.yaml
printf 'testcase: t\npunch: {file_size: 1M}\n' >"$T/ok.yaml"
"$KDELTA" split --output="$T/out-eq" -- "$T/ok.yaml" >/dev/null 2>"$T/err" &&
	[ -n "$(ls "$T/out-eq")" ] || fail "split --output=DIR -- FILE: $(cat "$T/err")"
finish
