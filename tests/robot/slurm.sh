# shellcheck shell=bash
# A private single-node Slurm cluster for a test (source it, then
# start_slurm DIR): munged with its own key and socket, slurmctld and
# slurmd from Debian's slurm-wlm with a slurm.conf generated in DIR, on
# ports of their own, so that nothing collides with a cluster already
# running here.  The node is named after this machine (uname -n), so that
# the node is the runs' host.  SLURM_CONF is exported for the Slurm
# commands; stop_slurm cancels the cluster's jobs and stops the daemons by
# PID.  Skips the test when not root or the packages are missing.

start_slurm() {
	local dir=$1 prog port i
	[ "$(id -u)" = 0 ] || skip "not root: a private Slurm cluster needs root"
	for prog in munged slurmctld slurmd sbatch squeue scancel sinfo; do
		command -v "$prog" >/dev/null || [ -x "/usr/sbin/$prog" ] ||
			skip "$prog is not installed (Debian: munge, slurm-wlm)"
	done
	PATH=$PATH:/usr/sbin
	mkdir -p "$dir/munge" "$dir/ctld" "$dir/spool" "$dir/log"
	chmod 700 "$dir" "$dir/munge"
	head -c 1024 /dev/urandom >"$dir/munge/munge.key"
	chmod 400 "$dir/munge/munge.key"
	mkdir -p /run/munge	# munged wants it, whatever its socket
	munged --force --socket="$dir/munge/sock" \
		--key-file="$dir/munge/munge.key" --pid-file="$dir/munge/pid" \
		--log-file="$dir/munge/log" --seed-file="$dir/munge/seed" ||
		skip "munged does not start: $(cat "$dir/munge/log" 2>/dev/null)"
	port=$((20000 + RANDOM % 30000))
	cat >"$dir/slurm.conf" <<EOF
ClusterName=kdelta-test
SlurmctldHost=localhost
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$dir/munge/sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/ctld
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/ctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SchedulerType=sched/builtin
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
ReturnToService=2
NodeName=$(uname -n) NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=kdelta-test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
	export SLURM_CONF=$dir/slurm.conf
	SLURM_DIR=$dir
	slurmctld -f "$SLURM_CONF" -i || skip "slurmctld does not start"
	slurmd -f "$SLURM_CONF" -N "$(uname -n)" || skip "slurmd does not start"
	for ((i = 0; i < 200; i++)); do
		[ "$(sinfo -h -o %T 2>/dev/null)" = idle ] && return 0
		sleep 0.1
	done
	skip "the private Slurm cluster did not come up: $(tail -n 3 "$dir"/log/*.log)"
}

stop_slurm() {
	local dir=$SLURM_DIR i f
	[ -n "${dir:-}" ] || return 0
	scancel --full -u root 2>/dev/null
	for ((i = 0; i < 100; i++)); do
		[ -z "$(squeue -h 2>/dev/null)" ] && break
		sleep 0.1
	done
	local -a pids=()
	for f in "$dir/slurmd.pid" "$dir/ctld.pid" "$dir/munge/pid"; do
		[ -s "$f" ] && pids+=("$(cat "$f")")
	done
	for f in "${pids[@]}"; do
		kill "$f" 2>/dev/null
	done
	# Gone before the test's directory is removed under them.
	for f in "${pids[@]}"; do
		gone "$f" || kill -9 "$f" 2>/dev/null
	done
	SLURM_DIR=
}
