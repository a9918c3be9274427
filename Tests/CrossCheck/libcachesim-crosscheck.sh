#!/usr/bin/env bash
# Exact cross-check of Jetsim against libCacheSim, the cache simulator our users compare us with.
#
# On a cache-equivalent device (--device cache:CAPACITY) and libCacheSim's CSV format, Jetsim's cold launches
# must equal libCacheSim's misses exactly for LRU and FIFO, at every capacity, including objects larger than
# the cache; so must the misses of `jetsim cachesim` (the cache replay, one pass for all cells). Installs libCacheSim from PyPI into a virtual environment, generates a seeded Zipf trace
# (200 000 requests, variable sizes), runs both at three capacities and fails on any difference.
#
# By hand: bash Tests/CrossCheck/libcachesim-crosscheck.sh   (REQUESTS=... OBJECTS=... to change the trace)
set -euo pipefail
cd "$(dirname "$0")/../.."
here=Tests/CrossCheck
venv=${LIBCACHESIM_VENV:-.build/libcachesim-venv}
if [ ! -x "$venv/bin/python" ]; then python3 -m venv "$venv"; fi
"$venv/bin/pip" install --quiet --disable-pip-version-check "libcachesim==0.3.5"

swift build -c release --product jetsim >/dev/null
jetsim="$(swift build -c release --show-bin-path)/jetsim"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mapfile -t capacities < <(python3 "$here/zipf_trace.py" --requests "${REQUESTS:-200000}" --objects "${OBJECTS:-20000}" \
    --alpha 1.0 --seed 42 --out "$work/trace.csv")

failures=0
# Every cell of the replay at once: lru and fifo at the three capacities.
"$jetsim" cachesim --trace "$work/trace.csv" --capacity "$(IFS=,; echo "${capacities[*]}")" --policy lru,fifo --out "$work/replay" --quiet
for capacity in "${capacities[@]}"; do
    for policy in lru fifo; do
        expected=$("$venv/bin/python" "$here/libcachesim_misses.py" "$work/trace.csv" "$policy" "$capacity" 2>/dev/null)
        "$jetsim" run --device "cache:$capacity" --format libcachesim --trace "$work/trace.csv" --policy "$policy" \
            --out "$work/out" --quiet --sample-interval 3600
        actual=$(python3 -c "import csv,sys; print(next(csv.DictReader(open(sys.argv[1])))['cold_launches'])" "$work/out/summary.csv")
        replayed=$(python3 -c "import csv,sys; print(next(r['misses'] for r in csv.DictReader(open(sys.argv[1])) if r['policy'] == sys.argv[2] and r['capacity_bytes'] == sys.argv[3]))" \
            "$work/replay/cache.csv" "$policy" "$capacity")
        if [ "$expected" = "$actual" ] && [ "$expected" = "$replayed" ]; then verdict=same; else verdict=DIFFERENT; failures=$((failures + 1)); fi
        printf '%-5s capacity %12s B  libCacheSim misses %8s  Jetsim cold launches %8s  cachesim misses %8s  %s\n' \
            "$policy" "$capacity" "$expected" "$actual" "$replayed" "$verdict"
    done
done
checks=$(( ${#capacities[@]} * 2 ))
echo "libcachesim cross-check: $((checks - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]
