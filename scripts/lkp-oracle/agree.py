#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Counts of scripts/lkp-oracle.sh: for each directory (lkp.keys,
lkp.table, kdelta.csv, kdelta.table and the matrices 0.json, 1.json, ...),
whether the stats each calls changed agree, column by column, and how many
of the table rows both print are identical.  A difference is excused only
where kdelta(1), LKP COMPATIBILITY, says kdelta differs on purpose, and
only when this script can see that it is that difference; any other makes
it exit 1."""
import csv
import glob
import json
import math
import os
import re
import sys

# lkp-tests' row: the base's mean and stddev slot (10 + 6), then per later
# column its change (10 and 2) and its mean and slot (28 in all).
FIRST_WIDTH = 16
COLUMN_WIDTH = 28
CHANGE_WIDTH = 12


def rows(path, names):
    """Table rows of one output by metric name: lines that end with two
    blanks and a metric name of the matrices."""
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            head, _, name = line.rpartition("  ")
            if name in names and head.strip():
                out[name] = line
    return out


def lkp_changed(path):
    """lkp-tests' changed stats by column (1: the first after the base),
    from compare.rb --keys."""
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            column, _, name = line.rstrip("\n").partition("\t")
            out.setdefault(int(column), set()).add(name)
    return out


def kdelta_changed(path):
    """kdelta's changed stats by column, from its CSV: a metric's rows come
    in the order of the columns, the base's first."""
    out, seen = {}, {}
    with open(path, newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            key = (r["group"], r["metric"])
            column = seen.get(key, -1) + 1
            seen[key] = column
            if r["verdict"] == "changed":
                out.setdefault(column, set()).add(r["metric"])
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


def narrowed(inner, printed):
    """Whether inner, a parenthesised change of kdelta's ("+6e+102%"), is
    lkp-tests' printed one ("+5.5e+102%") with one digit fewer, as kdelta
    gives a change too wide for its parentheses (kdelta(1), LKP
    COMPATIBILITY)."""
    short = re.fullmatch(r"([+-]\de[+-]\d+)(%?)", inner)
    full = re.fullmatch(r"([+-]\d\.\de[+-]\d+)(%?)", printed)
    if not short or not full or short.group(2) != full.group(2):
        return False
    # Both round one value: lkp-tests' to a tenth of a unit, kdelta's to
    # the unit of y's first digit.
    x, y = float(short.group(1)), float(full.group(1))
    return abs(x - y) <= 0.55 * 10 ** math.floor(math.log10(abs(y)))


def unmarked(kdelta, quiet_columns, lkp):
    """kdelta's row with the parentheses of the changes of quiet_columns
    made blanks, as lkp-tests prints them (and a change kdelta narrowed
    to fit them lkp-tests' change); None when the row has a parenthesised
    change elsewhere, which is no such difference."""
    out = list(kdelta)
    for m in reversed(list(re.finditer(r"\([^()]*\)", kdelta))):
        close = m.end() - 1
        column = (close - FIRST_WIDTH) // COLUMN_WIDTH + 1
        start = FIRST_WIDTH + (column - 1) * COLUMN_WIDTH
        if close < FIRST_WIDTH or column not in quiet_columns or \
                close != start + CHANGE_WIDTH - 1:
            return None
        out[m.start()] = out[close] = " "
        printed = lkp[start:start + CHANGE_WIDTH].strip()
        if m.group(0)[1:-1] != printed and \
                narrowed(m.group(0)[1:-1], printed):
            out[start:start + CHANGE_WIDTH] = list(
                lkp[start:start + CHANGE_WIDTH])
    return "".join(out)


def incomplete(m):
    """The runs lkp-tests marks incomplete in matrix m."""
    return [v == 1 for v in m.get("last_state.is_incomplete_run", [])]


def integer_middle(matrices, column, name):
    """Whether lkp-tests decided perf-profile stat name of a column by its
    integer rule where kdelta does not: the middle of the column's values
    (padded with Integer zeros to its runs, as lkp-tests reads a ragged
    matrix, and without the runs lkp-tests marks incomplete when a side
    has some), by which lkp-tests picks its rule, is an integer, while
    some of its values were written as fractions, which makes kdelta take
    the column as fractions (kdelta(1), LKP COMPATIBILITY)."""
    m = matrices[column]
    if not name.startswith("perf-profile.") or name not in m:
        return False
    runs = len(m.get("stats_source", m[name]))
    values = list(m[name]) + [0] * (runs - len(m[name]))
    if any(any(incomplete(x)) for x in (matrices[0], m)):
        drop = incomplete(m)
        values = [v for r, v in enumerate(values)
                  if not (r < len(drop) and drop[r])]
    values = sorted(v for v in values if v != -1)
    return (bool(values) and isinstance(values[len(values) // 2], int) and
            any(isinstance(v, float) for v in m[name]))


def complete_mean(m, name):
    """The mean lkp-tests shows of stat name in matrix m: over the runs it
    does not mark incomplete, a ragged row padded with zeros."""
    runs = len(m.get("stats_source", m.get(name, [])))
    values = list(m.get(name, [])) + [0] * (runs - len(m.get(name, [])))
    drop = incomplete(m)
    values = [v for r, v in enumerate(values)
              if not (r < len(drop) and drop[r])]
    return math.fsum(values) / len(values) if values else 0.0


def cell_at(row, position):
    """The column of a row's character, and whether it is in the change."""
    if position < FIRST_WIDTH:
        return 0, False
    column = (position - FIRST_WIDTH) // COLUMN_WIDTH + 1
    start = FIRST_WIDTH + (column - 1) * COLUMN_WIDTH
    return column, position < start + CHANGE_WIDTH


def number_around(row, position):
    """The number printed where position is, as text ("-0.2")."""
    begin = end = position
    while begin > 0 and row[begin - 1] not in " ()":
        begin -= 1
    while end < len(row) and row[end] not in " ()%":
        end += 1
    return row[begin:end]


def near_tie(lkp, kdelta, matrices, name):
    """Whether the rows differ only in numbers that are one unit apart in
    their last digit, around a value that lies within 1e-12 of the tie
    between them: where Ruby's rounding of a value a few ulps from a tie
    and kdelta's model of it part (kdelta(1), LKP COMPATIBILITY)."""
    if len(lkp) != len(kdelta):
        return False
    seen = set()
    for position, (a, b) in enumerate(zip(lkp, kdelta)):
        if a == b:
            continue
        x, y = number_around(lkp, position), number_around(kdelta, position)
        if (x, y) in seen:
            continue
        seen.add((x, y))
        try:
            fx, fy = float(x), float(y)
        except ValueError:
            return False
        decimals = len(x.partition(".")[2])
        unit = 10.0 ** -decimals
        if decimals != len(y.partition(".")[2]) or \
                abs(abs(fx - fy) - unit) > unit / 1000:
            return False
        column, change = cell_at(lkp, position)
        mean = complete_mean(matrices[column], name)
        if change:
            base = complete_mean(matrices[0], name)
            if name.endswith("%") or name.startswith("perf-profile."):
                value = mean - base
            else:
                value = 100.0 * (mean - (base or 1e-100)) / (base or 1e-100)
        else:
            value = mean
        if abs(value - (fx + fy) / 2) > 1e-12 * max(1.0, abs(value)):
            return False
    return True


def pair_keys(d, column):
    """lkp-tests' changed stats of base and column alone, or None."""
    path = os.path.join(d, "lkp.pair%d.keys" % column)
    if not os.path.exists(path):
        return None
    return lkp_changed(path).get(1, set())


class Counts:
    def __init__(self):
        self.cells = self.cells_agree = self.cells_documented = 0
        self.cells_base_stripped = 0
        self.sets = self.sets_agree = self.sets_on_purpose = 0
        self.decisions = self.decisions_differ = self.decisions_bad = 0
        self.tried = self.same = self.absent = self.zeros = 0
        self.quiet = self.ties = 0
        self.bad = 0

    def report(self, what):
        self.bad += 1
        print(what)


def compare_sets(c, d, matrices, names, lkp, kd):
    """Compares the changed sets column by column; where kdelta differs on
    purpose, lkp's set of that column becomes the one kdelta's stands
    for, for the rows.  Counts the stat x column decisions too: each stat
    of the set in each column, changed or not."""
    c.sets += 1
    ncolumns = len(matrices) - 1
    agree = on_purpose = True
    for column in range(1, ncolumns + 1):
        a, b = lkp.get(column, set()), kd.get(column, set())
        pair = pair_keys(d, column)
        c.cells += 1
        c.decisions += len(names | a | b)
        c.decisions_differ += len(a ^ b)
        if a == b:
            c.cells_agree += 1
            continue
        if column > 1 and any(incomplete(matrices[0])) and pair is not None \
                and {n for n in pair ^ b
                     if not integer_middle(matrices, column, n)} == set():
            c.cells_base_stripped += 1
            print("%s: column %d: changed sets differ on purpose (lkp-tests"
                  " compares it with the base stripped of its incomplete"
                  " runs, kdelta as the two alone): lkp-tests only %s, kdelta"
                  " only %s" % (d, column, sorted(a - b), sorted(b - a)))
            lkp[column] = b
            agree = False
            continue
        if all(integer_middle(matrices, column, n) for n in a ^ b):
            c.cells_documented += 1
            print("%s: column %d: changed sets differ on purpose (perf-profile"
                  " values both integers and fractions, the middle an"
                  " integer): lkp-tests only %s, kdelta only %s"
                  % (d, column, sorted(a - b), sorted(b - a)))
            lkp[column] = b
            agree = False
            continue
        agree = on_purpose = False
        c.decisions_bad += len(a ^ b)
        c.report("%s: column %d: changed sets differ: lkp-tests only %s,"
                 " kdelta only %s" % (d, column, sorted(a - b), sorted(b - a)))
    c.sets_agree += agree
    c.sets_on_purpose += on_purpose and not agree


def compare_rows(c, d, matrices, names, lkp, kd, ncolumns):
    a = rows(os.path.join(d, "lkp.table"), names)
    b = rows(os.path.join(d, "kdelta.table"), names)
    for name in sorted(set(a) & set(b)):
        c.tried += 1
        # The columns where neither calls the stat changed: kdelta puts
        # their changes in parentheses, lkp-tests prints them plainly.
        quiet = {col for col in range(1, ncolumns + 1)
                 if name not in lkp.get(col, set()) and
                 name not in kd.get(col, set())}
        plain = unmarked(b[name], quiet, a[name])
        if a[name] == b[name]:
            c.same += 1
        elif plain == a[name]:
            c.quiet += 1
        elif absent_differs(a[name], b[name]):
            c.absent += 1
        elif zero_to_zero(a[name], plain or b[name]):
            c.zeros += 1
        elif near_tie(a[name], plain or b[name], matrices, name):
            c.ties += 1
            print("%s: row differs on purpose (a near tie, Ruby's rounding):"
                  "\n  lkp-tests: %s\n  kdelta:    %s" % (d, a[name], b[name]))
        else:
            c.report("%s: row differs:\n  lkp-tests: %s\n  kdelta:    %s"
                     % (d, a[name], b[name]))


def main(dirs):
    c = Counts()
    for d in dirs:
        names = set()
        paths = sorted(glob.glob(os.path.join(d, "*.json")),
                       key=lambda p: int(os.path.basename(p)[:-5]))
        matrices = [json.load(open(p)) for p in paths]
        for m in matrices:
            names |= set(m) - {"stats_source"}
        lkp = lkp_changed(os.path.join(d, "lkp.keys"))
        kd = kdelta_changed(os.path.join(d, "kdelta.csv"))
        compare_sets(c, d, matrices, names, lkp, kd)
        compare_rows(c, d, matrices, names, lkp, kd, len(matrices) - 1)
    print("changed sets: %d of %d comparisons agree in every column, %d more"
          " but for differences on purpose; columns:"
          " %d of %d agree; on purpose (kdelta(1), LKP COMPATIBILITY) %d"
          " differ where lkp-tests decides perf-profile.* values of both"
          " JSON integers and fractions by an integer middle, %d where it"
          " compares a later column with the base stripped of its incomplete"
          " runs (kdelta agrees with lkp-tests on the two alone)"
          % (c.sets_agree, c.sets, c.sets_on_purpose, c.cells_agree,
             c.cells, c.cells_documented, c.cells_base_stripped))
    print("stat x column decisions: %d of %d agree (%.2f%%), %d differ on"
          " purpose (above), %d disagree"
          % (c.decisions - c.decisions_differ, c.decisions,
             100.0 * (c.decisions - c.decisions_differ) / max(c.decisions, 1),
             c.decisions_differ - c.decisions_bad, c.decisions_bad))
    print("rows both print: %d of %d identical; on purpose (kdelta(1), LKP"
          " COMPATIBILITY) %d differ only in the parentheses of a change"
          " neither calls changed, %d where a metric is absent from a"
          " variant (kdelta: \"-\", lkp-tests: 0.00 and its change), %d"
          " where a mean of 0 stays 0 (+0.0%%, lkp-tests: -100.0%%), %d in"
          " the last digit of a value within 1e-12 of a rounding tie"
          % (c.same, c.tried, c.quiet, c.absent, c.zeros, c.ties))
    print("disagreements: %d" % c.bad)
    return 1 if c.bad else 0


sys.exit(main(sys.argv[1:]))
