#!/usr/bin/env bash
# Jetsim against libCacheSim on the same trace, whole process against whole process.
#
# Generates a seeded Zipf trace (REQUESTS=10000000 requests over OBJECTS=100000 objects, variable sizes) as a
# libCacheSim CSV and as an oracleGeneral binary holding the same requests, then runs each case in both tools
# alternately RUNS=5 times and prints the medians, their ratio and the misses (which must be equal where the two
# tools implement the same policy). CASES picks the cases (default: all three):
#   lru-csv     LRU at 1 % of the working set, reading the CSV;
#   lru-oracle  the same on the oracleGeneral binary;
#   grid        lru, fifo, lfu, random, largest × 0.1 %, 1 %, 10 % on the binary: Jetsim in one process, one pass
#               over the trace (`cachesim --jobs 2`); libCacheSim's PyPI build has no one-pass call for several
#               caches, so it runs its 15 caches' process_trace one after the other in one process (LRU, FIFO, LFU,
#               Random and Size, its largest-first policy). Only lru and fifo misses are compared: the others'
#               ties and random streams differ between the tools.
# libCacheSim comes from PyPI (its C reader and C cache loop, through process_trace).
set -euo pipefail
cd "$(dirname "$0")/.."
REQUESTS=${REQUESTS:-10000000}
OBJECTS=${OBJECTS:-100000}
RUNS=${RUNS:-5}
CASES=${CASES:-lru-csv lru-oracle grid}
venv=${LIBCACHESIM_VENV:-.build/libcachesim-venv}
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check "libcachesim==0.3.5"
swift build -c release --product jetsim >/dev/null
jetsim="$(swift build -c release --show-bin-path)/jetsim"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mapfile -t caps < <(python3 Tests/CrossCheck/zipf_trace.py --requests "$REQUESTS" --objects "$OBJECTS" --seed 7 \
    --out "$work/trace.csv" --oracle-general "$work/trace.oracleGeneral.bin")
# libCacheSim: one line per cache, "policy capacity misses", for the trace, its kind (csv or oracleGeneral), the
# number of requests and the policy:capacity cells that follow.
cat > "$work/lcs.py" <<'PY'
import sys, libcachesim as lcs
path, kind, requests, cells = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
if kind == "csv":
    p = lcs.ReaderInitParam(has_header=True, has_header_set=True, delimiter=",")
    p.time_field, p.obj_id_field, p.obj_size_field = 1, 2, 3
    reader = lcs.TraceReader(path, lcs.TraceType.CSV_TRACE, p)
else:
    reader = lcs.TraceReader(path, lcs.TraceType.ORACLE_GENERAL_TRACE)
names = {"lru": "LRU", "fifo": "FIFO", "lfu": "LFU", "random": "Random", "largest": "Size"}
for cell in cells:
    policy, capacity = cell.split(":")
    miss_ratio, _ = getattr(lcs, names[policy])(int(capacity)).process_trace(reader)
    print(policy, capacity, round(miss_ratio * requests))
PY
# Jetsim's cache.csv as the same lines.
jet_lines() { python3 -c "import csv,sys; [print(r['policy'], r['capacity_bytes'], r['misses']) for r in csv.DictReader(open(sys.argv[1]))]" "$1"; }
now() { date +%s.%N; }

# run_case NAME TRACE KIND POLICIES CAPACITIES JOBS: alternating runs, then the medians and the misses compared.
run_case() {
    local name=$1 trace=$2 kind=$3 policies=$4 capacities=$5 jobs=$6 cells=() jet_times=() lcs_times=()
    for policy in ${policies//,/ }; do for capacity in ${capacities//,/ }; do cells+=("$policy:$capacity"); done; done
    for _ in $(seq "$RUNS"); do
        t0=$(now); "$venv/bin/python" "$work/lcs.py" "$trace" "$kind" "$REQUESTS" "${cells[@]}" > "$work/lcs.txt" 2>/dev/null; t1=$(now)
        "$jetsim" cachesim --trace "$trace" --capacity "$capacities" --policy "$policies" --jobs "$jobs" --out "$work/o" --quiet
        t2=$(now)
        lcs_times+=("$(awk "BEGIN{print $t1 - $t0}")"); jet_times+=("$(awk "BEGIN{print $t2 - $t1}")")
    done
    jet_lines "$work/o/cache.csv" > "$work/jet.txt"
    python3 - "$name" "$REQUESTS" "${#cells[@]}" "${lcs_times[*]}" "${jet_times[*]}" "$work/lcs.txt" "$work/jet.txt" <<'PY'
import statistics, sys
name, n, cells = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
lcs = [float(x) for x in sys.argv[4].split()]; jet = [float(x) for x in sys.argv[5].split()]
ml, mj = statistics.median(lcs), statistics.median(jet)
misses = lambda path: {tuple(l.split()[:2]): l.split()[2] for l in open(path) if l.strip()}
a, b = misses(sys.argv[6]), misses(sys.argv[7])
compared = [k for k in a if k[0] in ("lru", "fifo")]
differ = [k for k in compared if a[k] != b.get(k)]
print(f"{name}: {n} requests, {cells} cache(s), {len(lcs)} alternating runs each")
print(f"  libCacheSim: median {ml:.2f} s = {n * cells / ml / 1e6:.2f} M cache-requests/s")
print(f"  Jetsim:      median {mj:.2f} s = {n * cells / mj / 1e6:.2f} M cache-requests/s")
print(f"  ratio of medians (Jetsim / libCacheSim throughput): {ml / mj:.2f}x; lru/fifo misses "
      + ("equal" if not differ else "DIFFERENT: " + ", ".join(f"{k}: {a[k]} vs {b.get(k)}" for k in differ))
      + f" ({len(compared)} compared)")
PY
}

for c in $CASES; do
    case $c in
        lru-csv) run_case "LRU, CSV, 1 %" "$work/trace.csv" csv lru "${caps[1]}" 1 ;;
        lru-oracle) run_case "LRU, oracleGeneral, 1 %" "$work/trace.oracleGeneral.bin" oracleGeneral lru "${caps[1]}" 1 ;;
        grid) run_case "5 policies x 3 sizes, oracleGeneral" "$work/trace.oracleGeneral.bin" oracleGeneral \
                  lru,fifo,lfu,random,largest "${caps[0]},${caps[1]},${caps[2]}" 2 ;;
        *) echo "unknown case $c (lru-csv, lru-oracle, grid)" >&2; exit 64 ;;
    esac
done
