#!/usr/bin/env bash
# Jetsim against libCacheSim on the same trace, whole process against whole process.
#
# Generates a seeded libCacheSim CSV trace (REQUESTS=10000000 requests, Zipf 1.0 over OBJECTS=100000 objects,
# variable sizes), runs cache-equivalent LRU in both alternately RUNS=5 times at 1 % of the working set (Jetsim:
# `jetsim cachesim`, which writes cache.csv; libCacheSim: its Python binding's process_trace), and prints
# each tool's median throughput (requests/s), the ratio of medians and both miss counts (which must be equal).
# libCacheSim comes from PyPI (its C++ reader and C cache loop through process_trace).
set -euo pipefail
cd "$(dirname "$0")/.."
REQUESTS=${REQUESTS:-10000000}
OBJECTS=${OBJECTS:-100000}
RUNS=${RUNS:-5}
venv=${LIBCACHESIM_VENV:-.build/libcachesim-venv}
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check "libcachesim==0.3.5"
swift build -c release --product jetsim >/dev/null
jetsim="$(swift build -c release --show-bin-path)/jetsim"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mapfile -t caps < <(python3 Tests/CrossCheck/zipf_trace.py --requests "$REQUESTS" --objects "$OBJECTS" --seed 7 --out "$work/trace.csv")
capacity=${caps[1]}
cat > "$work/lcs.py" <<'PY'
import sys, time, libcachesim as lcs
start = time.perf_counter()
p = lcs.ReaderInitParam(has_header=True, has_header_set=True, delimiter=",")
p.time_field, p.obj_id_field, p.obj_size_field = 1, 2, 3
reader = lcs.TraceReader(sys.argv[1], lcs.TraceType.CSV_TRACE, p)
cache = lcs.LRU(int(sys.argv[2]))
miss_ratio, _ = cache.process_trace(reader)
print(round(miss_ratio * int(sys.argv[3])))
PY
now() { date +%s.%N; }
jet_times=(); lcs_times=()
for run in $(seq "$RUNS"); do
    t0=$(now); lcs_misses=$("$venv/bin/python" "$work/lcs.py" "$work/trace.csv" "$capacity" "$REQUESTS" 2>/dev/null); t1=$(now)
    "$jetsim" cachesim --trace "$work/trace.csv" --capacity "$capacity" --policy lru --out "$work/o" --quiet
    t2=$(now)
    jet_misses=$(python3 -c "import csv,sys; print(next(csv.DictReader(open(sys.argv[1])))['misses'])" "$work/o/cache.csv")
    lcs_times+=("$(awk "BEGIN{print $t1 - $t0}")"); jet_times+=("$(awk "BEGIN{print $t2 - $t1}")")
done
python3 - "$REQUESTS" "$lcs_misses" "$jet_misses" "${lcs_times[*]}" "${jet_times[*]}" <<'PY'
import statistics, sys
n = int(sys.argv[1]); lcs = [float(x) for x in sys.argv[4].split()]; jet = [float(x) for x in sys.argv[5].split()]
ml, mj = statistics.median(lcs), statistics.median(jet)
print(f"requests {n}, capacity 1 % of the working set, {len(lcs)} alternating runs each")
print(f"libCacheSim LRU: median {ml:.2f} s = {n / ml / 1e6:.2f} M requests/s, misses {sys.argv[2]}")
print(f"Jetsim      LRU: median {mj:.2f} s = {n / mj / 1e6:.2f} M requests/s, misses {sys.argv[3]}")
print(f"ratio of medians (Jetsim / libCacheSim throughput): {ml / mj:.2f}x; misses {'equal' if sys.argv[2] == sys.argv[3] else 'DIFFERENT'}")
PY
