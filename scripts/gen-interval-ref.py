#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Reference intervals of the change for kdelta (tests/stats/test-interval.c).

On the sample pairs of scripts/gen-stats-ref.py, computed independently of
kdelta's closed forms:

  fieller: the 95% interval of the percent change of the means as the set of
      ratios rho that Welch's t statistic (mean(b) - rho mean(a)) /
      sqrt(var_b/nb + rho^2 var_a/na) does not reject, its ends found with
      scipy.optimize.brentq; degrees of freedom Welch-Satterthwaite's at
      the estimated ratio.
  moses: the Hodges-Lehmann shift and Moses' 95% interval in percent of
      the base's median; without ties and for at most 40 runs in all, the
      rank C from U's null distribution counted over every arrangement of
      the ranks (itertools), else from the normal approximation.

    scripts/gen-interval-ref.py > testdata/stats/interval-reference.txt

Format, one case per line:

    fieller NAME low=L high=H df=DF a=... b=...
    moses NAME method=exact|asymptotic est=E low=L high=H a=... b=...
"""
import importlib.util
import functools
import math
import os
import sys

import numpy as np
import scipy
from scipy import optimize, stats

MISS = 0.05


def load_pairs():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "gen-stats-ref.py")
    spec = importlib.util.spec_from_file_location("gen_stats_ref", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.sample_pairs(), mod.fmt


def to_change(rho, base):
    return 100 * (rho - 1) if base > 0 else 100 * (1 - rho)


def fieller(a, b):
    ma, mb = np.mean(a), np.mean(b)
    va, vb = np.var(a, ddof=1) / len(a), np.var(b, ddof=1) / len(b)
    if ma == 0 or va + vb == 0:
        return None
    r = mb / ma
    df = (vb + r * r * va) ** 2 / (vb ** 2 / (len(b) - 1) +
                                  r ** 4 * va ** 2 / (len(a) - 1))
    t = stats.t.isf(MISS / 2, df)
    if va > 0 and abs(ma) / math.sqrt(va) <= t:
        return None		# unbounded: tested in C by hand

    def stat(rho):
        return (mb - rho * ma) / math.sqrt(vb + rho * rho * va)

    def end(direction):
        step = max(abs(r), 1e-300) * 1e-3
        far = r + direction * step
        while abs(stat(far)) < t:
            step *= 2
            far = r + direction * step
        return optimize.brentq(lambda x: abs(stat(x)) - t, r, far,
                               xtol=1e-15 * max(1, abs(r)), rtol=1e-14)
    lo, hi = sorted([to_change(end(-1), ma), to_change(end(1), ma)])
    return lo, hi, df


@functools.lru_cache(maxsize=None)
def arrangements(u, m, n):
    """How many arrangements of m and n values have U = u: the largest
    value is either one of the m (adding n to U) or one of the n."""
    if u < 0 or u > m * n:
        return 0
    if m == 0 or n == 0:
        return 1 if u == 0 else 0
    return arrangements(u - n, m - 1, n) + arrangements(u, m, n - 1)


def exact_lower_tail(na, nb):
    """P(U <= u) for every u, in exact integers."""
    counts = [arrangements(u, na, nb) for u in range(na * nb + 1)]
    total = math.comb(na + nb, na)
    assert sum(counts) == total
    return [sum(counts[:u + 1]) / total for u in range(len(counts))]


def moses(a, b):
    na, nb = len(a), len(b)
    both = np.concatenate([a, b])
    ties = len(np.unique(both)) != len(both)
    median = np.median(a)
    if median == 0:
        return None
    diff = np.sort(np.subtract.outer(b, a).ravel())
    est = np.median(diff) * 100 / abs(median)
    if not ties and na + nb <= 40:
        method = "exact"
        tail = exact_lower_tail(na, nb)
        c = 0
        while c < len(tail) and tail[c] <= MISS / 2:
            c += 1
    else:
        method = "asymptotic"
        mn = na * nb
        c = math.floor(mn / 2 - stats.norm.isf(MISS / 2) *
                       math.sqrt(mn * (na + nb + 1) / 12))
    if c < 1:
        return None
    lo = diff[c - 1] * 100 / abs(median)
    hi = diff[len(diff) - c] * 100 / abs(median)
    return method, est, lo, hi


def main():
    pairs, fmt = load_pairs()
    out = sys.stdout
    out.write("# Reference intervals for tests/stats/test-interval.c, computed by\n")
    out.write(f"# scripts/gen-interval-ref.py with scipy {scipy.__version__} "
              f"and numpy {np.__version__}.\n")
    out.write("# Do not edit: run the script again.\n")
    for name, a, b in pairs:
        a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
        f = fieller(a, b)
        if f:
            out.write(f"fieller {name} low={f[0]!r} high={f[1]!r} "
                      f"df={f[2]!r} a={fmt(a)} b={fmt(b)}\n")
        m = moses(a, b)
        if m:
            out.write(f"moses {name} method={m[0]} est={m[1]!r} "
                      f"low={m[2]!r} high={m[3]!r} a={fmt(a)} b={fmt(b)}\n")


if __name__ == "__main__":
    main()
