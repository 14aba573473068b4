#!/bin/bash
# Job files that would take gigabytes or block: each is refused with one
# line and status 2, in bounded memory -- a 256 MiB address space, which
# the whole expansion of any of them would exceed (ASan and TSan builds
# reserve terabytes of address space and run without the limit).
source "$TESTLIB"
cd "$T" || exit 1

limited() {
	if address_space_sanitizer; then
		"$@"
	else
		(ulimit -v 262144 && exec "$@")
	fi
}
split() { limited "$KDELTA" split --print "$@"; }
expanded='expands to more than 64 MiB of jobs, the limit (every job holds a copy of every value); use fewer or shorter lists, fewer documents or shorter values'

# A value of almost 1 MiB in each of 1000 jobs: 1 GB.
python3 -c '
import sys
sys.stdout.write("testcase: exec\nexec:\n  name: e\n  cmd: echo " + "x" * 1000000 +
                 "\nruns: [" + ",".join(str(i) for i in range(1, 1001)) + "]\n")' >long-value.yaml
expect_error 2 "kdelta split: long-value.yaml: $expanded" split long-value.yaml

# 2000 documents over a first one of almost 1 MiB: 2 GB.
python3 -c '
import sys
sys.stdout.write("testcase: exec\nexec:\n  name: e\n  cmd: echo " + "x" * 1000000 +
                 "\n" + "---\nruns: 2\n" * 2000)' >documents.yaml
expect_error 2 "kdelta split: documents.yaml: $expanded" split documents.yaml

# Within the limits: 1000 jobs of a short value.
python3 -c '
import sys
sys.stdout.write("testcase: exec\nexec:\n  name: e\n  cmd: echo " + "x" * 1000 +
                 "\nruns: [" + ",".join(str(i) for i in range(1, 1001)) + "]\n")' >fine.yaml
split fine.yaml >out 2>err || fail "1000 jobs of 1 kB: $(cat err)"
[ "$(grep -c '^cmd-[0-9a-f]*-e' out)" = 1000 ] || fail "1000 jobs of 1 kB: not 1000 jobs"

# Files: at most 1 MiB, decompressed; nothing but regular files.
head -c 2097152 /dev/zero | tr '\0' x | sed 's/^/cmd: /' >big.yaml
expect_error 2 "kdelta split: big.yaml: too large: more than 1 MiB" split big.yaml
yes 'suite: x' | head -c 16777216 | gzip -1 >bomb.yaml.gz
expect_error 2 "kdelta split: bomb.yaml.gz: too large: more than 1 MiB decompressed" split bomb.yaml.gz
mkfifo fifo.yaml
expect_error 2 "kdelta split: fifo.yaml: not a regular file" split fifo.yaml
ln -s /dev/zero zero.yaml
expect_error 2 "kdelta split: zero.yaml: not a regular file" split zero.yaml
finish
