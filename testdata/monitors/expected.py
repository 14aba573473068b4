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

# numa-meminfo: node0's meminfo, "Node 0 Name: value [kB]", gauges
samples = []
for i in (1, 2, 3):
    d = {}
    for line in read("node0-meminfo", i).splitlines():
        w = line.split()
        d["node%s.%s" % (w[1], w[2].rstrip(":"))] = float(w[3])
    samples.append(d)
for key in samples[0]:
    out["numa-meminfo." + key] = mean([s[key] for s in samples])

# numa-vmstat: node0's vmstat; the NUMA, page and workingset events and the
# cumulative nr_ counters count, the rest are gauges
NODE_EVENT = re.compile(r"^(numa_|pg|workingset_(?!nodes$)|nr_dirtied$|"
                        r"nr_written$|nr_throttled_written$|nr_foll_pin_|"
                        r"nr_vmscan_write$|nr_vmscan_immediate_reclaim$)")
samples = [dict((k, float(v)) for k, v in
                (line.split() for line in read("node0-vmstat", i).splitlines()))
           for i in (1, 2, 3)]
for key in samples[0]:
    series = [s[key] for s in samples]
    name = "numa-vmstat.node0." + key
    out[name] = (series[-1] - series[0] if NODE_EVENT.match(key)
                 else mean(series))


# interrupts, softirqs: per line, the sum over the CPUs, last - first.
# interrupts' names (LKP's): "24:" + the description's words joined by
# '.', "LOC:" + the words joined by '_', "ERR" for a line of one count.
def irq_sums(text, is_interrupts):
    lines = text.splitlines()
    ncpus = len(lines[0].split())
    sums = {}
    for line in lines[1:]:
        w = line.split()
        if len(w) == 2:
            sums[w[0].rstrip(":")] = float(w[1])
            continue
        if not is_interrupts:
            sums[w[0].rstrip(":")] = sum(float(x) for x in w[1:])
            continue
        desc = w[1 + ncpus:]
        if re.match(r"^[0-9]+:$", w[0]):
            key = w[0] + ".".join(desc).replace(",.", ",")
        else:
            key = w[0] + "_".join(desc)
        sums[key] = sum(float(x) for x in w[1:1 + ncpus])
    return sums


for name in ("interrupts", "softirqs"):
    first = irq_sums(read(name, 1), name == "interrupts")
    last = irq_sums(read(name, 3), name == "interrupts")
    for key in first:
        out["%s.%s" % (name, key)] = last[key] - first[key]

# pressure: per resource and line, the averages' means, the total's
# increase, and that increase in percent of the wall time between the first
# and the last sample
seconds = TIMES[-1] - TIMES[0]
for res in ("cpu", "io", "memory"):
    samples = []
    for i in (1, 2, 3):
        d = {}
        for line in read("pressure-" + res, i).splitlines():
            w = line.split()
            for kv in w[1:]:
                k, v = kv.split("=")
                d["%s.%s" % (w[0], k)] = float(v)
        samples.append(d)
    for key in samples[0]:
        name = "pressure.%s.%s" % (res, key)
        if key.endswith(".total"):
            delta = samples[-1][key] - samples[0][key]
            out[name] = delta
            out[name[:-len(".total")] + ".stall%"] = \
                100 * delta / (seconds * 1e6)
        else:
            out[name] = mean([s[key] for s in samples])


# iostat: sysstat's iostat -x formulas on the first and last diskstats of
# loop0 (named ram0) and vda, over the seconds between them
def diskstats(i):
    d = {}
    for line in read("diskstats", i).splitlines():
        w = line.split()
        d[w[2]] = [float(x) for x in w[3:]]
    return d


first, last = diskstats(1), diskstats(3)
for dev, shown in (("loop0", "ram0"), ("vda", "vda")):
    f, l = first[dev], last[dev]
    d = [b - a for a, b in zip(f, l)]
    ms = seconds * 1000
    for c, at in (("r", 0), ("w", 4), ("d", 11)):
        ios, merges, kb, ticks = d[at], d[at + 1], d[at + 2] / 2, d[at + 3]
        pre = "iostat.%s." % shown
        out[pre + c + "/s"] = ios / seconds
        out[pre + c + "kB/s"] = kb / seconds
        out[pre + c + "rqm/s"] = merges / seconds
        out[pre + c + "rqm"] = (100 * merges / (merges + ios)
                                if merges + ios else 0)
        out[pre + c + "_await"] = ticks / ios if ios else 0
        out[pre + c + "areq-sz"] = kb / ios if ios else 0
    out["iostat.%s.f/s" % shown] = d[15] / seconds
    out["iostat.%s.f_await" % shown] = d[16] / d[15] if d[15] else 0
    out["iostat.%s.aqu-sz" % shown] = d[10] / ms
    out["iostat.%s.util" % shown] = 100 * d[9] / ms



# perf-stat: perf stat -x , -I output (time,value,unit,event,...); per
# event the mean of its per-second rates over the intervals (the first from
# 0), its total over the last interval's end; LKP's ratios per interval
# (mean) and over the run.  perf-stat is this machine's (no PMU: software
# events only), perf-stat-pmu written by hand with hardware counts.
def perf_stat(name):
    intervals = []
    for line in open(os.path.join(here, name)).read().splitlines()[1:]:
        f = line.strip().split(",")
        if len(f) < 4 or f[1].startswith("<"):
            continue
        t = float(f[0])
        if not intervals or intervals[-1][0] != t:
            intervals.append((t, {}))
        intervals[-1][1][f[3]] = float(f[1])
    res = {}

    def ratios(d, pre):
        cyc, ins = d.get("cpu-cycles", 0), d.get("instructions", 0)
        for ev, misses in d.items():
            if not ev.endswith("-misses"):
                continue
            stem = ev[:-len("-misses")]
            for suffix in ("s", "-references", "-instructions"):
                base = d.get(stem + suffix, 0)
                if base:
                    total = base + misses if suffix == "s" else base
                    res.setdefault(pre + stem + "-miss-rate%", []).append(
                        100 * misses / total)
                    break
            if ev == "cache-misses" and misses:
                if cyc:
                    res.setdefault(pre + "cycles-between-cache-misses",
                                   []).append(cyc / misses)
                if ins:
                    res.setdefault(pre + "MPKI", []).append(
                        misses / ins * 1000)
        if cyc and ins:
            res.setdefault(pre + "ipc", []).append(ins / cyc)
            res.setdefault(pre + "cpi", []).append(cyc / ins)

    prev, totals = 0.0, {}
    for t, d in intervals:
        for ev, v in d.items():
            res.setdefault("i." + ev, []).append(v / (t - prev))
            totals[ev] = totals.get(ev, 0) + v
        ratios(d, "i.")
        prev = t
    for ev, v in totals.items():
        res["ps." + ev] = [v / prev]
    if totals.get("instructions"):
        res["total.instructions"] = [totals["instructions"]]
    ratios(totals, "overall.")
    return dict(("perf-stat." + k, mean(v)) for k, v in res.items())


out.update(perf_stat("perf-stat"))
perf_stat_pmu = perf_stat("perf-stat-pmu")

for key in sorted(out):
    v = out[key]
    print(key, int(v) if v == math.floor(v) else repr(v))

# The hand-written PMU counts: a file of their own, for test-extract.
with open(os.path.join(here, "expected-perf-stat-pmu.txt"), "w") as f:
    for key in sorted(perf_stat_pmu):
        f.write("%s %r\n" % (key, perf_stat_pmu[key]))
