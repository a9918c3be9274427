# A throwaway one-node Slurm cluster on loopback, for the sweep test (.ci/slurm-sweep.sh) and benchmark
# (Benchmarks/slurm-sweep.sh). Source it; it defines functions only. Needs root (slurmd starts jobs as the
# submitting user; munged runs as the munge user).
#
# Everything lives in one mktemp directory (config, munge key and socket, state, spool, logs, pid files): munged
# listens on a private socket, so a system munged does not matter. The directory records its owner's pid; a
# later slurm_up stops the daemons of a directory whose owner died (a killed run) by their pid files and removes
# it. Ports: SLURMCTLD_PORT and SLURMD_PORT, or else the first free pair from 6817/6818 up, so a foreign daemon
# or a concurrent run on 6817 does not stop this one.
#
# Settings (docs: the Slurm single-node recipe these were measured from): proctrack/linuxproc (the default
# cgroup plugin drains the node where the freezer cgroup is missing), select/cons_tres with CR_Core (the default
# select/linear runs one job per node), no scheduling delay.

slurm_cluster_prefix=${TMPDIR:-/tmp}/jetsim-slurm.

# Succeeds when slurmctld, slurmd, sbatch and munged are there, installing them with apt-get (the minimal set,
# about 3 MiB) when missing and possible; fails with a reason on stderr when this machine cannot run the cluster.
slurm_install() {
    if [ "$(id -u)" != 0 ]; then
        echo "not root (slurmd and munged need root)" >&2; return 1
    fi
    if command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v sbatch >/dev/null \
        && [ -x /usr/sbin/munged ]; then
        return 0
    fi
    if ! command -v apt-get >/dev/null; then
        echo "Slurm is not installed and apt-get is unavailable" >&2; return 1
    fi
    DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
        slurmctld slurmd slurm-client munge >/dev/null
}

# A pid's process is gone: exited, or a zombie waiting for its parent (PID 1 here reaps late).
_slurm_gone() {
    ! kill -0 "$1" 2>/dev/null || [ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" = Z ]
}

# Stops the daemon whose pid file is $1 when that pid still runs the program $2 (not a reused pid), waiting up
# to 5 s for it to end, then killing it.
_slurm_stop_pidfile() {
    local pid
    [ -s "$1" ] || return 0
    pid=$(cat "$1")
    [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$2" ] || return 0
    kill "$pid" 2>/dev/null || return 0
    for _ in $(seq 50); do _slurm_gone "$pid" && return 0; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
}

_slurm_stop_daemons() { # $1: cluster directory
    _slurm_stop_pidfile "$1/slurmd.pid" slurmd
    _slurm_stop_pidfile "$1/slurmctld.pid" slurmctld
    _slurm_stop_pidfile "$1/munge/munged.pid" munged
}

# Stops the daemons of earlier clusters whose owner process is gone, and removes their directories.
_slurm_reap_leftovers() {
    local dir owner
    for dir in "$slurm_cluster_prefix"*; do
        [ -d "$dir" ] || continue
        owner=$(cat "$dir/owner" 2>/dev/null || echo 0)
        if [ "$owner" != 0 ] && kill -0 "$owner" 2>/dev/null; then continue; fi
        echo "slurm-cluster: stopping the leftovers of a dead run in $dir" >&2
        _slurm_stop_daemons "$dir"
        rm -rf "$dir"
    done
}

_slurm_port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# Starts munged, slurmctld and slurmd in a new directory (SLURM_CLUSTER_DIR) and waits until the node is idle;
# exports SLURM_CONF, which every Slurm command reads. The caller stops it with slurm_down (an EXIT trap).
slurm_up() {
    _slurm_reap_leftovers
    SLURM_CLUSTER_DIR=$(mktemp -d "${slurm_cluster_prefix}XXXXXX")
    local dir=$SLURM_CLUSTER_DIR ctld=${SLURMCTLD_PORT:-} d=${SLURMD_PORT:-} port
    echo "${SLURM_CLUSTER_OWNER:-$$}" > "$dir/owner"
    chmod 0755 "$dir"
    if [ -z "$ctld" ] || [ -z "$d" ]; then
        for port in $(seq 6817 2 6857); do
            if _slurm_port_free "$port" && _slurm_port_free $((port + 1)); then ctld=$port d=$((port + 1)); break; fi
        done
        [ -n "$ctld" ] || { echo "slurm-cluster: no free port pair in 6817-6858" >&2; return 1; }
    fi
    mkdir -p "$dir"/{munge,state,spool,log}
    chown munge:munge "$dir/munge"; chmod 0755 "$dir/munge"
    dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
    chown munge:munge "$dir/munge/munge.key"; chmod 0400 "$dir/munge/munge.key"
    export SLURM_CONF=$dir/slurm.conf
    cat > "$SLURM_CONF" <<EOF
ClusterName=jetsim
SlurmctldHost=localhost
SlurmctldPort=$ctld
SlurmdPort=$d
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket.2
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
MinJobAge=300
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=sweep Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
    runuser -u munge -- /usr/sbin/munged --socket="$dir/munge/munge.socket.2" --key-file="$dir/munge/munge.key" \
        --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/munged.seed"
    slurmctld -f "$SLURM_CONF"
    slurmd -f "$SLURM_CONF" -N localhost
    for _ in $(seq 100); do
        [ "$(sinfo -h -o %T 2>/dev/null)" = idle ] && return 0
        sleep 0.2
    done
    echo "slurm-cluster: the node did not become idle in 20 s (ports $ctld/$d)" >&2
    slurm_logs
    return 1
}

# The daemons' last log lines (for a failure).
slurm_logs() {
    local f
    for f in "$SLURM_CLUSTER_DIR"/log/*.log "$SLURM_CLUSTER_DIR"/munge/munged.log; do
        [ -s "$f" ] && { echo "--- ${f##*/}"; tail -n 15 "$f"; }
    done >&2
}

# Cancels every job, stops the daemons and removes the cluster directory. Safe to call twice or before slurm_up.
slurm_down() {
    local dir=${SLURM_CLUSTER_DIR:-}
    [ -n "$dir" ] && [ -d "$dir" ] || return 0
    if [ -s "$dir/slurmctld.pid" ]; then
        squeue -h -o %A 2>/dev/null | sort -u | xargs -r scancel --quiet 2>/dev/null || true
        for _ in $(seq 20); do squeue -h 2>/dev/null | grep -q . || break; sleep 0.25; done
    fi
    _slurm_stop_daemons "$dir"
    rm -rf "$dir"
    SLURM_CLUSTER_DIR=
}

# Waits for array job $1 of $2 tasks to leave the queue (deadline $3 seconds, default 90; past it the job is
# cancelled and this returns 124), and checks that each task ended COMPLETED. Prints the failed tasks' ids on
# stdout (none: nothing) and returns 1 when there are any or a task's end was not seen. Task states are read
# with scontrol at every poll, not only at the end: a finished task's record is purged MinJobAge after its end,
# which a long sweep's first tasks can outlive (there is no accounting database for sacct).
slurm_wait_array() {
    local jid=$1 tasks=$2 deadline=$((SECONDS + ${3:-90})) id st bad queued
    local -A state=()
    while :; do
        queued=$(squeue -h -j "$jid" 2>/dev/null | grep -c . || true)
        while read -r id st; do state[$id]=$st; done < <(scontrol -o show job "$jid" 2>/dev/null \
            | sed -n 's/.*ArrayTaskId=\([0-9]*\) .*JobState=\([A-Z_]*\).*/\1 \2/p')
        [ "$queued" != 0 ] || break
        if [ "$SECONDS" -ge "$deadline" ]; then
            echo "slurm-cluster: job $jid still running after ${3:-90} s: cancelled" >&2
            scancel "$jid" 2>/dev/null || true
            return 124
        fi
        sleep 0.5
    done
    if [ "${#state[@]}" != "$tasks" ]; then
        echo "slurm-cluster: job $jid: saw the end of ${#state[@]} of its $tasks tasks" >&2
        return 1
    fi
    bad=$(for id in "${!state[@]}"; do [ "${state[$id]}" = COMPLETED ] || echo "$id"; done | sort -n | tr '\n' ' ')
    printf '%s' "${bad% }"
    [ -z "$bad" ]
}
