#!/usr/bin/env bash
# The sharded sweep without a scheduler: GNU parallel runs the N shards of a `jetsim compare` grid (one
# single-threaded shard per core at a time; add --sshlogin to spread them over machines with a shared file
# system), then `jetsim merge` writes the reports. README.md here.
#
#   Examples/slurm/parallel.sh Examples/slurm/grid.args sweep report [N]
#
# GRID is the grid file of sweep.sbatch (one argument per line); N defaults to 4; JETSIM to jetsim on PATH.
# A failed shard does not stop the others; the merge then names its missing cells and the command to rerun it.
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: $0 GRID SWEEP OUT [SHARDS]" >&2; exit 64; }
grid_file=$1 sweep=$2 out=$3 shards=${4:-4}
JETSIM=${JETSIM:-jetsim}
mapfile -t grid < <(grep -Ev '^[[:space:]]*(#|$)' "$grid_file")

# -q quotes every argument, so paths with spaces in the grid survive parallel's shell.
parallel -q --will-cite "$JETSIM" compare "${grid[@]}" --shard "{}/$shards" --jobs 1 --out "$sweep/{}" \
    ::: $(seq 0 $((shards - 1))) || echo "parallel.sh: $? shard(s) failed" >&2
# The shard directories that exist: a failed shard leaves none, and merge names its cells and rerun command.
exec "$JETSIM" merge "$sweep"/[0-9]* --out "$out"
