#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Counts of scripts/lkp-oracle.sh: for each directory (lkp.keys,
lkp.table, kdelta.csv, kdelta.table and the matrices), whether the changed
sets agree and how many of the table rows both print are identical."""
import csv
import glob
import json
import os
import sys


def rows(path, names):
    """Table rows of one output by metric name: lines that end with two
    blanks and a metric name of the matrices."""
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            for sep in ("  ",):
                head, _, name = line.rpartition(sep)
                if name in names and head.strip():
                    out[name] = line
    return out


def absent_differs(lkp, kdelta):
    """Whether the rows differ where kdelta prints an absent variant's
    mean as "-" (lkp-tests prints 0.00 and a change of -100%)."""
    return " - " in kdelta and " - " not in lkp


def zero_to_zero(lkp, kdelta):
    """Whether the rows differ where a mean of 0 stays 0: kdelta prints
    +0.0%, lkp-tests -100.0% (kdelta(1), LKP COMPATIBILITY)."""
    return ("+0.0%" in kdelta and "-100.0%" in lkp and
            lkp.replace("-100.0%", "  +0.0%") == kdelta)


def integer_perf_profile(matrices, name):
    """Whether lkp-tests may decide stat name by the type of one value, as
    kdelta does not: a perf-profile.* stat that mixes JSON integers and
    fractions in a compared (not the base) matrix (kdelta(1), LKP
    COMPATIBILITY)."""
    return name.startswith("perf-profile.") and any(
        name in m and {type(v) for v in m[name]} == {int, float}
        for m in matrices[1:])


def main(dirs):
    sets = agree = documented = tried = same = absent = zeros = 0
    for d in dirs:
        names = set()
        paths = sorted(glob.glob(os.path.join(d, "*.json")),
                       key=lambda p: int(os.path.basename(p)[:-5]))
        matrices = [json.load(open(p)) for p in paths]
        for m in matrices:
            names |= set(m) - {"stats_source"}
        lkp = set(open(os.path.join(d, "lkp.keys")).read().split("\n")) - {""}
        with open(os.path.join(d, "kdelta.csv"), newline="") as f:
            kd = {r["metric"] for r in csv.DictReader(f)
                  if r["verdict"] == "changed"}
        sets += 1
        if lkp == kd:
            agree += 1
        elif all(integer_perf_profile(matrices, n) for n in lkp ^ kd):
            documented += 1
            print("%s: changed sets differ on purpose (perf-profile values"
                  " both integers and fractions): lkp-tests only %s, kdelta"
                  " only %s"
                  % (d, sorted(lkp - kd), sorted(kd - lkp)))
        else:
            print("%s: changed sets differ: lkp-tests only %s, kdelta only %s"
                  % (d, sorted(lkp - kd), sorted(kd - lkp)))
        a = rows(os.path.join(d, "lkp.table"), names)
        b = rows(os.path.join(d, "kdelta.table"), names)
        for name in sorted(set(a) & set(b)):
            tried += 1
            if a[name] == b[name]:
                same += 1
            elif absent_differs(a[name], b[name]):
                absent += 1
            elif zero_to_zero(a[name], b[name]):
                zeros += 1
            else:
                print("%s: row differs:\n  lkp-tests: %s\n  kdelta:    %s"
                      % (d, a[name], b[name]))
    print("changed sets: %d of %d agree; on purpose (kdelta(1), LKP"
          " COMPATIBILITY) %d differ where a compared side's perf-profile.*"
          " values are both JSON integers and fractions"
          % (agree, sets, documented))
    print("rows both print: %d of %d identical; on purpose (kdelta(1), LKP"
          " COMPATIBILITY) %d differ where a metric is absent from a variant"
          " (kdelta: \"-\", lkp-tests: 0.00 and its change), %d where a mean"
          " of 0 stays 0 (+0.0%%, lkp-tests: -100.0%%)"
          % (same, tried, absent, zeros))
    return 0 if (agree + documented == sets and
                 same + absent + zeros == tried) else 1


sys.exit(main(sys.argv[1:]))
