#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Reference values for kdelta's statistics (tests/stats/test-stats.c).

Computes Welch's t-test, Mann-Whitney U (exact and asymptotic) and the
Benjamini-Hochberg adjustment with scipy/numpy, independently of kdelta's C
code, on fixed sample pairs, and writes testdata/stats/reference.txt.  The
test suite reads that file and needs no Python.  Run it again only to add
cases:

    scripts/gen-stats-ref.py > testdata/stats/reference.txt

It needs Debian's python3-scipy (and runs with /usr/bin/python3, which has it,
whatever python3 is first in PATH).

File format, one case per line, fields separated by blanks, lists by commas,
numbers as Python's repr() so that C's strtod() reads the same doubles:

    welch NAME t=T df=DF p=P a=A1,A2,... b=B1,B2,...
    mwu NAME method=exact|asymptotic u=U p=P a=... b=...
    bh NAME p=P1,P2,... q=Q1,Q2,...
"""
import sys
import warnings

import numpy as np
import scipy
from scipy import stats

# kdelta's rule (src/stats/stats.c): exact when there are no ties and na + nb <= 40.
MWU_EXACT_MAX = 40


def fmt(values):
    return ",".join(repr(float(v)) for v in values)


def rounded(values, digits=6):
    """Readable samples: round to `digits` significant digits."""
    out = []
    for v in values:
        v = float(v)
        out.append(float(f"{v:.{digits}g}"))
    return out


def sample_pairs():
    rng = np.random.default_rng(20261130)
    pairs = []

    def normal(name, na, nb, mean, rel_sd, shift):
        a = rng.normal(mean, mean * rel_sd, na)
        b = rng.normal(mean * (1 + shift), mean * rel_sd, nb)
        pairs.append((name, rounded(a), rounded(b)))

    normal("normal-3v3", 3, 3, 100, 0.05, 0.0)
    normal("normal-4v4-shift", 4, 4, 1000, 0.02, 0.05)
    normal("normal-5v5", 5, 5, 475224, 0.01, 0.0)
    normal("normal-5v5-shift5%", 5, 5, 475224, 0.01, 0.05)
    normal("normal-5v5-shift1%", 5, 5, 2.5e6, 0.01, 0.01)
    normal("normal-10v10", 10, 10, 50, 0.1, 0.02)
    normal("normal-20v20", 20, 20, 1e4, 0.03, 0.01)
    normal("normal-30v30", 30, 30, 7.5, 0.2, 0.1)
    normal("unequal-3v10", 3, 10, 300, 0.05, 0.1)
    normal("unequal-5v30", 5, 30, 1e6, 0.02, -0.03)
    normal("unequal-8v12", 8, 12, 42, 0.1, 0.0)
    normal("huge-1e9-5v5", 5, 5, 3.2e9, 0.0001, 0.0002)

    def lognormal(name, na, nb, scale, sigma, shift):
        a = scale * rng.lognormal(0, sigma, na)
        b = scale * (1 + shift) * rng.lognormal(0, sigma, nb)
        pairs.append((name, rounded(a), rounded(b)))

    lognormal("skewed-5v5", 5, 5, 1e5, 0.5, 0.0)
    lognormal("skewed-10v10", 10, 10, 2e3, 1.0, 0.5)
    lognormal("skewed-20v25", 20, 25, 1e7, 0.8, 0.2)
    lognormal("skewed-3v7", 3, 7, 10, 1.5, 1.0)

    def bimodal(name, na, nb, low, high, weight):
        def draw(n):
            pick = rng.random(n) < weight
            return np.where(pick, rng.normal(high, high * 0.01, n),
                            rng.normal(low, low * 0.01, n))
        pairs.append((name, rounded(draw(na)), rounded(draw(nb))))

    bimodal("bimodal-6v6", 6, 6, 1000, 1150, 0.5)
    bimodal("bimodal-12v12", 12, 12, 2e5, 2.6e5, 0.3)
    bimodal("bimodal-9v13", 9, 13, 80, 95, 0.6)

    def integers(name, na, nb, lam_a, lam_b):
        a = rng.poisson(lam_a, na).astype(float)
        b = rng.poisson(lam_b, nb).astype(float)
        pairs.append((name, list(a), list(b)))

    integers("ties-5v5", 5, 5, 3, 5)
    integers("ties-10v10", 10, 10, 4, 4)
    integers("ties-30v30", 30, 30, 2, 3)
    integers("ties-7v4", 7, 4, 10, 14)

    # Hand-made: the extremes that decide what few runs can show.
    pairs.append(("separated-3v3", [1.0, 2.0, 3.0], [4.0, 5.0, 6.0]))
    pairs.append(("separated-5v5", [10.0, 11.0, 12.0, 13.0, 14.0],
                  [20.0, 21.0, 22.0, 23.0, 24.0]))
    pairs.append(("interleaved-5v5", [1.0, 3.0, 5.0, 7.0, 9.0],
                  [2.0, 4.0, 6.0, 8.0, 10.0]))
    pairs.append(("one-constant-4v4", [7.0, 7.0, 7.0, 7.0],
                  [6.5, 7.2, 7.9, 8.3]))
    pairs.append(("tie-across-3v3", [1.0, 2.0, 3.0], [3.0, 4.0, 5.0]))
    pairs.append(("exact-limit-20v20",
                  [float(x) for x in range(1, 40, 2)],
                  [float(x) for x in range(2, 41, 2)][::-1]))
    pairs.append(("negative-5v5", [-3.1, -2.9, -3.3, -3.0, -2.8],
                  [-2.1, -2.4, -2.2, -1.9, -2.6]))
    return pairs


def has_ties(a, b):
    both = np.concatenate([a, b])
    return len(np.unique(both)) != len(both)


def welch_line(name, a, b):
    if np.var(a) == 0 and np.var(b) == 0:
        return None
    r = stats.ttest_ind(a, b, equal_var=False)
    va, vb = np.var(a, ddof=1) / len(a), np.var(b, ddof=1) / len(b)
    df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
    return (f"welch {name} t={r.statistic!r} df={df!r} p={r.pvalue!r} "
            f"a={fmt(a)} b={fmt(b)}")


def mwu_line(name, a, b):
    exact = not has_ties(a, b) and len(a) + len(b) <= MWU_EXACT_MAX
    method = "exact" if exact else "asymptotic"
    r = stats.mannwhitneyu(a, b, alternative="two-sided", method=method,
                           use_continuity=True)
    return (f"mwu {name} method={method} u={float(r.statistic)!r} "
            f"p={float(r.pvalue)!r} a={fmt(a)} b={fmt(b)}")


def bh(p):
    """Benjamini-Hochberg, written from the definition with numpy."""
    p = np.asarray(p, dtype=float)
    n = len(p)
    order = np.argsort(p, kind="stable")
    scaled = p[order] * n / np.arange(1, n + 1)
    q_sorted = np.minimum.accumulate(scaled[::-1])[::-1]
    q = np.empty(n)
    q[order] = np.minimum(q_sorted, 1.0)
    return q


def bh_cases():
    rng = np.random.default_rng(7)
    cases = [
        ("single", [0.03]),
        ("textbook", [0.01, 0.04, 0.03, 0.005, 0.2]),
        ("all-one", [1.0, 1.0, 1.0]),
        ("ties", [0.02, 0.02, 0.02, 0.5, 0.001]),
        ("cap", [0.9, 0.8, 0.95, 0.99]),
        ("uniform-50", list(rng.random(50))),
        ("mixed-200", list(np.concatenate([rng.random(190),
                                            rng.random(10) * 1e-4]))),
    ]
    for name, p in cases:
        yield f"bh {name} p={fmt(p)} q={fmt(bh(p))}"


def main():
    # scipy warns about huge-1e9-5v5 (values near 3.2e9 that differ in the
    # 5th digit); numpy's two-pass variance is exact enough for them.
    warnings.filterwarnings("ignore", message="Precision loss occurred")
    out = sys.stdout
    out.write("# Reference values for tests/stats/test-stats.c, computed by\n")
    out.write(f"# scripts/gen-stats-ref.py with scipy {scipy.__version__} "
              f"and numpy {np.__version__}.\n")
    out.write("# Do not edit: run the script again.\n")
    for name, a, b in sample_pairs():
        a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
        line = welch_line(name, a, b)
        if line:
            out.write(line + "\n")
        out.write(mwu_line(name, a, b) + "\n")
    for line in bh_cases():
        out.write(line + "\n")


if __name__ == "__main__":
    main()
