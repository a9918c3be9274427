#!/usr/bin/env bash
# Sharded sweep on a real one-node Slurm cluster (README: "Sweeps beyond one machine"), as root, on loopback:
#   (a) the unsharded `jetsim compare` of Examples/slurm/grid.args;
#   (b) the same grid as a 4-task array of Examples/slurm/sweep.sbatch, every task COMPLETED, then `jetsim merge`
#       on this host: every report byte-identical to (a), manifest.json apart from its "invocation" block;
#   (c) a sweep whose shard 2 fails: the task is reported failed, `jetsim merge` refuses (exit 65, naming the
#       missing cells and the command that reruns shard 2) and writes nothing; the rerun of that one task
#       (SHARDS=4 sbatch --array=2) completes it and the merge equals (a);
#   (d) a shard directory of (b) deleted: merge refuses it, the rerun command its message prints restores it.
# Installs slurmctld, slurmd, slurm-client and munge when missing (apt-get); skips (exit 0) where that is
# impossible (not root, or no Slurm and no apt-get). The cluster (.ci/slurm-cluster.sh) lives in a temporary
# directory and is stopped on every exit. JETSIM: the binary (default .build/release/jetsim, built beforehand).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
JETSIM=${JETSIM:-.build/release/jetsim}
case $JETSIM in /*) ;; *) JETSIM=$root/$JETSIM ;; esac
grid_file=$root/Examples/slurm/grid.args
sbatch_script=$root/Examples/slurm/sweep.sbatch
shards=4
# shellcheck source=.ci/slurm-cluster.sh
source .ci/slurm-cluster.sh

[ -x "$JETSIM" ] || { echo "slurm-sweep: no executable $JETSIM (swift build -c release first)"; exit 1; }
if ! why=$(slurm_install 2>&1); then
    echo "slurm-sweep: skipped: $why"; exit 0
fi

work=  # in the cluster's directory, so that slurm_down (or the reaping of a killed run's cluster) removes it
finish() {
    local rc=$?
    if [ "$rc" != 0 ] && [ -n "${SLURM_CLUSTER_DIR:-}" ]; then
        slurm_logs
        for f in "$work"/log/*; do [ -s "$f" ] && { echo "--- ${f##*/}"; tail -n 20 "$f"; }; done >&2
    fi
    slurm_down
    exit "$rc"
}
trap finish EXIT
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
fail() { echo "slurm-sweep: FAIL: $*" >&2; exit 1; }

# manifest.json without its "invocation" block (pretty-printed, two-space indent: `  "invocation" : {` to `  }`).
strip_invocation() {
    grep -q '^  "invocation" : {$' "$1" || fail "$1 has no \"invocation\" block"
    awk '/^  "invocation" : \{$/ { skip = 1; next } skip && /^  \},?$/ { skip = 0; next } !skip' "$1"
}
# Fails unless report directories $1 and $2 hold the same files with the same bytes (manifests: apart from
# the invocation).
same_reports() {
    diff -r --exclude=manifest.json "$1" "$2" >&2 || fail "$2 differs from $1"
    diff <(strip_invocation "$1/manifest.json") <(strip_invocation "$2/manifest.json") >&2 \
        || fail "$2/manifest.json differs from $1's beyond the invocation"
}
# Submits tasks $2 (an --array spec) of sweep.sbatch into sweep directory $1; extra environment as "$@" after.
submit() {
    local sweep=$1 array=$2
    shift 2
    env GRID="$grid_file" SWEEP="$sweep" JETSIM="$JETSIM" "$@" \
        sbatch --parsable --array="$array" --chdir="$root" -o "$work/log/${sweep##*/}-%a.out" "$sbatch_script"
}
merge() { # $1 sweep directory (its shard directories that exist, as merge.sbatch), $2 output; stderr: $work/merge.err
    "$JETSIM" merge "$1"/[0-9]* --out "$2" --quiet 2> "$work/merge.err"
}

t=$(now); slurm_up; up_s=$(since "$t")
work=$SLURM_CLUSTER_DIR/work
mkdir -p "$work/log"
echo "slurm-sweep: one-node cluster up in $up_s s ($(nproc) CPUs)"

mapfile -t grid < <(grep -Ev '^[[:space:]]*(#|$)' "$grid_file")
t=$(now); "$JETSIM" compare "${grid[@]}" --out "$work/single"; single_s=$(since "$t")
echo "slurm-sweep: (a) unsharded compare: $single_s s, $(ls "$work/single" | wc -l) files"

# (b) the sweep
t=$(now)
jid=$(submit "$work/sweep" "0-$((shards - 1))")
failed=$(slurm_wait_array "$jid" "$shards") || fail "sweep job $jid: tasks not COMPLETED: ${failed:-?}"
sweep_s=$(since "$t")
for ((k = 0; k < shards; k++)); do [ -s "$work/sweep/$k/shard.json" ] || fail "no $work/sweep/$k/shard.json"; done
t=$(now); merge "$work/sweep" "$work/merged" || fail "merge: $(cat "$work/merge.err")"; merge_s=$(since "$t")
same_reports "$work/single" "$work/merged"
echo "slurm-sweep: (b) $shards-task array: $sweep_s s submit to all COMPLETED; merge $merge_s s; reports identical"

# (c) shard 2 fails before running (a wrapper in place of jetsim), then is rerun alone
cat > "$work/fail-shard-2" <<EOF
#!/bin/sh
[ "\$SLURM_ARRAY_TASK_ID" != 2 ] || { echo "shard 2 made to fail by the test" >&2; exit 1; }
exec "$JETSIM" "\$@"
EOF
chmod +x "$work/fail-shard-2"
t=$(now)
jid=$(submit "$work/sweep2" "0-$((shards - 1))" JETSIM="$work/fail-shard-2")
rc=0; failed=$(slurm_wait_array "$jid" "$shards") || rc=$?
[ "$rc" = 1 ] && [ "$failed" = 2 ] || fail "expected task 2 alone to fail (rc 1), got rc $rc, failed: '$failed'"
[ ! -e "$work/sweep2/2" ] || fail "the failed shard left $work/sweep2/2 behind"
rc=0; merge "$work/sweep2" "$work/merged2" || rc=$?
[ "$rc" = 65 ] || fail "merge with shard 2 missing: exit $rc, expected 65: $(cat "$work/merge.err")"
[ ! -e "$work/merged2" ] || fail "the refused merge left $work/merged2 behind"
grep -q -- "--shard 2/$shards" "$work/merge.err" && grep -q -- "$work/sweep2/2" "$work/merge.err" \
    || fail "merge's message has no command rerunning shard 2: $(cat "$work/merge.err")"
grep -qi "cell" "$work/merge.err" || fail "merge's message names no missing cells: $(cat "$work/merge.err")"
echo "slurm-sweep: (c) merge refused the missing shard: $(head -c 300 "$work/merge.err")"
jid=$(submit "$work/sweep2" 2 SHARDS="$shards")
failed=$(slurm_wait_array "$jid" 1) || fail "rerun of shard 2 (job $jid) not COMPLETED"
merge "$work/sweep2" "$work/merged2" || fail "merge after the rerun: $(cat "$work/merge.err")"
same_reports "$work/single" "$work/merged2"
echo "slurm-sweep: (c) failed shard, refusal, rerun and merge: $(since "$t") s; reports identical"

# (d) shard 1's directory lost after the sweep: the command merge prints for it rebuilds it
rm -rf "$work/sweep/1" "$work/merged"
rc=0; merge "$work/sweep" "$work/merged" || rc=$?
[ "$rc" = 65 ] || fail "merge with shard 1 deleted: exit $rc, expected 65: $(cat "$work/merge.err")"
rerun=$(grep "shard 1/$shards: " "$work/merge.err" | sed -n 's/.*; rerun: //p')
[ -n "$rerun" ] || fail "merge's message has no \"shard 1/$shards: ... rerun: COMMAND\" line: $(cat "$work/merge.err")"
(cd "$root" && eval "$rerun") || fail "the printed rerun command failed: $rerun"
merge "$work/sweep" "$work/merged" || fail "merge after the printed rerun: $(cat "$work/merge.err")"
same_reports "$work/single" "$work/merged"
echo "slurm-sweep: (d) deleted shard rebuilt by the printed command: $rerun"
echo "slurm-sweep: passed in $SECONDS s (cluster up $up_s s, sweep $sweep_s s, merge $merge_s s)"
