#!/usr/bin/env bash
# The engine's instructions per trace event, counted by valgrind's callgrind inside `Simulator.process` (the rules), and
# inside the whole loop of `simulate` that feeds it (the rules, the hand-out of each event from the read-ahead batches,
# residency probes; the simulator's set-up and summary once), on a generated workload through a release `jetsim run`.
# Parsing (its own thread) and report files (the writer's) are left out of both.
# Instruction counts are deterministic, unlike wall clock on this 2-core VM, so this is the speed gate of `.ci/run`.
#
# A second run of the same workload with the default 60 s samples gates what sampling costs (issue 23): the rules'
# (`Simulator.process`) instructions per event with them, and the report writer's per row it renders (kills.csv and
# timeseries.csv, counted inside `WriteBehindSink.handOff`'s closure on the writer's thread, so the kernel's part of a
# write is left out).
#
#   bash Benchmarks/instructions-per-event.sh           # measure; fails when above a threshold by more than 2 %
#   bash Benchmarks/instructions-per-event.sh --update  # write the measured counts as the new thresholds
#   bash Benchmarks/instructions-per-event.sh --policies  # no gate: the rules' count for each policy of issue 23's
#                                                       # targets (hourly samples), and its ratio to `lru`'s: the full
#                                                       # engine indexes only policies with a ranking key, the others
#                                                       # scan the resident apps (issue 23: within 2× of `lru`)
#
# Needs valgrind and objcopy (Debian: valgrind, binutils). The thresholds live in
# Benchmarks/Thresholds/instructions-per-event.txt (hourly samples) and instructions-per-event-sampled.txt (60 s
# samples), one "name count" line each.
set -euo pipefail
cd "$(dirname "$0")/.."
threshold_file=Benchmarks/Thresholds/instructions-per-event.txt
sampled_file=Benchmarks/Thresholds/instructions-per-event-sampled.txt
# Measured counts do not move between runs on one machine; 2 % leaves room for another CPU's library variants
# (glibc picks memcpy by CPU) while a real regression (one more heap operation per event) is several per cent.
tolerance_percent=2
source Benchmarks/Support/instruction-gate.sh
# `Simulator.process(_:)`: `jetsim run` calls its variant specialised for `xnu` (a thunk into a body the linker may
# share between variants), other policies the generic one. The count is the largest inclusive cost among them.
symbol='SimulatorV7processyyAA10TraceEventVF'
# `simulate`'s loop (`Stream.visit`, specialised for the run's policy): a batch of events at a time, each to `process`.
loop_symbol='simulate_8observer.*6StreamL_V5visit'
# The closure `WriteBehindSink.handOff` queues: the writer's thread renders a batch of records into report rows there.
writer_symbol='WriteBehindSinkC7handOff.*yyYbcfU_ '

for tool in valgrind objcopy; do
    command -v $tool >/dev/null || { echo "instructions-per-event: $tool is not installed (apt-get install valgrind binutils)" >&2; exit 1; }
done
swift build -c release --product jetsim >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Valgrind 3.19 cannot read this toolchain's DWARF 5; it needs only the symbol table, so the copy it runs has none.
jetsim="$work/jetsim"
objcopy --strip-debug .build/release/jetsim "$jetsim"

"$jetsim" generate --users 8 --days 14 --apps 100 --seed 42 --out "$work/gen" >/dev/null
events=$(grep -v '^#' "$work/gen/trace.csv" | tail -n +2 | wc -l)

# Runs the workload under callgrind with the extra options given, writing reports to $work/<name>.
measure() {
    local name=$1; shift
    valgrind --tool=callgrind --callgrind-out-file="$work/$name.out" \
        "$jetsim" run --device iphone-x --apps "$work/gen/apps.csv" --trace "$work/gen/trace.csv" "$@" \
        --out "$work/$name" --quiet 2> "$work/$name.valgrind.log"
}

if [ "${1:-}" = "--policies" ]; then
    lru=0
    for policy in lru fifo xnu random lfu largest cost; do
        measure "policy-$policy" --policy "$policy" --sample-interval 1h
        per_event=$(( $(callgrind_inclusive "$work/policy-$policy.out" "$symbol") / events ))
        [ "$policy" = lru ] && lru=$per_event
        awk -v p="$policy" -v n="$per_event" -v l="$lru" 'BEGIN { printf "%-8s %5d instructions per event, %.2f× lru\n", p, n, n / l }'
    done
    exit 0
fi

measure hourly --sample-interval 1h
instructions=$(callgrind_inclusive "$work/hourly.out" "$symbol")
loop_instructions=$(callgrind_inclusive "$work/hourly.out" "$loop_symbol")
measure sampled
sampled_instructions=$(callgrind_inclusive "$work/sampled.out" "$symbol")
writer_instructions=$(callgrind_inclusive "$work/sampled.out" "$writer_symbol")
if [ "$instructions" -eq 0 ] || [ "$sampled_instructions" -eq 0 ]; then
    echo "instructions-per-event: nothing counted; was Simulator.process renamed? (symbol $symbol)" >&2
    exit 1
fi
if [ "$loop_instructions" -eq 0 ]; then
    echo "instructions-per-event: nothing counted for the loop; was simulate's Stream.visit renamed? (symbol $loop_symbol)" >&2
    exit 1
fi
if [ "$writer_instructions" -eq 0 ]; then
    echo "instructions-per-event: nothing counted on the writer; was WriteBehindSink.handOff renamed? (symbol $writer_symbol)" >&2
    exit 1
fi
rows=$(( $(wc -l < "$work/sampled/kills.csv") - 1 + $(wc -l < "$work/sampled/timeseries.csv") - 1 ))
per_event=$((instructions / events))
loop_per_event=$((loop_instructions / events))
sampled_per_event=$((sampled_instructions / events))
writer_per_row=$((writer_instructions / rows))
echo "rules (Simulator.process): $instructions instructions over $events events = $per_event per event"
echo "whole loop (simulate): $loop_instructions instructions = $loop_per_event per event"
echo "with 60 s samples: rules $sampled_per_event per event; report writer $writer_instructions over $rows rows = $writer_per_row per row"

if [ "${1:-}" = "--update" ]; then
    printf 'process-per-event %s\nloop-per-event %s\n' "$per_event" "$loop_per_event" > "$threshold_file"
    printf 'engine-per-event %s\nwriter-per-row %s\n' "$sampled_per_event" "$writer_per_row" > "$sampled_file"
    echo "thresholds written: $threshold_file, $sampled_file"
    exit 0
fi
worse=0
gate_verdict "instructions per event" "$per_event" "$(awk '$1 == "process-per-event" { print $2 }' "$threshold_file")" || worse=1
gate_verdict "instructions per event, whole loop" "$loop_per_event" "$(awk '$1 == "loop-per-event" { print $2 }' "$threshold_file")" || worse=1
gate_verdict "instructions per event, 60 s samples" "$sampled_per_event" "$(awk '$1 == "engine-per-event" { print $2 }' "$sampled_file")" || worse=1
gate_verdict "report writer's instructions per row, 60 s samples" "$writer_per_row" "$(awk '$1 == "writer-per-row" { print $2 }' "$sampled_file")" || worse=1
exit $worse
