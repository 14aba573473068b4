#!/bin/bash
# make-repo.sh DIR [--commits N] [--slow-at K [--more-work PERCENT]]...
#                  [--broken-at K]
#
# Creates a git repository in DIR (which must not exist) for the bisect
# tests: N commits (default 20) of a small C benchmark, bench.c, built with
# "cc -O2 -o bench bench.c".  Commit 0 is the initial one; every later commit
# changes bench.c's patch level.  With --slow-at K, commit K makes every
# operation do 25% more work (--more-work, after it or before), so that ops_per_sec
# drops by 20% (by 50% with --more-work 100, which the tests use: a
# difference that stays clear even when other work beside them makes bench
# noisy).  Several --slow-at make several slow commits, each with its own
# --more-work: "--slow-at 8 --more-work 14 --slow-at 13 --more-work 100" is
# 14% more work at commit 8, then twice that at commit 13.  With
# --broken-at K, commit K does not compile and commit K+1 repairs it.
#
# bench measures its own CPU time (CLOCK_PROCESS_CPUTIME_ID), not the wall
# clock, so that other processes on a busy machine hardly move its result:
# here, 12 runs of 0.15 s vary by about 1%, also with both CPUs otherwise
# busy, against the 20% of the slow commit.
#
# The subjects are "commit K: ..."; the commit hashes are printed on stdout,
# one per line, commit 0 first.
set -eu

dir=$1
shift
commits=20 broken_at=-1
declare -A more_work=()
slow_at=-1 default_more=25
while [ $# -gt 0 ]; do
	case $1 in
	--commits) commits=$2 ;;
	--slow-at) slow_at=$2 more_work[$2]=$default_more ;;
	--more-work)
		default_more=$2
		[ "$slow_at" -lt 0 ] || more_work[$slow_at]=$2 ;;
	--broken-at) broken_at=$2 ;;
	*) echo "make-repo.sh: unknown option '$1'" >&2; exit 2 ;;
	esac
	shift 2
done

write_bench() {
	local level=$1 work=$2 broken=$3

	cat >bench.c <<EOC
/* The bisect tests' benchmark: ops_per_sec over 0.15 s of CPU time. */
#include <stdio.h>
#include <time.h>

#define PATCHLEVEL $level
#define WORK_PER_OP $work
$([ "$broken" = 1 ] && echo 'this line does not compile')

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static unsigned op(unsigned x)
{
	for (int i = 0; i < WORK_PER_OP; i++)
		x = x * 1103515245u + 12345u;
	return x;
}

int main(void)
{
	volatile unsigned sink = PATCHLEVEL;
	double start = cpu_seconds(), t;
	unsigned long ops = 0;

	do {
		for (int i = 0; i < 100; i++)
			sink = op(sink);
		ops += 100;
	} while ((t = cpu_seconds() - start) < 0.15);
	printf("ops_per_sec: %.1f\n", ops / t);
	printf("ops: %lu\n", ops);
	return 0;
}
EOC
}

mkdir "$dir"
cd "$dir"
git init -q -b main .
git config user.name "Bisect Fixture"
git config user.email "fixture@kdelta.invalid"
echo bench >.gitignore
export GIT_AUTHOR_DATE="2026-11-01T12:00:00Z" GIT_COMMITTER_DATE="2026-11-01T12:00:00Z"
work=2000
for ((k = 0; k < commits; k++)); do
	subject="commit $k: patch level $k"
	if [ -n "${more_work[$k]:-}" ]; then
		work=$((work * (100 + more_work[$k]) / 100))
		subject="commit $k: bench: do ${more_work[$k]}% more work per operation"
	fi
	broken=0
	if [ "$k" = "$broken_at" ]; then
		broken=1
		subject="commit $k: bench: a change that does not compile"
	fi
	write_bench "$k" "$work" "$broken"
	git add .gitignore bench.c
	git commit -q -m "$subject"
	git rev-parse HEAD
done
