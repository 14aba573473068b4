#!/bin/bash
# A real kernel bisection, end to end (issue 20's bar), run by hand: it
# builds Linux a dozen times and boots it under QEMU, so it is no test of
# the suite.
#
#   bench/kernel-bisect.sh [-B BUILD_DIR] [DIR]
#
# In DIR (default /var/tmp/kdelta-kernel-bench; kept, so that a second run
# reuses the tree, and reuses the kernels unless DIR/cache is removed: a
# run then builds nothing, and its time is the boots'):
#
#  1. linux/: Debian's linux-source-6.1 (apt-get install linux-source-6.1)
#     unpacked and committed as it is, then 8 commits on top, each changing
#     one file; the 5th brings back the tmpfs regression of seed 002
#     (LKP: "-14.5% aim9.creat-clo.ops_per_sec", v4.2 commit afa2db2fb6f1):
#     shmem_setattr() truncates on every O_TRUNC again, also of a file
#     that has no pages, which Hugh Dickins' fix had skipped;
#  2. kdelta bisect from the tarball's commit (good) to the last (bad), the
#     kernels built by kdelta itself (--kernel-config
#     tinyconfig+kvm_guest.config, out of tree, ccache, each commit once)
#     and booted under QEMU with the instruction clock, AIM9's creat-clo
#     on tmpfs inside, every look in rounds with good and bad (3 runs a
#     boot);
#  3. checks that it names the 5th commit, that its mail shows the change
#     with its interval, and runs the mail's "To reproduce" lines (kdelta
#     run --kernel, kdelta compare) into a store of their own;
#  4. prints the wall time, the builds (each one's time), boots and runs.
#
# Exit status 0 when all of that held, 1 when something did not, 2 when it
# cannot run.  The build runs at the priority kdelta runs at: on a shared
# machine, run this under nice -n 19.
set -u
cd "$(dirname "$0")/.." || exit 2
build=build
while getopts B: opt; do
	case $opt in
	B) build=$OPTARG ;;
	*) echo "usage: bench/kernel-bisect.sh [-B BUILD_DIR] [DIR]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
kdelta=$(realpath "$build")/kdelta
W=${1:-/var/tmp/kdelta-kernel-bench}
tarball=/usr/src/linux-source-6.1.tar.xz
[ -x "$kdelta" ] || { echo "kernel-bisect: $kdelta not built; run: meson compile -C $build" >&2; exit 2; }
[ -r "$tarball" ] || { echo "kernel-bisect: no $tarball; apt-get install linux-source-6.1" >&2; exit 2; }
for p in git make gcc flex bison bc qemu-system-x86_64 python3; do
	command -v "$p" >/dev/null || { echo "kernel-bisect: $p is not installed" >&2; exit 2; }
done
mkdir -p "$W" || exit 2
W=$(realpath "$W")
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
say() { echo "kernel-bisect: $*"; }

# commit FILE SUBJECT PYTHON: edits FILE with the Python statement (s is
# its text), which must change it, and commits it.
commit() {
	python3 - "$1" "$3" <<'PY' || exit 2
import sys
path, code = sys.argv[1], sys.argv[2]
s = open(path).read()
before = s
exec(code)
if s == before:
    sys.exit("kernel-bisect: the edit of %s changed nothing" % path)
open(path, "w").write(s)
PY
	git -C "$tree" commit -q -a -m "$2" || exit 2
}

make_tree() {
	say "unpacking $tarball into $tree"
	rm -rf "$tree.new" && mkdir -p "$tree.new" || exit 2
	tar -xJf "$tarball" -C "$tree.new" --strip-components=1 || exit 2
	mv "$tree.new" "$tree" || exit 2
	git -C "$tree" init -q -b master
	git -C "$tree" config user.name "kdelta bench"
	git -C "$tree" config user.email bench@kdelta.invalid
	# Debian's .gitignore ignores the top level; the tarball as it is.
	git -C "$tree" add -A -f && git -C "$tree" commit -q -m "Debian linux-source-6.1 as unpacked" || exit 2
	git -C "$tree" tag base
	commit "$tree/mm/shmem.c" "shmem: say why shmem_getattr() may skip the lock" \
		's = s.replace("static int shmem_getattr(", "/* The lock is taken only when there are pages to count. */\nstatic int shmem_getattr(", 1)'
	commit "$tree/fs/open.c" "open: a comment on do_truncate()'s callers" \
		's = s.replace("int do_truncate(", "/* Called by truncate(2), ftruncate(2) and O_TRUNC opens. */\nint do_truncate(", 1)'
	commit "$tree/Documentation/filesystems/tmpfs.rst" "Documentation: tmpfs: mention creat" \
		's = s.replace("Tmpfs is a file system", "Tmpfs (creat, write, unlink: all in memory) is a file system", 1)'
	commit "$tree/lib/string.c" "lib/string: a comment on strscpy()" \
		's = s.replace("ssize_t strscpy(char *dest", "/* See the kernel-doc above. */\nssize_t strscpy(char *dest", 1)'
	commit "$tree/mm/shmem.c" "shmem: truncate whenever the size does not grow" \
		's = s.replace("\t\t\tif (info->alloced)\n\t\t\t\tshmem_truncate_range(inode,\n\t\t\t\t\t\t\tnewsize, (loff_t)-1);", "\t\t\tshmem_truncate_range(inode, newsize, (loff_t)-1);", 1)'
	commit "$tree/fs/namei.c" "namei: a comment on may_create_in_sticky()" \
		's = s.replace("static int may_create_in_sticky(", "/* Protected regular files and FIFOs: see Documentation/admin-guide/sysctl/fs.rst. */\nstatic int may_create_in_sticky(", 1)'
	commit "$tree/kernel/fork.c" "fork: a comment on copy_process()" \
		's = s.replace("static __latent_entropy struct task_struct *copy_process(", "/* The heart of fork(2), clone(2) and clone3(2). */\nstatic __latent_entropy struct task_struct *copy_process(", 1)'
	commit "$tree/MAINTAINERS" "MAINTAINERS: a note for tmpfs" \
		's = s.replace("TMPFS (SHMEM FILESYSTEM)\n", "TMPFS (SHMEM FILESYSTEM)\nC:\tirc://irc.oftc.net/mm\n", 1)'
}

tree=$W/linux
[ -d "$tree/.git" ] || make_tree
bad=$(git -C "$tree" rev-parse master) || exit 2
first_bad=$(git -C "$tree" rev-parse master~3) || exit 2
[ "$(git -C "$tree" log -1 --format=%s "$first_bad")" = "shmem: truncate whenever the size does not grow" ] ||
	{ echo "kernel-bisect: $tree is not the tree this script makes; remove it" >&2; exit 2; }
git -C "$tree" checkout -q master || exit 2

cat >"$W/creat.yaml" <<'JOB'
testcase: aim9
fs: tmpfs
monitors: {}
aim9:
  test: creat-clo
  testtime: 1
JOB
rm -rf "$W/results" "$W/work" "$W/repro"
# The instruction clock counts the guest's instructions: other batches on
# this machine do not disturb it, so the bench does not wait for the
# machine's run lock (a private one); on a shared machine the load can make
# a TCG boot take minutes, hence the long --vm-boot-timeout.
export KDELTA_RUN_LOCK=$W/run.lock
say "bisecting base..master ($(git -C "$tree" rev-list --count base..master) commits); load: $(cut -d' ' -f1-3 /proc/loadavg)"
start=$(date +%s)
"$kdelta" bisect --repo "$tree" --good base --bad master \
	--kernel-config tinyconfig+kvm_guest.config --kernel-cache "$W/cache" \
	--vm-clock instructions --vm-runs-per-boot 3 --vm-boot-timeout 600 \
	--runs 3 --max-runs 6 \
	--result-root "$W/results" --work-dir "$W/work" --report "$W/mail.eml" \
	"$W/creat.yaml" >"$W/bisect.out" 2>"$W/bisect.err"
status=$?
end=$(date +%s)
say "kdelta bisect: exit status $status in $((end - start)) s; load: $(cut -d' ' -f1-3 /proc/loadavg)"
cat "$W/bisect.out"
[ "$status" = 0 ] || fail "kdelta bisect: exit status $status: $(tail -n 5 "$W/bisect.err")"
grep -q "^first bad commit: $first_bad " "$W/bisect.out" ||
	fail "the bisection did not name $first_bad"

# The builds and their times, the boots and the runs.
builds=$(grep -c ': kernel .* built in ' "$W/bisect.err")
cached=$(grep -c ': its kernel, built before: ' "$W/bisect.err")
say "builds: $builds ($cached more taken from the cache)"
grep ': kernel .* built in ' "$W/bisect.err" | sed 's/^/  /'
runs=$(find "$W/results" -name job.yaml -path '*/[0-9]*/job.yaml' | wc -l)
boots=$(grep -h '^    boot_id: ' "$W"/results/aim9/*/*/*/*/job.yaml 2>/dev/null | sort -u | wc -l)
grep -h '→' "$W/bisect.err" | sed 's/^/  /'
say "runs: $runs; boots: $boots"

# The mail: the change with its interval, and its "To reproduce" lines.
if [ -s "$W/mail.eml" ]; then
	grep -E 'aim9\.creat-clo\.ops_per_sec' "$W/mail.eml" | head -n 3
	grep -Eq -- '-[0-9.]+% regression of aim9\.creat-clo\.ops_per_sec|aim9\.creat-clo\.ops_per_sec.*-[0-9.]+%' "$W/mail.eml" ||
		fail "the mail does not show creat-clo's change"
	grep -Eq '95% CI|interval' "$W/mail.eml" || fail "the mail does not give the change's interval"
	mkdir -p "$W/repro"
	python3 - "$W/mail.eml" "$W/repro" <<'PY' || fail "cannot take the mail apart"
import email, sys
msg = email.message_from_binary_file(open(sys.argv[1], "rb"))
cmds, body = [], None
for part in msg.walk():
    name = part.get_filename()
    if name:
        open("%s/%s" % (sys.argv[2], name), "wb").write(part.get_payload(decode=True))
    elif part.get_content_type() == "text/plain" and body is None:
        body = part.get_payload(decode=True).decode(part.get_content_charset() or "utf-8")
lines = body.split("To reproduce:", 1)[1].split("\n")
cur = ""
for line in lines[1:]:
    if not line.startswith("\t"):
        if line.strip():
            break
        continue
    text = line.strip()
    if text.startswith("#"):
        continue
    cur += (" " if cur else "") + text.rstrip("\\").strip()
    if not text.endswith("\\"):
        cmds.append(cur)
        cur = ""
open("%s/commands" % sys.argv[2], "w").write("\n".join(cmds) + "\n")
PY
	say "To reproduce, as the mail says:"
	sed 's/^/  /' "$W/repro/commands"
	while read -r cmd; do
		case $cmd in
		"kdelta "*) ;;
		*) fail "not a kdelta command: $cmd"; continue ;;
		esac
		extra=
		case $cmd in "kdelta run "*) extra=" --work-dir \"$W/repro/work\"" ;; esac
		(cd "$W/repro" && export KDELTA_RESULT_ROOT=$W/repro/results &&
			eval "\"$kdelta\" ${cmd#kdelta }$extra" \
			>>"$W/repro/out" 2>>"$W/repro/err") ||
			fail "$cmd: exit status $?: $(tail -n 3 "$W/repro/err")"
	done <"$W/repro/commands"
	grep -E 'aim9\.creat-clo\.ops_per_sec' "$W/repro/out" | head -n 2
	grep -Eq 'aim9\.creat-clo\.ops_per_sec' "$W/repro/out" ||
		fail "the reproduction's comparison has no creat-clo row"
else
	fail "no mail in $W/mail.eml"
fi
say "wall time $((end - start)) s for the bisection; $failures failure(s)"
exit $((failures > 0))
