#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Reference boundaries for kdelta's group-sequential looks
(tests/stats/test-sequential.c).

Computes the boundaries of Lan-DeMets alpha spending (O'Brien-Fleming-type,
half of alpha on each side as ldbounds and gsDesign do, and Pocock-type)
independently of kdelta's C code: look j's boundary c is the root, found with
scipy.optimize.brentq, of

    P(|Z_i| < z_i at looks 1..j-1, |Z_j| >= c) = alpha spent at look j

a multivariate normal rectangle (Genz's algorithm,
scipy.stats.multivariate_normal.cdf) with the correlations sqrt(t_i / t_j)
of Brownian motion, not kdelta's recursive integration.
The test suite reads the file and needs no Python:

    nice scripts/gen-sequential-ref.py > testdata/stats/sequential-reference.txt

It needs Debian's python3-scipy (/usr/bin/python3) and takes some minutes.

Format, one schedule per line:

    boundaries SPENDING alpha=A t=T1,T2,... z=Z1,Z2,...
"""
import sys

import numpy as np
import scipy
from scipy import optimize, stats

ALPHA = 0.05


def spent(kind, alpha, t):
    t = min(t, 1.0)
    if kind == "obrien-fleming":
        return 4 * stats.norm.sf(stats.norm.isf(alpha / 4) / np.sqrt(t))
    return alpha * np.log(1 + (np.e - 1) * t)


def first_crossing(t, z, c):
    """P(|Z_i| < z_i for the looks before, |Z_j| >= c at the last): twice
    the rectangle with Z_j in [c, inf), by symmetry, so that a tiny
    probability is not the difference of two large ones."""
    k = len(t)
    cov = np.array([[np.sqrt(min(a, b) / max(a, b)) for b in t] for a in t])
    lower = np.array([-x for x in z] + [c])
    upper = np.array(list(z) + [np.inf])
    return 2 * stats.multivariate_normal.cdf(
        upper, mean=np.zeros(k), cov=cov, lower_limit=lower, abseps=1e-13,
        releps=1e-6, maxpts=4 * 10**6)


def boundaries(kind, alpha, t):
    z = []
    for j, tj in enumerate(t):
        target = spent(kind, alpha, tj) - (spent(kind, alpha, t[j - 1])
                                           if j else 0)
        if j == 0:
            z.append(float(stats.norm.isf(target / 2)))
            continue
        z.append(optimize.brentq(
            lambda c: np.log(max(first_crossing(t[:j + 1], z, c), 1e-300) /
                             target),
            0.5, 12, xtol=1e-7))
    return z


SCHEDULES = [
    [0.2, 0.4, 0.6, 0.8, 1.0],		# the textbook: 5 equal looks
    [0.3, 0.4, 0.5, 0.7, 1.0],		# unequal
    [0.1, 0.2, 1.0],			# a long last step
    [3 / 30, 4 / 30, 5 / 30, 6 / 30],	# the first looks of 3..30 runs
]


def main():
    out = sys.stdout
    out.write("# Reference boundaries for tests/stats/test-sequential.c, computed by\n")
    out.write(f"# scripts/gen-sequential-ref.py with scipy {scipy.__version__}.\n")
    out.write("# Do not edit: run the script again.\n")
    for kind in ["obrien-fleming", "pocock"]:
        for t in SCHEDULES:
            z = boundaries(kind, ALPHA, t)
            out.write(f"boundaries {kind} alpha={ALPHA!r} "
                      f"t={','.join(repr(x) for x in t)} "
                      f"z={','.join(repr(x) for x in z)}\n")
            out.flush()


if __name__ == "__main__":
    main()
