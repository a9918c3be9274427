#!/usr/bin/env bash
# Every built-in policy that replays a stream against `lru`, as whole `jetsim cachesim` processes (issue 23's targets:
# `fifo` as fast as `lru`; `lfu`, `largest`, `cost`, `random` and `xnu` within 2× of it). Cases:
#   csv        a 1 M-request Zipf CSV (200 000 objects, about 96 500 of them requested) at 10 % of its working set: the
#              issue's own measure;
#   bin        the 10 M-request oracleGeneral binary of vs-libcachesim.sh (100 000 objects) at 0.1 %, where 70 % of the
#              requests miss and most misses evict: the indexes' hardest case;
#   csv-bytes, bin-bytes  the same capacities given in bytes: a capacity given as a share of the working set first
#              reads the trace once to measure it (`cachesim`'s working-set pass, the same for every policy: 0.22 s of
#              the binary's runs), so these time the replays with nothing shared added.
# A round runs every policy once, in turn; a batch prints each policy's median time and its ratio to `lru`'s, and in
# brackets the median of its per-round ratios (each time against the same round's `lru`, a few seconds apart: the VM's
# drift between rounds, which moves a batch's medians, falls on both sides of such a ratio alike). Every
# round's cache.csv must equal the first round's (a replay that is not deterministic fails the script). This 2-core VM's
# speed moves by a third between stretches of minutes, so the script runs several batches and prints each: one batch is
# not a verdict. Wall clock, so a measurement, never a test or a CI gate (the gate counts instructions:
# instructions-per-request.sh).
#
#   bash Benchmarks/policies-vs-lru.sh                              # every case, 3 batches of 5 rounds
#   CASES="csv bin" BATCHES=5 ROUNDS=9 bash Benchmarks/policies-vs-lru.sh
#   POLICIES="lru lfu cost" JETSIM=/path/to/jetsim bash Benchmarks/policies-vs-lru.sh
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-5}
batches=${BATCHES:-3}
cases=${CASES:-csv csv-bytes bin bin-bytes}
read -r -a policies <<< "${POLICIES:-lru fifo random xnu lfu largest cost}"
[ "${policies[0]}" = lru ] || { echo "policies-vs-lru: POLICIES starts with lru (the ratios' base)" >&2; exit 64; }
if [ -z "${JETSIM:-}" ]; then
    swift build -c release --product jetsim >/dev/null
    JETSIM=.build/release/jetsim
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for case in $cases; do
    case $case in
        csv | csv-bytes)
            [ -f "$work/z1m.csv" ] || python3 Tests/CrossCheck/zipf_trace.py --requests 1000000 --objects 200000 --seed 7 \
                --out "$work/z1m.csv" >/dev/null
            args=(--trace "$work/z1m.csv")
            share=0.1 title="1 M-request CSV at 10 % of its working set" ;;
        bin | bin-bytes)
            if [ ! -f "$work/z10m.bin" ]; then
                python3 Tests/CrossCheck/zipf_trace.py --requests 10000000 --objects 100000 --seed 7 --out "$work/z10m.csv" \
                    --oracle-general "$work/z10m.bin" >/dev/null
                rm "$work/z10m.csv"
            fi
            args=(--trace "$work/z10m.bin" --trace-format oracleGeneral)
            share=0.001 title="10 M-request oracleGeneral binary at 0.1 % of its working set" ;;
        *) echo "policies-vs-lru: CASES are csv, csv-bytes, bin and bin-bytes, not $case" >&2; exit 64 ;;
    esac
    if [ "${case%-bytes}" != "$case" ]; then
        # The same capacity in bytes, as the run at the share reports it (cache.csv's capacity_bytes, its third column).
        "$JETSIM" cachesim "${args[@]}" --capacity "$share" --policy lru --jobs 1 --out "$work/out" --quiet
        bytes=$(tail -n 1 "$work/out/cache.csv" | cut -d, -f3)
        args+=(--capacity "$bytes")
        title="$title, given in bytes ($bytes)"
    else
        args+=(--capacity "$share")
    fi
    echo "$title ($rounds rounds a batch; medians, their ratios to lru's, [medians of the per-round ratios])"
    declare -A first=()
    for batch in $(seq "$batches"); do
        : > "$work/times"
        for round in $(seq "$rounds"); do
            for policy in "${policies[@]}"; do
                rm -rf "$work/out"
                start=${EPOCHREALTIME/./}
                "$JETSIM" cachesim "${args[@]}" --policy "$policy" --jobs 1 --out "$work/out" --quiet
                end=${EPOCHREALTIME/./}
                echo "$policy $((end - start))" >> "$work/times"
                sum=$(cksum < "$work/out/cache.csv")
                if [ -z "${first[$policy]:-}" ]; then first[$policy]=$sum
                elif [ "${first[$policy]}" != "$sum" ]; then echo "policies-vs-lru: $policy's cache.csv differs between rounds" >&2; exit 1; fi
            done
        done
        python3 - "$batch" "$work/times" "${policies[@]}" <<'PY'
import statistics, sys
batch, path, policies = sys.argv[1], sys.argv[2], sys.argv[3:]
times = {p: [] for p in policies}
for line in open(path):
    policy, micros = line.split()
    times[policy].append(int(micros) / 1e6)
median = {p: statistics.median(v) for p, v in times.items()}
# Round k's time of each policy against round k's lru (every round runs every policy once, lru first).
per_round = {p: statistics.median(t / l for t, l in zip(times[p], times['lru'])) for p in policies[1:]}
print(f"  batch {batch}: lru {median['lru']:.3f} s; "
      + ", ".join(f"{p} {median[p] / median['lru']:.2f}× [{per_round[p]:.2f}×]" for p in policies[1:]))
PY
    done
    unset first
done
