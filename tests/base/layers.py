#!/usr/bin/env python3
"""The layering of src/ (docs/design.md, "The layout"), checked twice.

Usage: layers.py SRCDIR NM LAYER=LIBRARY...  (the layers lowest first, each
with its static library, as src/meson.build builds them)

1. Calls, from the libraries: every symbol a folder's library uses and
   some library defines must be defined in that folder or one below it.
2. Includes, from the sources and the public headers: a file may include
   the headers of its own folder and of the folders below it.  include/kdelta/X.h belongs to the
   folder that holds X.c (outside cmd/ first: its files are named after
   commands), or to the one HEADER_FOLDERS names.
3. No circle between files: the object files' calls form no cycle.

The exceptions allowed are the lines of the fenced block after the heading
"Exceptions to the layering" in docs/design.md, each "FROM -> TO: SYMBOL"
(a call) or "FROM -> TO: HEADER.h" (an include), FROM and TO being
folder/file without ".c".  Prints every violation; exits 1 if any.
"""
import collections
import os
import re
import subprocess
import sys

# Headers with no .c file of their name: the folder that owns them.
HEADER_FOLDERS = {
    'compare.h': 'compare',  # the comparison, its verdicts: decide.c
    'render.h': 'output',
    'schema.h': 'job',
    'vm.h': 'vm',  # the layer's one header: vm-*.c
    'workload.h': 'run',
}


def read_exceptions(srcdir):
    text = open(os.path.join(srcdir, 'docs', 'design.md')).read()
    m = re.search(r'^#+ Exceptions to the layering\n(.*?)^```\n(.*?)^```',
                  text, re.M | re.S)
    if not m:
        return set()
    return {line.strip() for line in m.group(2).splitlines() if line.strip()}


def symbols(nm, library):
    """{member: (defined, undefined)} of a static library."""
    out = subprocess.run([nm, '-A', library], capture_output=True,
                         text=True, check=True).stdout
    members = collections.defaultdict(lambda: (set(), set()))
    for line in out.splitlines():
        # "LIBRARY:MEMBER:VALUE TYPE SYMBOL", "LIBRARY:MEMBER: U SYMBOL"
        parts = line.split()
        if len(parts) != 3:
            continue
        member = parts[0][len(library) + 1:].split(':')[0]
        if parts[1] in 'TDBRCVW':
            members[member][0].add(parts[2])
        elif parts[1] == 'U':
            members[member][1].add(parts[2])
    return members


def source_files(srcdir, folder):
    """The .c and .h files below src/FOLDER, relative to src/."""
    top = os.path.join(srcdir, 'src')
    for dirpath, _, files in os.walk(os.path.join(top, folder)):
        for f in sorted(files):
            if f.endswith(('.c', '.h')):
                yield os.path.relpath(os.path.join(dirpath, f), top)


def main():
    srcdir, nm = sys.argv[1], sys.argv[2]
    layers = [arg.split('=', 1) for arg in sys.argv[3:]]
    order = [name for name, _ in layers]
    rank = {name: i for i, name in enumerate(order)}
    allowed = read_exceptions(srcdir)
    used_exceptions = set()
    errors = []

    # meson names an object file after its source's path below src/:
    # src/run/monitors/time.c is run_monitors_time.c.o
    paths = {}
    for folder in order:
        for rel in source_files(srcdir, folder):
            if rel.endswith('.c'):
                paths[rel.replace('/', '_') + '.o'] = rel[:-2]
    defined_by = {}            # symbol -> (layer, file)
    uses = []                  # (layer, file, symbol)
    for layer, library in layers:
        for member, (defined, undefined) in symbols(nm, library).items():
            path = paths.get(os.path.basename(member), member)
            for sym in defined:
                defined_by[sym] = (layer, path)
            for sym in undefined:
                uses.append((layer, path, sym))

    file_edges = collections.defaultdict(set)
    edge_symbols = collections.defaultdict(set)
    for layer, path, sym in uses:
        if sym not in defined_by:
            continue
        to_layer, to_path = defined_by[sym]
        if to_path != path:
            file_edges[path].add(to_path)
            edge_symbols[path, to_path].add(sym)
        if rank[to_layer] > rank[layer]:
            rule = f'{path} -> {to_path}: {sym}'
            if rule in allowed:
                used_exceptions.add(rule)
            else:
                errors.append(f'call up: {rule} ({layer} is below {to_layer})')

    # includes
    owner = dict(HEADER_FOLDERS)
    for folder in sorted(order, key=lambda f: f == 'cmd'):
        for rel in source_files(srcdir, folder):
            if rel.endswith('.c'):
                owner.setdefault(os.path.basename(rel)[:-2] + '.h', folder)
    for folder in order:
        for rel in source_files(srcdir, folder):
            full = os.path.join(srcdir, 'src', rel)
            rel = rel[:-2] if rel.endswith('.c') else rel
            for n, line in enumerate(open(full), 1):
                m = re.match(r'\s*#\s*include\s+"kdelta/([^"]+)"', line)
                if not m:
                    continue
                header = m.group(1)
                if header not in owner:
                    errors.append(f'{rel}:{n}: kdelta/{header}: no folder owns it '
                                  '(name it in HEADER_FOLDERS of tests/base/layers.py)')
                    continue
                if rank[owner[header]] > rank[folder]:
                    rule = f'{rel} -> {owner[header]}: {header}'
                    if rule in allowed:
                        used_exceptions.add(rule)
                    else:
                        errors.append(f'include up: {rel}:{n}: kdelta/{header} '
                                      f'({folder} is below {owner[header]})')

    # the public headers: each may include those of its folder and below
    incdir = os.path.join(srcdir, 'include', 'kdelta')
    for header in sorted(os.listdir(incdir)):
        if not header.endswith('.h'):
            continue
        if header not in owner:
            errors.append(f'include/kdelta/{header}: no folder owns it '
                          '(name it in HEADER_FOLDERS of tests/base/layers.py)')
            continue
        folder = owner[header]
        for n, line in enumerate(open(os.path.join(incdir, header)), 1):
            m = re.match(r'\s*#\s*include\s+"kdelta/([^"]+)"', line)
            if not m or m.group(1) not in owner:
                continue
            if rank[owner[m.group(1)]] > rank[folder]:
                rule = f'{header} -> {owner[m.group(1)]}: {m.group(1)}'
                if rule in allowed:
                    used_exceptions.add(rule)
                else:
                    errors.append(f'include up: include/kdelta/{header}:{n}: '
                                  f'kdelta/{m.group(1)} ({folder} is below '
                                  f'{owner[m.group(1)]})')

    # circles between files (Tarjan's strongly connected components)
    index, low, stack, on_stack, sccs = {}, {}, [], set(), []

    def strongconnect(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in file_edges.get(v, ()):
            if w not in index:
                strongconnect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            scc = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                scc.append(w)
                if w == v:
                    break
            if len(scc) > 1:
                sccs.append(sorted(scc))

    sys.setrecursionlimit(10000)
    for v in list(file_edges):
        if v not in index:
            strongconnect(v)
    for scc in sccs:
        calls = [f'{a} -> {b} ({", ".join(sorted(edge_symbols[a, b]))})'
                 for a in scc for b in sorted(file_edges[a]) if b in scc]
        errors.append('circle between files: ' + '; '.join(calls))

    for rule in sorted(allowed - used_exceptions):
        errors.append(f'exception in docs/design.md no longer needed: {rule}')
    for e in errors:
        print(e)
    print(f'{len(order)} layers, {len(uses)} uses, {len(used_exceptions)} '
          f'exception(s), {len(errors)} violation(s)')
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
