# shellcheck shell=bash
# Shared by scripts/test.sh and scripts/demo.sh: the Debian packages kdelta
# needs, and installing the missing ones.

# To build.
BUILD_PACKAGES="gcc pkg-config meson ninja-build libyaml-dev libgsl-dev zlib1g-dev libdeflate-dev libjansson-dev libsqlite3-dev"
# To run the demo: seed 001's job makes an xfs file system.
DEMO_PACKAGES="xfsprogs"
# To run the whole test suite (file systems, git for bisect, python3 for the
# mail tests; msmtp and python3-aiosmtpd to deliver the report mail, chromium
# to render the plots, linux-perf for the perf-stat and perf-profile
# monitors, slurm-wlm and munge for the robot's private Slurm cluster;
# qemu-system-x86 to boot Debian's kernels for kdelta run --kernel, which
# tests/vm/kernels.sh fetches with apt-get download; mdadm for md RAID,
# in those guests or on a host whose kernel has md).
TEST_PACKAGES="python3 git e2fsprogs xfsprogs btrfs-progs util-linux msmtp python3-aiosmtpd chromium linux-perf slurm-wlm munge qemu-system-x86 mdadm"
# To fuzz (scripts/test.sh runs each libFuzzer target for a while): clang
# and its libFuzzer.
FUZZ_PACKAGES="clang libclang-rt-dev"

# ensure_packages PKG...: installs the missing ones as root; otherwise prints
# the exact apt-get line and fails.
ensure_packages() {
	local missing=() pkg
	for pkg in "$@"; do
		if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
			missing+=("$pkg")
		fi
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	if [ "$(id -u)" -ne 0 ]; then
		echo "kdelta: missing packages; as root, run:" >&2
		echo "  apt-get install -y ${missing[*]}" >&2
		return 1
	fi
	echo "installing: ${missing[*]}" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >&2 || return 1
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2 || return 1
}

# Root's tools (mkfs.*, in /usr/sbin and /sbin) are found also when root's
# shell came from "su" without "-", which keeps the user's PATH.
if [ "$(id -u)" -eq 0 ]; then
	case ":$PATH:" in
	*:/usr/sbin:*) ;;
	*) PATH=$PATH:/usr/sbin:/sbin ;;
	esac
	export PATH
fi
