#!/bin/bash
# kdelta bisect --kernel-config on a stand-in kernel tree: its Makefile
# answers the targets kdelta's build command uses (tinyconfig, a fragment,
# olddefconfig, the build, kernelrelease, modules_install) and logs them;
# its "build" copies Debian's cloud kernel for commit 0 and the rt one from
# commit 1 on.  Two boots of three runs.
#
#  1. good commit 0, bad commit 1: they differ, and commit 1 is named;
#     .config is written from the spec once (tinyconfig and the fragment,
#     kdelta's own fragment merged), olddefconfig and the build for each
#     commit; ccache is the compiler where it is installed; each commit's
#     {out} is kept in the cache with image, configuration and modules,
#     and the mail's To reproduce names them;
#  2. commit 1 again is taken from the cache, not built again; commit 2
#     does not build: the bisection cannot start (bad does not build, no
#     boot), the message names the log, which is kept, and the commit is
#     not marked built.
source "$TESTLIB"
source "$SRCDIR/tests/vm/kernels.sh"
vm_kernels
command -v git >/dev/null || skip "git is not installed"
command -v flock >/dev/null || skip "flock (util-linux) is not installed"
command -v make >/dev/null || skip "make is not installed"

repo=$T/linux
mkdir -p "$repo/scripts/kconfig"
git -C "$repo" init -q -b main
git -C "$repo" config user.email test@example.org
git -C "$repo" config user.name test
printf '%s\n' \
	"# A stand-in for Linux's: the targets kdelta's build uses, logged in \$(O)." \
	'O ?= .' \
	'log = echo $@ $(CC) >>$(O)/targets' \
	'all:' \
	'	@$(log)' \
	'	@test ! -e broken' \
	'	@mkdir -p $(O)/arch/x86/boot' \
	'	@cp $$(cat flavour)/boot/vmlinuz-* $(O)/arch/x86/boot/bzImage' \
	'tinyconfig:' \
	'	@$(log)' \
	"	@echo '# CONFIG_MODULES is not set' >\$(O)/.config" \
	'kvm_guest.config:' \
	'	@$(log)' \
	'	@echo CONFIG_KVM_GUEST=y >>$(O)/.config' \
	'olddefconfig:' \
	'	@$(log)' \
	"	@sed -i 's/^# CONFIG_MODULES is not set\$\$/CONFIG_MODULES=y/' \$(O)/.config" \
	'kernelrelease:' \
	'	@basename $$(ls -d $$(cat flavour)/lib/modules/*)' \
	'modules_install:' \
	'	@$(log)' \
	'	@mkdir -p $(INSTALL_MOD_PATH)/lib/modules' \
	'	@cp -a $$(cat flavour)/lib/modules/* $(INSTALL_MOD_PATH)/lib/modules/' \
	'.PHONY: all tinyconfig kvm_guest.config olddefconfig kernelrelease modules_install' \
	>"$repo/Makefile"
printf '%s\n' '#!/bin/sh' '# merge_config.sh -m -O DIR BASE FRAGMENT: the fragment appended.' \
	'echo "merge $(basename "$5")" >>"$3/targets"' 'cat "$5" >>"$4"' \
	>"$repo/scripts/kconfig/merge_config.sh"
chmod +x "$repo/scripts/kconfig/merge_config.sh"
mkdir -p "$repo/kernel/configs"
echo CONFIG_KVM_GUEST=y >"$repo/kernel/configs/kvm_guest.config"
for i in 0 1; do
	if [ "$i" = 0 ]; then echo "$CLOUD"; else echo "$RT"; fi >"$repo/flavour"
	git -C "$repo" add -A
	git -C "$repo" commit -q -m "commit $i: $([ "$i" = 0 ] && echo cloud || echo rt)"
done
good=$(git -C "$repo" rev-parse main~1)
bad=$(git -C "$repo" rev-parse main)

printf '%s\n' 'testcase: aim9' 'fs: tmpfs' 'monitors: {}' 'aim9:' \
	'  test: creat-clo' '  testtime: 100ms' >"$T/creat.yaml"

bisect() {
	"$KDELTA" bisect --repo "$repo" --good "$1" --bad "$2" \
		--kernel-config tinyconfig+kvm_guest.config --kernel-cache "$T/cache" \
		--runs 3 --max-runs 6 --vm-clock instructions --vm-runs-per-boot 3 \
		--vm-boot-timeout 10m \
		--report "$T/mail$3" --result-root "$T/r$3" --work-dir "$T/w" \
		"$T/creat.yaml" >"$T/out$3" 2>"$T/err$3"
}
bisect "$good" "$bad" 1
status=$?
[ "$status" = 0 ] || fail "kdelta bisect: exit status $status: $(tail -n 5 "$T/err1")"
grep -q "^first bad commit: $bad (\"commit 1: rt\")\$" "$T/out1" ||
	fail "bisect did not find commit 1: $(head -n 3 "$T/out1")"
tree=$(ls -d "$T"/cache/linux-*)
o=$tree/build
# .config from the spec once; olddefconfig and the build per commit.
[ "$(grep -c '^tinyconfig' "$o/targets")" = 1 ] ||
	fail "tinyconfig ran $(grep -c '^tinyconfig' "$o/targets") times"
[ "$(grep -c '^kvm_guest.config' "$o/targets")" = 1 ] || fail "the fragment was not merged once"
grep -q '^merge kdelta-guest.config$' "$o/targets" || fail "kdelta's guest fragment was not merged"
grep -q '^CONFIG_VIRTIO_CONSOLE=y$' "$o/.config" || fail "the guest's needs are not in .config"
[ "$(grep -c '^all' "$o/targets")" = 2 ] || fail "not one build a commit: $(cat "$o/targets")"
[ "$(grep -c ': kernel .* built in ' "$T/err1")" = 2 ] ||
	fail "the builds are not said: $(grep 'built' "$T/err1")"
if command -v ccache >/dev/null; then
	grep -q '^all ccache gcc$' "$o/targets" ||
		fail "the build did not use ccache: $(grep '^all' "$o/targets" | head -n 1)"
fi
bad_out=$(ls -d "$tree"/config-*/"$bad")
ls "$bad_out"/boot/vmlinuz-"$VM_ABI"-rt-amd64 >/dev/null || fail "no image in $bad_out/boot"
[ -e "$bad_out/boot/config-$VM_ABI-rt-amd64" ] || fail "no .config in $bad_out/boot"
[ -d "$bad_out/lib/modules/$VM_ABI-rt-amd64" ] || fail "no modules in $bad_out/lib/modules"
[ -e "$tree"/config-*/"$bad.log" ] || fail "the build's log is not kept"
grep -q -- "--kernel $bad=$bad_out" "$T/mail1" ||
	fail "the mail's To reproduce does not name the kept kernel: $(grep -A4 'kdelta run' "$T/mail1")"
host=vm-$(uname -n)-tcg-icount-1cpu
grep -q "^    release: $VM_ABI-rt-amd64\$" "$T/r1/aim9/tmpfs-creat-clo-100ms/$host/$bad/0/job.yaml" ||
	fail "commit 1's runs did not boot its kernel"

# A commit that does not build: its log kept and named; commit 1 from the cache.
touch "$repo/broken"
git -C "$repo" add broken
git -C "$repo" commit -q -m "commit 2: broken"
broken=$(git -C "$repo" rev-parse main)
bisect "$bad" "$broken" 2
status=$?
[ "$status" = 1 ] || fail "a bad commit that does not build: exit status $status, want 1"
grep -q "^kdelta bisect: bad commit ${broken:0:12}: the build failed: exited with status [0-9]*: .*(build log: $tree/config-[0-9a-f]*/$broken.log)\$" "$T/err2" ||
	fail "the broken build is not said with its log: $(tail -n 3 "$T/err2")"
[ -s "$tree"/config-*/"$broken.log" ] || fail "the broken build's log is not kept"
[ -e "$tree"/config-*/"$broken/.kdelta-kernel" ] && fail "the broken build is marked built"
grep -q "^bisect: ${bad:0:12}: its kernel, built before: $bad_out\$" "$T/err2" ||
	fail "commit 1's kernel, built before, was not taken from the cache: $(head -n 3 "$T/err2")"
[ "$(grep -c '^all' "$o/targets")" = 3 ] ||
	fail "$(grep -c '^all' "$o/targets") builds, want 3: $(cat "$o/targets")"

# The options' messages.
expect_error 2 "kdelta bisect: --build and --kernel-config exclude each other: with --kernel-config, kdelta builds the kernels" \
	"$KDELTA" bisect --repo "$repo" --good "$good" --bad "$bad" --build make \
	--kernel-config tinyconfig "$T/creat.yaml"
expect_error 2 "kdelta bisect: --kernel-cache goes with --kernel-config" \
	"$KDELTA" bisect --repo "$repo" --good "$good" --bad "$bad" --build make \
	--kernel-cache "$T/cache" "$T/creat.yaml"
expect_error 2 "kdelta bisect: --kernel-config: 'mystery' is neither a file nor a make target that writes .config of the tree (such as tinyconfig or defconfig)" \
	"$KDELTA" bisect --repo "$repo" --good "$good" --bad "$bad" \
	--kernel-config mystery "$T/creat.yaml"
expect_error 2 "kdelta bisect: --kernel-config: an empty part; expected BASE[+FRAGMENT...] such as tinyconfig+kvm_guest.config" \
	"$KDELTA" bisect --repo "$repo" --good "$good" --bad "$bad" \
	--kernel-config tinyconfig+ "$T/creat.yaml"
expect_error 2 "kdelta bisect: --build is required (or --kernel-config); see 'kdelta bisect --help'" \
	"$KDELTA" bisect --repo "$repo" --good "$good" --bad "$bad" "$T/creat.yaml"
pgrep -f "$T/w/" >/dev/null && fail "a process of this test is still running"
exit $((failures > 0))
