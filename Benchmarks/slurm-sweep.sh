#!/usr/bin/env bash
# A sharded Slurm sweep against one process, wall clock (a benchmark, not a test; one run of each, so expect
# a few % of noise). Needs root and .build/release/jetsim (or JETSIM); builds nothing. Starts the throwaway
# one-node cluster of the CI test (.ci/slurm-cluster.sh: every CPU of this machine, stopped on exit) and times
#   1. `jetsim compare` of a grid on a generated workload with --jobs 1, and
#   2. with the default --jobs (every core),
#   3. the same grid as a SHARDS-task array of Examples/slurm/sweep.sbatch (one CPU per task) plus
#      `jetsim merge` on this host: submit to merged reports (checked equal to 1.'s),
#   4. `jetsim merge` alone of a 1000-cell grid (10 policies x 4 devices x 25 seeds on Examples/day, sharded
#      beforehand on this host), next to that grid's unsharded compare.
# The default grid (768 cells: 6 policies x 8 devices x SEEDS=16 seeds on a generated workload of USERS=60 users x
# DAYS=14 days, about 150 000 events) takes over 60 s in 1. on a 2-core machine; set USERS, DAYS, SEEDS (a count)
# and SHARDS to resize it.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
JETSIM=${JETSIM:-.build/release/jetsim}
case $JETSIM in /*) ;; *) JETSIM=$root/$JETSIM ;; esac
USERS=${USERS:-60} DAYS=${DAYS:-14} APPS=${APPS:-60} SEEDS=${SEEDS:-16} SHARDS=${SHARDS:-4}
# shellcheck source=.ci/slurm-cluster.sh
source .ci/slurm-cluster.sh
[ -x "$JETSIM" ] || { echo "slurm-sweep benchmark: no executable $JETSIM (swift build -c release first)"; exit 1; }
slurm_install
trap slurm_down EXIT
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
t=$(now); slurm_up
work=$SLURM_CLUSTER_DIR/work
mkdir -p "$work/log"
# A fresh slurmctld schedules its first job about 3 s late, once; a real cluster's controller is not fresh.
slurm_wait_array "$(sbatch --parsable --array=0 -o /dev/null --wrap true)" 1 >/dev/null
up_s=$(since "$t")
"$JETSIM" generate --users "$USERS" --days "$DAYS" --apps "$APPS" --seed 1 --out "$work/workload" >/dev/null
events=$(($(wc -l < "$work/workload/trace.csv") - 1))
cat > "$work/grid.args" <<EOF
--apps=$work/workload/apps.csv
--trace=$work/workload/trace.csv
--policies=xnu,lru,largest,cost,oracle,random
--devices=iphone-x,iphone-11,iphone-8,iphone-xs,iphone-6s,iphone-7,iphone-xr,iphone-se
--seeds=$(seq -s, 1 "$SEEDS")
--quiet
EOF
mapfile -t grid < "$work/grid.args"
cells=$((6 * 8 * SEEDS))

t=$(now); "$JETSIM" compare "${grid[@]}" --jobs 1 --out "$work/jobs1"; jobs1_s=$(since "$t")
t=$(now); "$JETSIM" compare "${grid[@]}" --out "$work/jobsN"; jobsN_s=$(since "$t")

t=$(now)
jid=$(GRID=$work/grid.args SWEEP=$work/sweep JETSIM=$JETSIM \
    sbatch --parsable --array="0-$((SHARDS - 1))" --chdir="$root" -o "$work/log/%a.out" Examples/slurm/sweep.sbatch)
failed=$(slurm_wait_array "$jid" "$SHARDS" 900) || { echo "shards failed: $failed"; cat "$work"/log/*; exit 1; }
sweep_s=$(since "$t")
m=$(now); "$JETSIM" merge "$work"/sweep/[0-9]* --out "$work/merged" --quiet
merge_s=$(since "$m"); slurm_s=$(since "$t")
diff -rq --exclude=manifest.json "$work/jobs1" "$work/merged" || { echo "merged reports differ from --jobs 1's"; exit 1; }

big=(--apps Examples/day/apps.csv --trace Examples/day/trace.csv --quiet
     --policies xnu,lru,fifo,largest,lmkd,linux-oom,cost,lfu,random,oracle
     --devices iphone-x,iphone-11,iphone-8,iphone-xs --seeds "$(seq -s, 1 25)")
t=$(now); "$JETSIM" compare "${big[@]}" --out "$work/big-single"; big_single_s=$(since "$t")
for ((k = 0; k < SHARDS; k++)); do "$JETSIM" compare "${big[@]}" --shard "$k/$SHARDS" --out "$work/big/$k"; done
rss=(); [ -x /usr/bin/time ] && rss=(/usr/bin/time -f %M -o "$work/merge.rss")
t=$(now); "${rss[@]}" "$JETSIM" merge "$work"/big/[0-9]* --out "$work/big-merged" --quiet; big_merge_s=$(since "$t")
big_merge_mb=$([ -s "$work/merge.rss" ] && awk '{ printf "%.0f", $1 / 1024 }' "$work/merge.rss" || echo "?")

ratio() { awk -v a="$jobs1_s" -v b="$1" 'BEGIN { printf "%.2fx", a / b }'; }
echo
echo "Sharded sweep benchmark on $(nproc) CPUs: $cells cells, $events events per trace ($USERS users x $DAYS days)"
printf '%-52s %9s %9s\n' measure seconds "vs jobs 1"
printf '%-52s %9s %9s\n' "one process, --jobs 1" "$jobs1_s" "1.00x"
printf '%-52s %9s %9s\n' "one process, --jobs $(nproc) (default)" "$jobsN_s" "$(ratio "$jobsN_s")"
printf '%-52s %9s %9s\n' "Slurm, $SHARDS shards x 1 CPU: submit to merged" "$slurm_s" "$(ratio "$slurm_s")"
printf '%-52s %9s\n' "  of which submit to all tasks COMPLETED" "$sweep_s"
printf '%-52s %9s\n' "  of which merge ($cells cells)" "$merge_s"
shard_bytes=$(du -sb "$work"/sweep/[0-9]* | awk '{ s += $1 } END { print s }')
printf '%-52s %9s\n' "shard output, all shards (bytes; per cell)" "$shard_bytes; $((shard_bytes / cells))"
printf '%-52s %9s\n' "merge alone, 1000 cells (Examples/day)" "$big_merge_s"
printf '%-52s %9s\n' "  its peak RSS (MB)" "$big_merge_mb"
printf '%-52s %9s\n' "  that grid unsharded, default --jobs" "$big_single_s"
printf '%-52s %9s\n' "cluster start and first job (not in the Slurm row)" "$up_s"
echo "load average (1, 5, 15 min) before: $load_before; after: $(cut -d' ' -f1-3 /proc/loadavg) (above $(nproc): other work shared the CPUs)"
