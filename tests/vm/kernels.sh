# shellcheck shell=bash
# The kernels of the VM tests: Debian's own 6.1 kernels in two flavours,
# cloud and rt (PREEMPT_RT), of one release, so that the same job measures
# a real difference between two real kernels.  apt-get download fetches
# them once into the cache ($KDELTA_TEST_CACHE, default
# /var/cache/kdelta-tests), where they are kept extracted; later runs take
# them from there.  The release is $KDELTA_TEST_KERNEL_ABI (default
# 6.1.0-50), else the newest release the apt lists have in both flavours.
# Without qemu-system-x86_64, or when the mirror is out of reach, the test
# is skipped, saying why.
#
#   vm_kernels            sets CLOUD and RT to the two extracted packages

vm_kernel_cache=${KDELTA_TEST_CACHE:-/var/cache/kdelta-tests}/kernels

# vm_fetch_flavour ABI FLAVOUR: the extracted package's directory, on stdout.
vm_fetch_flavour() {
	local abi=$1 flavour=$2 pkg dir deb
	pkg=linux-image-$abi-$flavour-amd64-unsigned
	dir=$vm_kernel_cache/$abi-$flavour
	if [ ! -e "$dir/.complete" ]; then
		rm -rf "$dir" "$dir.tmp" "$vm_kernel_cache/$pkg"_*.deb
		(cd "$vm_kernel_cache" && apt-get download -q "$pkg" >/dev/null 2>&1) ||
			return 1
		deb=$(ls "$vm_kernel_cache/$pkg"_*.deb 2>/dev/null | head -n 1)
		[ -n "$deb" ] && dpkg-deb -x "$deb" "$dir.tmp" || return 1
		rm -f "$deb"
		touch "$dir.tmp/.complete"
		mv "$dir.tmp" "$dir"
	fi
	echo "$dir"
}

# The newest 6.1 release that the apt lists have in both flavours.
vm_newest_abi() {
	apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-rt-amd64-unsigned$' 2>/dev/null |
		sed -n 's/^linux-image-\(6\.1\.0-[0-9]*\)-rt-amd64-unsigned .*/\1/p' |
		sort -t- -k2,2n | tail -n 1
}

vm_kernels() {
	local abi=${KDELTA_TEST_KERNEL_ABI:-6.1.0-50} newest
	command -v qemu-system-x86_64 >/dev/null ||
		skip "qemu-system-x86_64 is not installed (apt-get install qemu-system-x86)"
	command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null ||
		skip "no apt-get and dpkg-deb to fetch Debian's kernels with"
	mkdir -p "$vm_kernel_cache" 2>/dev/null ||
		skip "cannot create the kernel cache $vm_kernel_cache (KDELTA_TEST_CACHE)"
	# One test fetches, the others wait for it.
	exec {vm_lock_fd}>"$vm_kernel_cache/.lock"
	flock "$vm_lock_fd"
	if ! CLOUD=$(vm_fetch_flavour "$abi" cloud) ||
	   ! RT=$(vm_fetch_flavour "$abi" rt); then
		newest=$(vm_newest_abi)
		if [ -n "$newest" ] && [ "$newest" != "$abi" ]; then
			abi=$newest
			CLOUD=$(vm_fetch_flavour "$abi" cloud) &&
				RT=$(vm_fetch_flavour "$abi" rt) || CLOUD=
		else
			CLOUD=
		fi
	fi
	flock -u "$vm_lock_fd"
	[ -n "$CLOUD" ] && [ -n "$RT" ] ||
		skip "cannot fetch linux-image-$abi-{cloud,rt}-amd64-unsigned with apt-get download (is Debian's mirror out of reach?)"
	VM_ABI=$abi
	export CLOUD RT VM_ABI
}
