#!/bin/bash
# kdelta bisect over kernels: a fixture repository whose build puts one of
# Debian's two kernels into {out} (the cloud one for its first commit, the
# rt one from commit 1 on, as make install and modules_install would leave
# them); each commit's kernel is built once and booted in VMs with the job
# inside (AIM9's creat-clo on tmpfs, about 18% slower on rt in instruction
# time, alike to 0.1% across boots), every look in rounds with good and
# bad, and the bisection finds commit 1.  Five boots of three runs: good and
# bad, then commit 1 with them.
source "$TESTLIB"
source "$SRCDIR/tests/vm/kernels.sh"
vm_kernels
command -v git >/dev/null || skip "git is not installed"

repo=$T/repo
mkdir -p "$repo"
git -C "$repo" init -q -b main
git -C "$repo" config user.email test@example.org
git -C "$repo" config user.name test
# build.sh OUT: the kernel this commit names, into OUT; a build that
# leaves nothing there (build.sh none) is a commit that does not build.
cat >"$repo/build.sh" <<'SH'
#!/bin/sh
set -e
echo "$KDELTA_COMMIT" >>"$KD_BUILDS"
case $(cat flavour) in
cloud) from=$KD_CLOUD ;;
rt) from=$KD_RT ;;
*) exit 0 ;;
esac
mkdir -p "$1/boot" "$1/lib/modules"
ln -s "$from"/boot/vmlinuz-* "$1/boot/"
ln -s "$from"/lib/modules/* "$1/lib/modules/"
SH
for i in 0 1 2; do
	if [ "$i" -lt 1 ]; then echo cloud; else echo rt; fi >"$repo/flavour"
	echo "$i" >"$repo/n"
	git -C "$repo" add -A
	git -C "$repo" commit -q -m "commit $i: $(cat "$repo/flavour")"
done
first_bad=$(git -C "$repo" rev-parse main~1)

cat >"$T/creat.yaml" <<'JOB'
testcase: aim9
fs: tmpfs
monitors: {}
aim9:
  test: creat-clo
  testtime: 100ms
JOB

export KD_CLOUD=$CLOUD KD_RT=$RT KD_BUILDS=$T/builds
"$KDELTA" bisect --repo "$repo" --good main~2 --bad main \
	--build 'sh build.sh {out}' --runs 3 --max-runs 6 \
	--vm-clock instructions --vm-runs-per-boot 3 --vm-boot-timeout 10m \
	--report "$T/mail" \
	--result-root "$T/r" --work-dir "$T/w" "$T/creat.yaml" >"$T/out" 2>"$T/err"
status=$?
[ "$status" = 0 ] || fail "kdelta bisect: exit status $status: $(tail -n 5 "$T/err")"
grep -q "^first bad commit: $first_bad (\"commit 1: rt\")\$" "$T/out" ||
	fail "bisect did not find commit 1: $(head -n 3 "$T/out")"
grep -q '^timings: instruction time of QEMU' "$T/out" ||
	fail "bisect's table does not say its timings are instruction time"
# Each commit built once, though good and bad are in every look.
[ "$(sort "$T/builds" | uniq -d)" = "" ] && [ "$(wc -l <"$T/builds")" = 3 ] ||
	fail "the builds were not one a commit: $(cat "$T/builds")"
host=vm-$(uname -n)-tcg-icount-1cpu
dir=$T/r/aim9/tmpfs-creat-clo-100ms/$host/$first_bad
[ -d "$dir" ] || fail "no runs of $first_bad under $host: $(ls "$T"/r/aim9/*)"
grep -q "^    release: $VM_ABI-rt-amd64\$" "$dir/0/job.yaml" ||
	fail "commit 1's runs did not boot the rt kernel"
# Commit 1's look: in rounds with good and bad, in one batch of boots.
grep -q "^  tag: bisect [0-9a-f]*\.\.[0-9a-f]* ${first_bad:0:12}\$" "$dir/0/job.yaml" ||
	fail "commit 1's run has not its look's tag: $(grep tag: "$dir/0/job.yaml")"
batch=$(sed -n 's/^  batch: //p' "$dir/0/job.yaml")
good=$(git -C "$repo" rev-parse main~2)
grep -l "^  batch: $batch\$" "$T"/r/aim9/*/"$host/$good"/*/job.yaml >/dev/null ||
	fail "good has no run in commit 1's batch $batch"
rounds=$(sed -n 's/^  round: //p' "$dir"/*/job.yaml | sort -u | tr '\n' ' ')
[ "$rounds" = "0 1 2 " ] || fail "commit 1's runs are in rounds $rounds, want 0 1 2"
# The mail's To reproduce: the kernels are gone with the bisection.
grep -q "# PATH: the commit's kernel, as its build leaves it in {out}" "$T/mail" ||
	fail "the mail does not say what PATH is: $(grep -A3 'To reproduce' "$T/mail")"
# its command lines joined where they continue
sed ':a;/\\$/{N;s/ *\\\n[[:space:]]*/ /;ba}' "$T/mail" >"$T/mail.joined"
grep -q -- "--kernel $first_bad=PATH .*--vm-clock instructions --vm-runs-per-boot 3" "$T/mail.joined" ||
	fail "the mail's kdelta run is not of kernels: $(grep 'kdelta run' "$T/mail.joined")"
grep -q -- '--setup' "$T/mail" && fail "the mail's kdelta run has a --setup"
# The kernels' directories went with the bisection; no QEMU is left.
ls "$T/w" | grep -q '^kdelta-run\.' && fail "a workspace was left: $(ls "$T/w")"
pgrep -f "$T/w/" >/dev/null && fail "a process of this test is still running"
[ "$(git -C "$repo" rev-parse --abbrev-ref HEAD)" = main ] ||
	fail "the repository is not back on main"

# The options' messages.
expect_error 2 "kdelta bisect: --vm-clock expects real or instructions, not 'fast'" \
	"$KDELTA" bisect --repo "$repo" --good main~2 --bad main --build 'sh build.sh {out}' \
	--vm-clock fast "$T/creat.yaml"
exit $((failures > 0))
