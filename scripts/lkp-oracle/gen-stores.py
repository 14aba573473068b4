#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Synthetic result pairs for scripts/lkp-oracle.sh: COUNT directories, each
with a base and one or two other matrices (0.json, 1.json, ...) in
lkp-tests' matrix.json shape, holding the kinds of stats lkp-tests and
kdelta treat differently: workload results, proc-vmstat, meminfo,
slabinfo, vmstat, <test>.time.*, perf-profile, latency_stats, iostat,
interrupts, lock_stat, dmesg/kmsg/last_state failures, .pass/.fail pairs,
"no data" -1 values, zeros, metrics absent on one side, and runs from 1
to 12, with changes from none to large at noise from none to large; runs
lkp-tests marks incomplete (some, or all of a base's), and perf-profile
stats written as fractions in fewer runs than the matrix has (ragged, as
lkp-tests saves a matrix before padding it).

    gen-stores.py DIR COUNT SEED
"""
import json
import os
import random
import sys

STATS = [
    ("aim9.creat-clo.ops_per_sec", 500000), ("aim7.jobs-per-min", 40000),
    ("will-it-scale.per_process_ops", 80000), ("fio.read_bw_MBps", 900),
    ("aim9.time.user_time", 60), ("aim9.time.elapsed_time", 300),
    ("aim9.time.voluntary_context_switches", 5000),
    ("aim9.time.percent_of_cpu_this_job_got", 90),
    ("proc-vmstat.pgfree", 9000000), ("proc-vmstat.nr_dirty", 300),
    ("proc-vmstat.pgmajfault", 500), ("proc-vmstat.allocstall", 120),
    ("meminfo.Dirty", 20000), ("meminfo.KernelStack", 800),
    ("numa-meminfo.node0.Shmem", 100000),
    ("slabinfo.dentry.active_objs", 30000), ("slabinfo.kmalloc-64.num_objs", 150),
    ("vmstat.system.cs", 15000), ("vmstat.system.in", 80),
    ("vmstat.cpu.sy", 30), ("vmstat.cpu.us", 5), ("vmstat.procs.r", 3),
    ("mpstat.cpu.all.sys%", 1.5), ("turbostat.Avg_MHz", 2000),
    ("perf-profile.children.cycles-pp.do_syscall_64", 12.0),
    ("perf-profile.self.cycles-pp.memcpy", 0.8),
    ("latency_stats.max.call_rwsem_down_read_failed", 2000),
    ("iostat.sda.util", 0.5), ("interrupts.CAL:Function_call_interrupts", 20000),
    ("softirqs.RCU", 50000), ("lock_stat.rq_lock.contentions", 30000),
    ("cpuidle..usage", 300000), ("sched_debug.cpu.nr_switches.avg", 80000),
    ("perf-stat.i.cache-misses", 5e6), ("boot-time.boot", 30),
]
FAILURES = [
    "dmesg.WARNING:at_kernel/sched/deadline.c:#task_contending",
    "dmesg.boot_failures", "dmesg.RIP:process_srcu",
    "kmsg.sanitizer.direct_leak", "last_state.OOM",
    "last_state.booting", "stderr.has_stderr",
    "ltp.syscalls.fail", "ltp.syscalls.pass", "xfstests.generic.001.fail",
    "kernel-selftests.cgroup.test_core.pass",
]


def sample(mean, noise, runs, integer):
    xs = [random.gauss(mean, abs(mean) * noise) for _ in range(runs)]
    return [round(x) if integer else round(x, 2) for x in xs]


def incomplete_runs(runs, all_of_them):
    """Which runs lkp-tests marks incomplete (last_state.is_incomplete_run
    1): none, some, or all of them."""
    if all_of_them:
        return [True] * runs
    if random.random() < 0.7:
        return [False] * runs
    marked = random.sample(range(runs), random.randint(1, max(1, runs - 1)))
    return [r in marked for r in range(runs)]


def variant(runs, factors, base_fail, present, incomplete):
    m = {}
    for (name, mean), f in zip(STATS, factors):
        if not present.get(name, True):
            continue
        noise = random.choice([0, 0.001, 0.01, 0.03, 0.1, 0.3])
        integer = mean >= 100 and random.random() < 0.7
        xs = sample(mean * f, noise, runs, integer)
        if random.random() < 0.03:
            xs[random.randrange(runs)] = -1
        if random.random() < 0.03:
            xs = [0] * runs
        m[name] = xs
    for name, p in base_fail.items():
        if p is None:
            continue
        m[name] = [1 if random.random() < p else 0 for _ in range(runs)]
    if any(incomplete):
        m["last_state.is_incomplete_run"] = [int(i) for i in incomplete]
    # Ragged, as lkp-tests saves a matrix before it pads: the last runs
    # lack the profile's stats, written as fractions.
    if random.random() < 0.15 and runs > 1:
        cut = random.randint(1, runs - 1)
        for name in m:
            if name.startswith("perf-profile."):
                m[name] = [float(x) for x in m[name][:runs - cut]]
    m["stats_source"] = ["/result/run/%d/stats.json" % i for i in range(runs)]
    return m


def store(path):
    os.makedirs(path, exist_ok=True)
    nvariants = random.choice([2, 2, 2, 3])
    base_all_incomplete = random.random() < 0.05
    for v in range(nvariants):
        runs = random.choice([1, 2, 3, 3, 4, 5, 5, 6, 8, 12])
        factors = [1.0 if v == 0 or random.random() < 0.5 else
                   random.choice([0.5, 0.9, 0.95, 0.98, 0.99, 1.005, 1.01,
                                  1.02, 1.04, 1.06, 1.1, 1.3, 2, 5])
                   for _ in STATS]
        fails = {name: random.choice([None, 0, 0, 0.2, 0.5, 1])
                 for name in FAILURES}
        present = {name: random.random() > 0.05 for name, _ in STATS}
        incomplete = incomplete_runs(runs, v == 0 and base_all_incomplete)
        with open(os.path.join(path, "%d.json" % v), "w") as f:
            json.dump(variant(runs, factors, fails, present, incomplete), f)


def main():
    out, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    random.seed(seed)
    for i in range(count):
        store(os.path.join(out, "%02d" % i))


main()
