# shellcheck shell=bash
# Store generators for the compare tests: commit directories in the shape of
# include/kdelta/store.h, written directly, without the runner.

# store_commit DIR JOB METRIC=V0,V1,... ...: DIR gets one run directory per
# value (job.yaml = JOB, stats.json, complete "ok") and matrix.json.gz.  A
# value "null" leaves the metric out of that run.
store_commit() {
	local dir=$1 job=$2 spec name values i n=0
	local -a names=() rows=()
	shift 2
	for spec in "$@"; do
		names+=("${spec%%=*}")
		rows+=("${spec#*=}")
		IFS=, read -ra values <<<"${spec#*=}"
		n=${#values[@]}
	done
	mkdir -p "$dir"
	for ((i = 0; i < n; i++)); do
		mkdir -p "$dir/$i"
		printf '%s\n' "$job" >"$dir/$i/job.yaml"
		{
			printf '{'
			local sep='' k
			for k in "${!names[@]}"; do
				IFS=, read -ra values <<<"${rows[$k]}"
				[ "${values[$i]}" = null ] && continue
				printf '%s"%s": %s' "$sep" "${names[$k]}" "${values[$i]}"
				sep=', '
			done
			printf '}\n'
		} >"$dir/$i/stats.json"
		echo ok >"$dir/$i/complete"
	done
	{
		printf '{'
		for k in "${!names[@]}"; do
			printf '"%s": [%s], ' "${names[$k]}" "${rows[$k]}"
		done
		printf '"stats_source": ['
		for ((i = 0; i < n; i++)); do
			printf '%s"%s/%s/stats.json"' "$([ $i -gt 0 ] && echo ,)" "$dir" "$i"
		done
		printf ']}\n'
	} | gzip -n >"$dir/matrix.json.gz"
}

# store_failed_run DIR N REASON: a failed run; store_incomplete_run DIR N: a
# run directory never marked complete; store_interrupted_run DIR N: one
# marked interrupted (kdelta killed in it).
store_failed_run() {
	mkdir -p "$1/$2"
	echo "failed: $3" >"$1/$2/complete"
}

store_interrupted_run() {
	mkdir -p "$1/$2"
	echo "interrupted: kdelta (pid 42) was killed; marked by the next start" >"$1/$2/complete"
}

store_incomplete_run() {
	mkdir -p "$1/$2"
	echo '{}' >"$1/$2/stats.json"
}
