#!/bin/bash
# The README's main command: installs what is missing, builds kdelta, runs
# the seed-001 experiment (hole punch after fallocate vs after write, Dave
# Chinner's comparison on the xfs list, on xfs on a RAM disk), prints the
# comparison table and explains the verdict on the key metric.
#
#   ./scripts/demo.sh [RESULT_ROOT]
#
# as root (a RAM disk, mkfs.xfs, mount, drop_caches); as another user:
# su -c ./scripts/demo.sh, or sudo ./scripts/demo.sh.
#
# Results stay in RESULT_ROOT (default: a new directory under /tmp), so that
# you can compare them again with other options afterwards.
set -eu
cd "$(dirname "$0")/.."
. scripts/lib.sh

if [ "$(id -u)" -ne 0 ]; then
	echo "demo.sh: needs root (a RAM disk, mkfs.xfs, mount); as another user: su -c $0" >&2
	exit 2
fi
ensure_packages $BUILD_PACKAGES $DEMO_PACKAGES || exit 2
if [ ! -d build ]; then
	meson setup build -Dbuildtype=release >/dev/null
fi
meson compile -C build >/dev/null

root=${1:-$(mktemp -d /tmp/kdelta-demo.XXXXXX)}
kdelta=./build/kdelta

echo "== kdelta run jobs/seed-001-punch.yaml --result-root $root"
"$kdelta" run jobs/seed-001-punch.yaml --result-root "$root"
echo
echo "== kdelta compare --axis prefill --result-root $root fallocate write"
"$kdelta" compare --axis prefill --result-root "$root" fallocate write
echo
echo "== kdelta compare --axis prefill --result-root $root fallocate write --explain punch.usecs_per_punch"
"$kdelta" compare --axis prefill --result-root "$root" fallocate write \
	--explain punch.usecs_per_punch
