#!/bin/bash
# kdelta run with two commits and a setup hook, through to matrix.json.gz:
# the store's shape, run numbering, rounds of both commits, the machine
# record, stats.json's metrics, latency_stats unavailable, the log lines.
. "$TESTLIB"
# Whatever a test forgets to say, nothing goes outside $T.
export KDELTA_RESULT_ROOT="$T/default-root"
command -v python3 >/dev/null || skip "python3 is needed to read the JSON"

cat >"$T/job.yaml" <<'EOF'
testcase: tiny
aim9:
  test: creat-clo
  testtime: 0.3s
EOF
"$KDELTA" run "$T/job.yaml" --commits base,test --runs 3 \
	--result-root "$T/r" --work-dir "$T/w" \
	--setup "echo {commit} \$KDELTA_COMMIT >>'$T/setup.log'" \
	>"$T/stdout" 2>"$T/stderr"
status=$?
[ "$status" = 0 ] || fail "exit status $status, want 0: $(cat "$T/stderr")"
[ -s "$T/stdout" ] && fail "printed on stdout: $(cat "$T/stdout")"

# One log line per finished run, without a terminal.
grep -c '^kdelta: \[[1-6]/6\] .*/\(base\|test\) run [1-3]/3: ok, [0-9.]*s, aim9\.creat-clo\.ops_per_sec: ' \
	"$T/stderr" | grep -qx 6 || fail "log lines: $(cat "$T/stderr")"
grep -q '^kdelta: 6 run(s) ok, 0 failed; results in ' "$T/stderr" ||
	fail "no summary line"
[ "$(grep -c 'latency_stats unavailable' "$T/stderr")" = 1 ] ||
	fail "latency_stats notice not printed exactly once"

# The setup hook ran before each run, in rounds of both commits.
[ "$(wc -l <"$T/setup.log")" = 6 ] || fail "setup hook runs: $(cat "$T/setup.log")"
for round in 1 3 5; do
	sed -n "${round},$((round + 1))p" "$T/setup.log" | sort | tr '\n' ' ' |
		grep -qx 'base base test test ' ||
		fail "setup hook round at line $round: $(cat "$T/setup.log")"
done

# Nothing is left in the work directory.
# The work directory keeps only its lock file.
[ "$(ls -A "$T/w")" = kdelta.lock ] || fail "work dir not cleaned: $(ls -A "$T/w")"

python3 - "$T/r" <<'PY' || fail "store checks"
import glob, gzip, json, os, sys
root = sys.argv[1]
errors = []
def check(cond, what):
    if not cond:
        errors.append(what)

hosts = glob.glob(os.path.join(root, "tiny", "*", "*"))
check(len(hosts) == 1, f"one <param-dir>/<host>, got {hosts}")
host = hosts[0]
starts = []
for commit in ("base", "test"):
    cdir = os.path.join(host, commit)
    check(sorted(os.listdir(cdir)) == ["0", "1", "2", "matrix.json.gz"],
          f"{cdir}: {sorted(os.listdir(cdir))}")
    for run in range(3):
        rdir = os.path.join(cdir, str(run))
        files = set(os.listdir(rdir))
        for f in ("job.yaml", "stats.json", "complete", "aim9.log",
                  "aim9.stderr", "proc-vmstat.gz", "time.gz"):
            check(f in files, f"{rdir}: no {f}")
        check(open(os.path.join(rdir, "complete")).read() == "ok\n",
              f"{rdir}: not ok")
        job = open(os.path.join(rdir, "job.yaml")).read()
        for key in ("commit: " + commit, "host:", "machine:", "hostname:",
                    "cpu_model:", "nr_cpu:", "memory:", "memory_human:",
                    "kernel_release:", "kernel_version:", "kdelta:",
                    "version:", "start_time:", "unavailable_monitors:",
                    "- latency_stats"):
            check(key in job, f"{rdir}/job.yaml: no '{key}'")
        start = [l for l in job.splitlines() if "start_time:" in l][0]
        starts.append((float(start.split(":")[1].strip(" '\"")), commit, run))
        stats = json.load(open(os.path.join(rdir, "stats.json")))
        def count(prefix):
            return sum(1 for k in stats if k.startswith(prefix))
        check(count("proc-vmstat.") >= 100, f"{rdir}: proc-vmstat {count('proc-vmstat.')}")
        check(count("slabinfo.") >= 50, f"{rdir}: slabinfo {count('slabinfo.')}")
        for p in ("time.", "vmstat.", "meminfo."):
            check(count(p) > 0, f"{rdir}: no {p} metrics")
        check(stats.get("aim9.creat-clo.ops_per_sec", 0) > 0, f"{rdir}: no ops_per_sec")
        check(not any(k.startswith("latency_stats.") for k in stats),
              f"{rdir}: latency_stats metrics")
    m = json.load(gzip.open(os.path.join(cdir, "matrix.json.gz")))
    check(m["stats_source"] == [os.path.join(cdir, str(r), "stats.json") for r in range(3)],
          f"{cdir}: stats_source {m['stats_source']}")
    check(len(m["aim9.creat-clo.ops_per_sec"]) == 3, f"{cdir}: matrix column")
    check(all(len(v) == 3 for v in m.values()), f"{cdir}: ragged matrix")
order = [(c, r) for _, c, r in sorted(starts)]
rounds = [sorted(order[i:i + 2]) for i in range(0, 6, 2)]
want = [[("base", r), ("test", r)] for r in range(3)]
check(rounds == want, f"run order {order}")
for e in errors:
    print("FAIL:", e, file=sys.stderr)
sys.exit(1 if errors else 0)
PY

# More runs continue the numbering; --warmup runs are not stored.
"$KDELTA" run "$T/job.yaml" --commit base --runs 1 --warmup 1 \
	--result-root "$T/r" --work-dir "$T/w" 2>"$T/stderr" ||
	fail "second batch: $(cat "$T/stderr")"
grep -q '^kdelta: \[1/2\] .*/base warmup 1/1: ok' "$T/stderr" ||
	fail "no warmup line: $(cat "$T/stderr")"
ls "$T"/r/tiny/*/*/base | tr '\n' ' ' | grep -qx '0 1 2 3 matrix.json.gz ' ||
	fail "numbering after a second batch: $(ls "$T"/r/tiny/*/*/base)"
[ "$(ls -A "$T/w")" = kdelta.lock ] || fail "warmup left files: $(ls -A "$T/w")"
finish
