#!/usr/bin/env bash
# Jetsim's trace readers against a tight C loop over the same bytes (Support/CLoop/parse_loop.c), whole process
# against whole process, one thread each, the file in the page cache.
#
# Two files: a libCacheSim CSV (REQUESTS=10000000 Zipf requests over OBJECTS=100000 objects, Tests/CrossCheck/
# zipf_trace.py), read by `jetsim cachesim`'s one-pass reader; and a Jetsim trace (`jetsim generate --users USERS=400
# --days 30 --apps 100 --seed 7`, 2.15 M events), read by `jetsim run`'s reader. Each reader is Support/ParseOnly
# (the reader and a checksum, nothing else). Runs both alternately RUNS=5 times and prints the medians in MB/s and
# their ratio (the issue's target: Jetsim within 1.5× of the C loop's time).
set -euo pipefail
cd "$(dirname "$0")/.."
REQUESTS=${REQUESTS:-10000000}
OBJECTS=${OBJECTS:-100000}
USERS=${USERS:-400}
RUNS=${RUNS:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
${CC:-clang} -O2 -o "$work/parse_loop" Benchmarks/Support/CLoop/parse_loop.c
swift build -c release --package-path Benchmarks --product ParseOnly >/dev/null
parse_only="$(swift build -c release --package-path Benchmarks --show-bin-path)/ParseOnly"
swift build -c release --product jetsim >/dev/null
jetsim="$(swift build -c release --show-bin-path)/jetsim"
python3 Tests/CrossCheck/zipf_trace.py --requests "$REQUESTS" --objects "$OBJECTS" --seed 7 --out "$work/requests.csv" >/dev/null
"$jetsim" generate --users "$USERS" --days 30 --apps 100 --seed 7 --out "$work/w" >/dev/null
now() { date +%s.%N; }

# compare NAME FILE C-ARGS -- JETSIM-ARGS: alternating runs, medians, ratio.
compare() {
    local name=$1 file=$2 c_args=() jet_args=() c_times=() jet_times=()
    shift 2
    while [ "$1" != "--" ]; do c_args+=("$1"); shift; done
    shift
    jet_args=("$@")
    for _ in $(seq "$RUNS"); do
        t0=$(now); c_out=$("$work/parse_loop" "${c_args[@]}"); t1=$(now)
        jet_out=$("$parse_only" "${jet_args[@]}"); t2=$(now)
        c_times+=("$(awk "BEGIN{print $t1 - $t0}")"); jet_times+=("$(awk "BEGIN{print $t2 - $t1}")")
    done
    python3 - "$name" "$(stat -c %s "$file")" "${c_times[*]}" "${jet_times[*]}" "$c_out" "$jet_out" <<'PY'
import statistics, sys
name, size = sys.argv[1], int(sys.argv[2])
c = statistics.median(float(x) for x in sys.argv[3].split()); j = statistics.median(float(x) for x in sys.argv[4].split())
print(f"{name}: {size / 1e6:.0f} MB, {len(sys.argv[3].split())} alternating runs each")
print(f"  C loop: median {c:.3f} s = {size / c / 1e6:.0f} MB/s ({sys.argv[5].split(',')[0]})")
print(f"  Jetsim: median {j:.3f} s = {size / j / 1e6:.0f} MB/s ({sys.argv[6].split(',')[0]})")
print(f"  Jetsim takes {j / c:.2f}x the C loop's time")
PY
}

compare "libCacheSim CSV" "$work/requests.csv" libcachesim "$work/requests.csv" -- libcachesim "$work/requests.csv"
compare "Jetsim trace" "$work/w/trace.csv" jetsim "$work/w/trace.csv" -- jetsim "$work/w/trace.csv" "$work/w/apps.csv"
