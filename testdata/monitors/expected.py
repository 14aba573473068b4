#!/usr/bin/env python3
# Computes the stats kdelta must extract from raw files made of the three
# captures of each /proc file here, sampled at the times below: an
# implementation independent of kdelta's C code, written from the kernel's
# documentation of each file.  Prints "metric value" lines, sorted.
#   python3 expected.py > expected-stats.txt
import math
import os
import re

TIMES = [1796001600.0, 1796001601.5, 1796001603.25]
here = os.path.dirname(os.path.abspath(__file__))


def read(name, i):
    with open(os.path.join(here, "%s.%d" % (name, i))) as f:
        return f.read()


# /proc/vmstat fields that count events (the kernel's vm_event_item, the
# numa_* and workingset_* node events, and the cumulative nr_ counters).
EVENT = re.compile(r"^(pg|numa_|thp_|compact_|allocstall|pswp|kswapd_|"
                   r"slabs_scanned$|workingset_(?!nodes$)|unevictable_pgs_|"
                   r"htlb_buddy_alloc_|zone_reclaim_|drop_pagecache$|"
                   r"drop_slab$|oom_kill$|pageoutrun$|balloon_|swap_ra|"
                   r"swpin_zero$|swpout_zero$|ksm_|cow_ksm$|zswp|direct_map_|"
                   r"nr_dirtied$|nr_written$|nr_throttled_written$|"
                   r"nr_foll_pin_|nr_vmscan_write$|"
                   r"nr_vmscan_immediate_reclaim$|nr_tlb_|kcompactd_|"
                   r"vma_lock_|vmacache_)")

out = {}


def mean(values):
    return sum(values) / len(values)


# proc-vmstat
samples = [dict((k, float(v)) for k, v in
                (line.split() for line in read("vmstat", i).splitlines()))
           for i in (1, 2, 3)]
for key in samples[0]:
    series = [s[key] for s in samples]
    if EVENT.match(key):
        out["proc-vmstat." + key] = series[-1] - series[0]
    else:
        out["proc-vmstat." + key] = mean(series)

# meminfo: every field a gauge
samples = []
for i in (1, 2, 3):
    d = {}
    for line in read("meminfo", i).splitlines():
        name, rest = line.split(":", 1)
        d[name] = float(rest.split()[0])
    samples.append(d)
for key in samples[0]:
    out["meminfo." + key] = mean([s[key] for s in samples])

# slabinfo 2.1: gauges per cache
samples = []
for i in (1, 2, 3):
    d = {}
    for line in read("slabinfo", i).splitlines()[2:]:
        w = line.split()
        for field, idx in (("active_objs", 1), ("num_objs", 2),
                           ("active_slabs", 13), ("num_slabs", 14)):
            d["%s.%s" % (w[0], field)] = float(w[idx])
    samples.append(d)
for key in samples[0]:
    out["slabinfo." + key] = mean([s[key] for s in samples])

# vmstat from /proc/stat
stat = []
for i in (1, 2, 3):
    d = {}
    for line in read("stat", i).splitlines():
        w = line.split()
        d[w[0]] = [float(x) for x in w[1:]]
    stat.append(d)
seconds = TIMES[-1] - TIMES[0]
out["vmstat.system.cs"] = (stat[-1]["ctxt"][0] - stat[0]["ctxt"][0]) / seconds
out["vmstat.system.in"] = (stat[-1]["intr"][0] - stat[0]["intr"][0]) / seconds
out["vmstat.procs.r"] = mean([s["procs_running"][0] for s in stat])
out["vmstat.procs.b"] = mean([s["procs_blocked"][0] for s in stat])
# user nice system idle iowait irq softirq steal
d = [stat[-1]["cpu"][i] - stat[0]["cpu"][i] for i in range(8)]
total = sum(d)
out["vmstat.cpu.us"] = 100 * (d[0] + d[1]) / total
out["vmstat.cpu.sy"] = 100 * (d[2] + d[5] + d[6]) / total
out["vmstat.cpu.id"] = 100 * d[3] / total
out["vmstat.cpu.wa"] = 100 * d[4] / total
out["vmstat.cpu.st"] = 100 * d[7] / total

for key in sorted(out):
    v = out[key]
    print(key, int(v) if v == math.floor(v) else repr(v))
