#!/bin/bash
# kdelta run --kernel when kernels do not boot: what is not a kernel image
# is refused; an image that does not boot, a kernel that panics and a
# guest whose init only sleeps each fail their runs with the reason and
# the console log kept beside them, while the batch goes on with the
# other kernels; Ctrl-C and kill -9 of kdelta leave no QEMU, workspace or
# temporary directory behind.
source "$TESTLIB"
source "$SRCDIR/tests/vm/kernels.sh"
vm_kernels

cat >"$T/echo.yaml" <<'JOB'
testcase: echo
runs: 1
monitors: {}
exec:
  argv: [/bin/echo, "answer: 42"]
JOB
run() {
	"$KDELTA" run "$T/echo.yaml" --result-root "$T/r" --work-dir "$T/w" \
		--vm-clock instructions --seed 3 "$@"
}
host=vm-$(uname -n)-tcg-icount-1cpu
# nothing_left: no workspace, QEMU or import of this test.
nothing_left() {
	local i
	for i in 1 2 3 4 5 6 7 8 9 10; do
		pgrep -f "$T/w/" >/dev/null || break
		sleep 1
	done
	pgrep -af "$T/w/" >&2 && fail "$1: a process of this test is still running"
	ls "$T/w" | grep -q '^kdelta-run\.' && fail "$1: a workspace was left: $(ls "$T/w")"
	find "$T/r" -name '.import.*' 2>/dev/null | grep -q . &&
		fail "$1: an import was left: $(find "$T/r" -name '.import.*')"
}
# status_of LABEL N: the completion mark of run N of LABEL.
status_of() {
	cat "$(ls -d "$T"/r/echo/*/"$host/$1/$2")/complete" 2>/dev/null
}

# What is not a kernel image at all: refused before anything boots.
head -c 100000 /dev/urandom >"$T/garbage"
expect_error 2 "kdelta run: kernel bad: $T/garbage: not a Linux kernel image (no x86 boot header)" \
	run --kernel "bad=$T/garbage"

# An image cut short boots nowhere (its decompressor fails, and the
# machine resets: no timeout needed); the cloud kernel beside it boots,
# within the default boot timeout, however busy the machine.
head -c 2000000 "$CLOUD"/boot/vmlinuz-* >"$T/cut"
run --kernel "cut=$T/cut" --kernel "cloud=$CLOUD" >"$T/out" 2>"$T/err"
status=$?
[ "$status" = 1 ] || fail "a kernel that does not boot: exit status $status, want 1"
want="failed: did not boot: "
case "$(status_of cut 0)" in
"$want"*" (console log: $T/r/echo/"*"/$host/cut/0/console.log)") ;;
*) fail "the cut image's run: $(status_of cut 0)" ;;
esac
[ -f "$(ls -d "$T"/r/echo/*/"$host"/cut/0)/console.log" ] ||
	fail "no console log beside the cut image's run"
[ "$(status_of cloud 0)" = ok ] || fail "the batch did not go on: cloud's run: $(status_of cloud 0)"
grep -q "^kdelta: \[[12]/2\] [^ ]*/cut run 1/1 (boot 1/1): $want" "$T/err" ||
	fail "no line on the cut image's failure: $(grep cut "$T/err")"
nothing_left "a kernel that does not boot"

# A kernel that panics: no init where the command line says.
run --kernel "cloud=$CLOUD" --vm-append rdinit=/nonexistent >"$T/out" 2>"$T/err"
status=$?
[ "$status" = 1 ] || fail "a kernel that panics: exit status $status, want 1"
case "$(status_of cloud 1)" in
"failed: did not boot: kernel panic: VFS: Unable to mount root fs on unknown-block(0,0) (console log: "*"/cloud/1/console.log)") ;;
*) fail "the panic's run: $(status_of cloud 1)" ;;
esac
grep -q 'Kernel panic - not syncing' "$(ls -d "$T"/r/echo/*/"$host"/cloud/1)/console.log" ||
	fail "the console log of the panic does not show it"
nothing_left "a kernel that panics"

# A guest whose init sleeps for ever: the boot's timeout ends it.
run --kernel "cloud=$CLOUD" --vm-file /bin/sleep --vm-boot-timeout 15s \
	--vm-append 'rdinit=/bin/sleep -- infinity' >"$T/out" 2>"$T/err"
status=$?
[ "$status" = 1 ] || fail "a guest that hangs: exit status $status, want 1"
case "$(status_of cloud 2)" in
"failed: did not boot: no word from kdelta's init after 15 s (--vm-boot-timeout); "*) ;;
*) fail "the hang's run: $(status_of cloud 2)" ;;
esac
nothing_left "a guest that hangs"

# Ctrl-C while a guest boots: stopped, nothing stored of that boot.
"$KDELTA" run "$T/echo.yaml" --result-root "$T/r" --work-dir "$T/w" \
	--vm-clock instructions --kernel "cloud=$CLOUD" --runs 2 >"$T/out" 2>"$T/err" &
pid=$!
for i in $(seq 100); do
	grep -q 'boot' "$T/err" 2>/dev/null && pgrep -f "$T/w/" >/dev/null && break
	sleep 0.2
done
sleep 1
kill -INT "$pid"
wait "$pid"
status=$?
[ "$status" = 130 ] || fail "Ctrl-C: exit status $status, want 130"
grep -q '^kdelta: stopped by SIGINT after cleaning up' "$T/err" ||
	fail "Ctrl-C: $(tail -n 1 "$T/err")"
nothing_left "Ctrl-C"

# kill -9 while a guest boots: QEMU dies with kdelta, the next run
# removes what is left.
"$KDELTA" run "$T/echo.yaml" --result-root "$T/r" --work-dir "$T/w" \
	--vm-clock instructions --kernel "cloud=$CLOUD" --runs 2 >"$T/out" 2>"$T/err" &
pid=$!
for i in $(seq 100); do
	pgrep -f "$T/w/" >/dev/null && break
	sleep 0.2
done
sleep 1
kill -9 "$pid"
wait "$pid" 2>/dev/null
for i in 1 2 3 4 5 6 7 8 9 10; do
	pgrep -f "$T/w/" >/dev/null || break
	sleep 1
done
pgrep -af "$T/w/" >&2 && fail "kill -9: QEMU outlived kdelta"
ls "$T/w" | grep -q '^kdelta-run\.' || fail "kill -9 left no workspace to clean: $(ls "$T/w")"
# Any run with the work directory cleans up: one on this machine here.
"$KDELTA" run "$T/echo.yaml" --commits here --result-root "$T/r2" \
	--work-dir "$T/w" >"$T/out" 2>"$T/err"
grep -q "^kdelta run: cleaned up what kdelta (pid $pid) left: $T/w/kdelta-run\." "$T/err" ||
	fail "the next run did not clean up after kill -9: $(cat "$T/err")"
nothing_left "kill -9"
exit $((failures > 0))
