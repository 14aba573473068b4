#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Writes the seed corpora of the fuzz targets (tests/fuzz/fuzz-*.c),
testdata/fuzz/<target>/corpus/seed-*, from the captures and job files
already in the tree and from the small hand-made inputs below; and their
dictionaries, testdata/fuzz/<target>.dict, with the names the sources
declare (parameters, workloads, monitors).  Inputs that campaigns found
(libFuzzer's names, a hash) sit beside the seeds and are not touched.

    tests/fuzz/make-seeds.py            # from the top of the tree
"""
import glob
import json
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TIMES = [1796001600.0, 1796001601.5, 1796001603.25]


def read(rel):
    with open(os.path.join(TOP, rel), 'rb') as f:
        return f.read()


def seed(target, name, data):
    if isinstance(data, str):
        data = data.encode()
    d = os.path.join(TOP, 'testdata', 'fuzz', target, 'corpus')
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, 'seed-' + name), 'wb') as f:
        f.write(data)


def dictionary(target, tokens):
    """libFuzzer's dictionary format: one quoted token a line."""
    def quote(t):
        out = ''
        for b in t.encode():
            c = chr(b)
            if c in '"\\' or b < 0x20 or b >= 0x7f:
                out += '\\x%02x' % b
            else:
                out += c
        return '"%s"' % out
    path = os.path.join(TOP, 'testdata', 'fuzz', target + '.dict')
    with open(path, 'w') as f:
        f.write('# Written by tests/fuzz/make-seeds.py.\n')
        for t in sorted(set(tokens)):
            f.write(quote(t) + '\n')


def declared_names():
    """Names of parameters, workloads and monitors as the sources declare them."""
    names = set()
    for path in glob.glob(os.path.join(TOP, 'src', '**', '*.c'), recursive=True):
        with open(path) as f:
            text = f.read()
        names.update(re.findall(r'\.name = "([^"]+)"', text))
        names.update(re.findall(r'\{ "([a-z_]+)", PARAM_', text))
    names.discard('common')
    return sorted(names)


YAML_TOKENS = ['---', '...', ': ', '- ', '[', ']', '{', '}', ', ', '|', '|-', '>',
               '~', 'null', 'true', 'false', 'yes', 'no', 'on', 'off', '&a ', '*a',
               '!!str ', '!!map', '? ', '#', '"', "'", '\\', '\n  ', '{{', '}}',
               '%YAML 1.1', '\t', '\r\n', '\xc3\xa9', '\xef\xbb\xbf']
VALUE_TOKENS = ['1BRD_', '48G', '4k', '1M', '1s', '0.5s', '10m', '1h', '0', '-1',
                '3', '1e308', '0x10', 'xfs', 'ext4', 'btrfs', 'tmpfs', 'noatime']


def dictionaries():
    names = declared_names()
    dictionary('job', YAML_TOKENS + VALUE_TOKENS + names)
    dictionary('params', YAML_TOKENS + names +
               ['testbox', 'tbox_group', 'kconfig', 'compiler', 'rootfs'])
    dictionary('monitor', [n + '\n' for n in names] +
               ['time: ', '1796001600.000000', '\n', ' ', '\t', ': ', '%', '?',
                'nan', 'inf', '-', '1e308', '0x1p3', 'Latency Top version : v0.1',
                ' [xfs]', '.isra.0', '.part.1', '.constprop.2', 'slabinfo - version: 2.1',
                '# name', ' : tunables', ' : slabdata', 'kB', 'cpu ', 'cpu0 ', 'intr ',
                'ctxt ', 'btime ', 'processes ', 'procs_running ', 'softirq ',
                'User time (seconds)', 'Elapsed (wall clock) time (h:mm:ss or m:ss)',
                'Percent of CPU this job got', 'Command being timed'])
    dictionary('stats', [n + '.gz\n' for n in names] + [n + '.log\n' for n in names] +
               ['\f', '\n', 'time: ', '1796001600.000000', ': ', ' ', '\t', '\r',
                'nan', 'inf', '1e308', '-0', 'setup.log\n', 'stats.json\n',
                '\x1f\x8b\x08\x00', 'kB', 'Latency Top version : v0.1',
                'slabinfo - version: 2.1', 'cpu '])
    dictionary('compare', ['\f', '\v', '\fm', '\fr', '\fj', '\fmk', '\frk', '\frf',
                           'label: ', 'subject: ', 'name: ', 'metric: ', 'from: ',
                           'to: ', 'cc: ', 'in-reply-to: ', 'prefix: ',
                           '{', '}', '[', ']', '":', ', ', 'null', 'true', '"stats_source"',
                           '1e308', '-1e308', '5e-324', '0', '-0', '1e-300', '100',
                           '.jobs-per-min', 'proc-vmstat.', 'meminfo.', 'time.',
                           'latency_stats.', 'vmstat.', '%', '\\u0000', '\\u001b',
                           '\\n', '\xc3\xa9', '\xff'] + names)
    dictionary('robot-config', YAML_TOKENS + VALUE_TOKENS + ROBOT_KEYS +
               [k + ': ' for k in ROBOT_KEYS] + ['slurm', 'local', '@', '<', '>'])
    dictionary('robot-mail', ['\x00', ', ', ',', '<', '>', '"', '\\', '@', ' ', '\t',
                              '\n', '\r', '=?UTF-8?Q?', '?=', '(', ')', ':', ';', '[', ']',
                              '\xc3\xa9', '\xe2\x80\xa6', '\xff', 'Bcc: ', '\\"',
                              'x' * 71])
    dictionary('mail', ['\x00', ', ', ',', '<', '>', '"', '\\', '@', ' ', '\t',
                        '\n', '\r', '\r\n', '=?UTF-8?Q?', '?=', '=', '_', '\xc3\xa9',
                        '\xf0\x9f\x98\x80', '\xe2\x80\xa6', '\xff', 'kdelta-',
                        '--kdelta-', 'Bcc: ', 'Subject: ', 'From: ', 'Content-Type: ',
                        '\n\n', '.', 'x' * 71])


# ---- job: the job files of the tree, and what they do not show --------

def job_seeds():
    for d, prefix in (('jobs', ''), ('testdata/job', '')):
        for name in sorted(os.listdir(os.path.join(TOP, d))):
            if name.endswith('.yaml'):
                seed('job', prefix + name[:-5], read(os.path.join(d, name)))
    seed('job', 'lists-and-documents', """\
testcase: many
runs: [1, 3]
fs: [xfs, ext4]
monitors: [proc-vmstat, meminfo]
truncate:
  file_size: [4k, 1M]
  drop_caches: [true, false]
---
fs: btrfs
""")
    seed('job', 'monitor-options', """\
monitors:
  proc-vmstat: {interval: 0.5s}
  slabinfo:
  latency_stats: ~
  time:
aim9:
  test: creat-clo
  testtime: 1s
""")
    seed('job', 'exec-script', """\
testcase: "quoted: name"
exec:
  name: 'with spaces'
  cmd: |
    echo "ops: 1"
      indented line
    trailing blanks   
  timeout: 1m
""")
    seed('job', 'exec-argv', """\
exec:
  argv: [/bin/echo, "a: 1", '', "tab\\there", "\\u00e9t\\u00e9"]
""")
    seed('job', 'aim7-lists', """\
aim7:
  test: [disk_rr, disk_rw]
  load: [1, 3000]
fs_mount_options: [noatime, '']
""")
    # lkp-tests' job-file features, written here: '{{ }}' expressions.
    seed('job', 'lkp-expressions', """\
suite: aim7
testcase: aim7
perf-profile:
  delay: 15
disk: 1BRD_4G
fs: [btrfs, ext4, xfs]
aim7:
  test:
    - {{ fs == 'btrfs' ? nil : 'disk_src' }}
    - disk_rr
  load: {{
          if fs =~ /btrfs|f2fs/
            aim7.test == 'disk_rr' ? 50 : 10
          elsif nr_cpu > 2 && !(fs == 'xfs')
            3 * nr_cpu + 1
          else
            300
          end
        }}
---
aim7:
  test: creat-clo
  load: {{ case fs
           when 'btrfs', 'f2fs' then 2
           when 'ext4' then 30
           else 150
           end }}
""")
    seed('job', 'sections-list', """\
punch:
  - {file_size: 1M, prefill: fallocate}
  - {file_size: [2M, 4M], prefill: write, punch_size: 4k}
disk: 1BRD_1G
fs: xfs
fs_mount_options: noatime,nodiratime
""")


# ---- monitor: "<name>\n" and the raw file kdelta stores ---------------

def raw(captures):
    out = b''
    for t, c in zip(TIMES, captures):
        out += b'time: %.6f\n' % t + c
    return out


def monitor_seeds():
    for monitor, capture in (('proc-vmstat', 'vmstat'), ('slabinfo', 'slabinfo'),
                             ('meminfo', 'meminfo'), ('vmstat', 'stat')):
        caps = [read('testdata/monitors/%s.%d' % (capture, i)) for i in (1, 2, 3)]
        seed('monitor', monitor, monitor.encode() + b'\n' + raw(caps))
        # A short one: the first lines of each capture, which mutate faster.
        short = [b''.join(c.splitlines(True)[:6]) for c in caps]
        seed('monitor', monitor + '-short', monitor.encode() + b'\n' + raw(short))
    lat = read('testdata/monitors/latency_stats')
    seed('monitor', 'latency_stats', b'latency_stats\n' + raw([lat]))
    seed('monitor', 'latency_stats-header-only',
         b'latency_stats\n' + raw([lat.splitlines(True)[0]]))
    seed('monitor', 'latency_stats-empty', b'latency_stats\n')
    seed('monitor', 'time', """\
time
\tCommand being timed: "creat-clo"
\tUser time (seconds): 0.123456
\tSystem time (seconds): 1.500000
\tPercent of CPU this job got: 97%
\tElapsed (wall clock) time (h:mm:ss or m:ss): 0:01.672000
\tAverage shared text size (kbytes): 0
\tMaximum resident set size (kbytes): 4096
\tMajor (requiring I/O) page faults: 0
\tMinor (reclaiming a frame) page faults: 120
\tVoluntary context switches: 3
\tInvoluntary context switches: 12
\tFile system outputs: 8
\tPage size (bytes): 4096
""")
    seed('monitor', 'time-hours', "time\n\tPercent of CPU this job got: ?%\n"
         "\tElapsed (wall clock) time (h:mm:ss or m:ss): 1:02:03.500000\n")
    labelled_monitor_seeds()
    perf_monitor_seeds()


def labelled_monitor_seeds():
    """Raw files of several sources, each after its label line."""
    for monitor, sources in (
            ('interrupts', [(None, 'interrupts')]),
            ('softirqs', [(None, 'softirqs')]),
            ('numa-meminfo', [(b'node: 0\n', 'node0-meminfo')]),
            ('numa-vmstat', [(b'node: 0\n', 'node0-vmstat')]),
            ('iostat', [(b'devices: loop0=ram0 vda\n', 'diskstats')]),
            ('pressure', [(b'resource: %s\n' % r.encode(), 'pressure-' + r)
                          for r in ('cpu', 'io', 'memory')])):
        full, short = [], []
        for i in (1, 2, 3):
            f = s = b''
            for label, capture in sources:
                c = read('testdata/monitors/%s.%d' % (capture, i))
                f += (label or b'') + c
                # The first lines, which mutate faster (a header kept).
                s += (label or b'') + b''.join(c.splitlines(True)[:4])
            full.append(f)
            short.append(s)
        seed('monitor', monitor, monitor.encode() + b'\n' + raw(full))
        seed('monitor', monitor + '-short', monitor.encode() + b'\n' + raw(short))


def perf_monitor_seeds():
    """perf's own text: perf stat's output, perf report's (its head)."""
    for name in ('perf-stat', 'perf-stat-pmu'):
        seed('monitor', name, b'perf-stat\n' + read('testdata/monitors/' + name))
    import gzip
    report = gzip.decompress(read('testdata/monitors/perf-profile.gz'))
    head = b''.join(report.splitlines(True)[:120])
    seed('monitor', 'perf-profile', b'perf-profile\n' + head)


# ---- stats: a run directory, "name\n" and content per file, '\f' between -

def stats_seeds():
    files = []
    for monitor, capture in (('proc-vmstat', 'vmstat'), ('slabinfo', 'slabinfo'),
                             ('meminfo', 'meminfo'), ('vmstat', 'stat')):
        caps = [b''.join(read('testdata/monitors/%s.%d' % (capture, i)).splitlines(True)[:8])
                for i in (1, 2, 3)]
        files.append(monitor.encode() + b'.gz\n' + raw(caps))
    files.append(b'latency_stats.gz\n' + raw([read('testdata/monitors/latency_stats')]))
    files.append(b'time.gz\n\tUser time (seconds): 0.5\n\tSystem time (seconds): 1.25\n'
                 b'\tElapsed (wall clock) time (h:mm:ss or m:ss): 0:02.000000\n')
    files.append(b'exec.log\nops: 5\nops_per_sec: 1e3\nnote: not a number\ntwo words: 7\n'
                 b'nan: nan\ncrlf: 3\r\n')
    files.append(b'setup.log\nbuilt: 1\n')
    seed('stats', 'run', b'\f'.join(files))
    seed('stats', 'log-only', b'aim7.log\njobs-per-min: 96583.4\n')
    seed('stats', 'plain-gz', b'meminfo.gz\n\x1f\x8b\x08\x00garbage')


# ---- compare: options byte and header, then variants ------------------

FF, VT = '\f', '\v'


def matrix(rows, runs):
    d = dict(rows)
    d['stats_source'] = ['/result/run/%d/stats.json' % i for i in range(runs)]
    return 'm' + json.dumps(d)


def runs(stats, marks='k'):
    parts = []
    for i, s in enumerate(stats):
        parts.append(marks[i % len(marks)] + json.dumps(s))
    return 'r' + VT.join(parts)


def options(byte, text):
    """The options byte (not UTF-8 encoded), then the rest as UTF-8."""
    return bytes([byte]) + text.encode()


def compare_seeds():
    base = {'aim7.jobs-per-min': [96583.4, 96813.2, 96411.9],
            'proc-vmstat.pgfree': [1.2e6, 1.21e6, 1.19e6],
            'meminfo.MemFree': [2.1e7, 2.2e7, 2.15e7],
            'time.user_time': [1.5, 1.52, 1.49]}
    slow = {'aim7.jobs-per-min': [83421.0, 83622.5, 83330.1],
            'proc-vmstat.pgfree': [1.5e6, 1.52e6, 1.49e6],
            'meminfo.MemFree': [2.1e7, 2.2e7, 2.15e7],
            'time.user_time': [1.8, 1.79, 1.83]}
    job = 'jtestcase: aim7\naim7:\n  test: disk_wrt\n  load: 3000\nfs: xfs\n' \
          'disk: 1BRD_48G\nmachine:\n  cpu_model: Xeon\n  nr_cpu: 2\n  memory_human: 24G\n'
    header = 'label: v6.1\nlabel: v6.2\nsubject: base\nsubject: xfs: slower\n' \
             'to: linux-xfs@vger.kernel.org, me@example.org\ncc: you@example.org\n'
    seed('compare', 'matrices', options(0, header + FF + matrix(base, 3) + FF +
                                        matrix(slow, 3) + FF + job))
    for opt, name in ((1, 'mwu'), (2, 'lkp'), (0xc4, 'all-twice-always')):
        seed('compare', 'matrices-' + name, options(opt, header + FF + matrix(base, 3) +
                                                    FF + matrix(slow, 3) + FF + job))
    stats = lambda m: [{k: v[i] for k, v in m.items()} for i in range(3)]
    seed('compare', 'runs', options(0, header + FF + runs(stats(base)) + FF +
                                    runs(stats(slow), 'kkf') + FF + job))
    # Three variants, absent metrics, nulls, a constant, a percentage.
    third = {'aim7.jobs-per-min': [None, 90000, 90001],
             'proc-vmstat.pgfree': [0, 0, 0],
             'vmstat.cpu.idle%': [50.0, 51.0, 49.5],
             'latency_stats.max.max': [1e308, -1e308, 0]}
    seed('compare', 'three-variants', options(4, 'label: a\nlabel: b\nlabel: c\n' + FF +
                                              matrix(base, 3) + FF + matrix(slow, 3) +
                                              FF + matrix(third, 3)))
    # Two runs only; one run; the rows of seed 002's table.
    seed('compare', 'few-runs', options(0, FF + runs(stats(base)[:2], 'n') + FF +
                                        runs(stats(slow)[:1], 'k')))
    seed('compare', 'tiny-values', options(0x40, 'metric: tiny\n' + FF +
                                           'm{"tiny": [5e-324, 5e-324, 5e-324]}' + FF +
                                           'm{"tiny": [5e-324, 5e-324, 5e-324]}'))
    seed('compare', 'control-characters',
         options(0xc0, 'label: a\x1b[31m\nlabel: b\r\n'
                 'name: group\twith\ttabs\nsubject: line\nprefix: [PATCH]\n' + FF +
                 'm{"bad\\nname": [1, 2, 3], "esc\\u001b": [1, 1, 1]}' + FF +
                 'm{"bad\\nname": [4, 5, 6], "esc\\u001b": [2, 2, 2]}'))


# ---- params: job.yaml as stored with results --------------------------

def params_seeds():
    seed('params', 'kdelta', """\
testcase: aim7
runs: 3
fs: xfs
disk: 1BRD_48G
aim7:
  test: disk_wrt
  load: 3000
monitors:
  proc-vmstat:
    interval: 1s
commit: v6.2
host: lkp-box
machine:
  cpu_model: Intel Xeon
  nr_cpu: 2
kdelta:
  version: 0.1.0
""")
    seed('params', 'lkp', """\
---
suite: aim9
testcase: aim9
category: benchmark
aim9:
  test: creat-clo
  testtime: 300s
testbox: lkp-wsx02
tbox_group: lkp-wsx02
kconfig: x86_64-rhel
compiler: gcc-4.9
rootfs: debian-x86_64-2015-02-07.cgz
commit: 7fcd73e1e79a0e5d5d1cda2a0f0c1d5b8f8a9e2c
enqueue_time: 2015-02-10 10:00:00.000000000 +08:00
""")
    seed('params', 'taken-keys', """\
test: top
a:
  test: one
b:
  test: two
  load: 5
c: [1, 2]
d: {}
""")
    seed('params', 'not-a-map', "- a\n- b\n")
    seed('params', 'documents', "a: 1\n---\nb: 2\n")


# ---- mail: fields separated by NUL ------------------------------------

def mail(*fields):
    return '\x00'.join(fields)


def mail_seeds():
    body = 'FYI, we noticed a -13.6% regression of aim7.jobs_per_min\n\n' \
           '     96583 \u00b1  0%     -13.6%      83421 \u00b1  0%  aim7.jobs_per_min\n'
    seed('mail', 'report', mail('kdelta <kdelta@lkp-box>',
                                'linux-xfs@vger.kernel.org, Me <me@example.org>',
                                'J\u00fcrgen M\u00fcller <jm@example.org>',
                                '[kdelta] -13.6% regression of aim7.jobs_per_min',
                                '<20261130.1234@example.org>', 'lkp-box', body,
                                'aim7.yaml', 'testcase: aim7\naim7:\n  test: disk_wrt\n'))
    seed('mail', 'long-words', mail('a@b.c', 'x' * 100 + '@example.org',
                                    '', 'word ' * 30 + 'y' * 90, '', 'host',
                                    'line\r\nwith CR\x01 and a ' + 'long ' * 300,
                                    'a"b\\c.txt', 'x=y\n' * 3))


# ---- robot-config: kdelta-robot(5) ----------------------------------------

ROBOT_MINIMAL = 'repository: repo\nbranches: [main]\njobs: job.yaml\nbuild: make\n'


def robot_config_seeds():
    """The example of kdelta-robot(5) and the configurations of
    tests/robot/, as they would be written, and a few edges."""
    seed('robot-config', 'minimal', ROBOT_MINIMAL)
    seed('robot-config', 'man-example',
         'repository: /srv/robot/linux\n'
         'branches:\n'
         '  - branch: origin/for-next\n'
         '    base: origin/master\n'
         '  - origin/fixes\n'
         'jobs: [/srv/robot/jobs/creat-clo.yaml]\n'
         'build: make -j8 M=fs/xfs modules && (rmmod xfs; insmod fs/xfs/xfs.ko)\n'
         'runs: 5\n'
         'interval: 30m\n'
         'mail:\n'
         '  from: kdelta robot <robot@example.org>\n'
         '  to: [fs-perf@example.org]\n'
         '  cc: linux-fsdevel@vger.kernel.org\n'
         'executor: slurm\n'
         'slurm:\n'
         '  partition: perf\n'
         '  account: fs-perf\n'
         '  constraint: nvme\n')
    seed('robot-config', 'test-pass',
         'repository: repo\n'
         'branches:\n'
         '  - branch: main\n'
         '    base: stable\n'
         '  - broken\n'
         '  - {branch: next, base: parent}\n'
         'jobs: [job.yaml, other.yaml]\n'
         'build: cc -O2 -o bench bench.c && cp bench /t/bin/bench\n'
         'runs: 3\nmax-runs: 10\nmin-change: 2.5\n'
         'result-root: results\nwork-dir: work\nstate: /var/robot.db\n'
         'interval: 1h\n'
         'mail:\n'
         '  from: kdelta robot <robot@example.org>\n'
         '  to: [dev@example.org, \'"Dev, Team" <team@example.org>\']\n'
         '  author: false\n'
         '  sendmail: msmtp -C /t/msmtprc -t -i\n'
         'executor: slurm\n'
         'slurm:\n'
         '  partition: kdelta-test\n  kdelta: /usr/bin/kdelta\n'
         '  job-dir: /srv/results/.kdelta/slurm\n  work-dir: /var/lib/kdelta/work\n'
         '  poll: 0.3s\n  timeout: 2m\n')
    seed('robot-config', 'errors',
         ROBOT_MINIMAL + 'runs: 1\nmax-runs: 1001\ninterval: 0\nmin-change: -1\n'
         'mail: {to: "Last, First <f@l.org>", from: "a@b, c@d", too: x}\n'
         'executor: cloud\nslurm: {poll: 0}\n')
    seed('robot-config', 'yaml-edges',
         '--- \nrepository: &r repo\nbranches: [*r]\njobs: {a: 1}\n'
         'build: [make]\n...\n---\nbuild: x\n')


ROBOT_KEYS = ['repository', 'branches', 'branch', 'base', 'parent', 'jobs',
              'build', 'runs', 'max-runs', 'min-change', 'result-root', 'work-dir',
              'state', 'interval', 'mail', 'from', 'to', 'cc', 'author', 'sendmail',
              'executor', 'local', 'slurm', 'partition', 'account', 'constraint',
              'kdelta', 'job-dir', 'poll', 'timeout']


# ---- robot-mail: the robot's mail headers ------------------------------

def robot_mail(*fields):
    return '\0'.join(fields)


def robot_mail_seeds():
    seed('robot-mail', 'plain', robot_mail('Jan Kara', 'jack@suse.cz',
                                           'linux-xfs@vger.kernel.org, Me <me@example.org>',
                                           'lkp@example.org', 'kdelta robot <robot@example.org>',
                                           '[kdelta] commit 7: -13.6% regression'))
    seed('robot-mail', 'hostile-name', robot_mail('Evil, victim@example.net, "q <x@evil.example>',
                                                  'author@example.org', '"Dev, Team" <dev@example.org>',
                                                  '', '', 'subject'))
    seed('robot-mail', 'utf8-name', robot_mail('J\u00fcrgen M\u00fcller, Jr.',
                                               'jm@example.org', 'JM@EXAMPLE.ORG', 'jm@example.org',
                                               'R\u00f6bot <r@example.org>', '\u00fcber'))
    seed('robot-mail', 'bad-address', robot_mail('x', 'a@b>, c@d', 'dev@example.org', ' , ',
                                                 'not an address', 'x'))
    seed('robot-mail', 'long', robot_mail('word ' * 40 + 'y' * 90, 'a' * 100 + '@example.org',
                                          ', '.join('u%d@example.org' % i for i in range(20)),
                                          '', '', 'long ' * 50))


def remove_seeds():
    """The seeds are this script's: those of job files gone go too."""
    for path in glob.glob(os.path.join(TOP, 'testdata', 'fuzz', '*', 'corpus', 'seed-*')):
        os.remove(path)


def main():
    remove_seeds()
    dictionaries()
    job_seeds()
    monitor_seeds()
    stats_seeds()
    compare_seeds()
    params_seeds()
    mail_seeds()
    robot_config_seeds()
    robot_mail_seeds()


if __name__ == '__main__':
    sys.exit(main())
