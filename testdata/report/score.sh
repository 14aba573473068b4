# Prints "jobs_per_min: N" for score.yaml: 1000 (900 when the commit in
# $REPORT_TEST_DIR/commit is listed in $REPORT_TEST_DIR/slower) plus 0, 4
# or 8 by run, so that each commit's samples vary but never overlap.
d=$REPORT_TEST_DIR
c=$(cat "$d/commit")
n=$(( $(cat "$d/count-$c" 2>/dev/null || echo 0) + 1 ))
echo "$n" >"$d/count-$c"
base=1000
grep -qx "$c" "$d/slower" 2>/dev/null && base=900
echo "jobs_per_min: $(( base + n % 3 * 4 ))"
echo "files: 100"
