#!/usr/bin/env bash
# The engine loop's instructions per trace event, counted by valgrind's callgrind inside `Simulator.process` only
# (so parsing and report files are left out), on a generated workload through a release `jetsim run`.
# Instruction counts are deterministic, unlike wall clock on this 2-core VM, so this is the speed gate of `.ci/run`.
#
#   bash Benchmarks/instructions-per-event.sh           # measure; fails when above the threshold by more than 2 %
#   bash Benchmarks/instructions-per-event.sh --update  # write the measured count as the new threshold
#
# Needs valgrind and objcopy (Debian: valgrind, binutils). The threshold lives in
# Benchmarks/Thresholds/instructions-per-event.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
threshold_file=Benchmarks/Thresholds/instructions-per-event.txt
# Measured counts do not move between runs on one machine; 2 % leaves room for another CPU's library variants
# (glibc picks memcpy by CPU) while a real regression (one more heap operation per event) is several per cent.
tolerance_percent=2
# `Simulator.process(_:)`: `jetsim run` calls its variant specialised for `xnu` (a thunk into a body the linker may
# share between variants), other policies the generic one. The count is the largest inclusive cost among them.
symbol='SimulatorV7processyyAA10TraceEventVF'

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
valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" \
    "$jetsim" run --device iphone-x --apps "$work/gen/apps.csv" --trace "$work/gen/trace.csv" --sample-interval 1h \
    --out "$work/out" --quiet 2> "$work/valgrind.log"
instructions=$(callgrind_annotate --inclusive=yes "$work/callgrind.out" 2>/dev/null | { grep "$symbol" || true; } \
    | awk '{ gsub(",", "", $1); if ($1 + 0 > max) max = $1 + 0 } END { printf "%.0f\n", max }')
if [ "$instructions" -eq 0 ]; then
    echo "instructions-per-event: nothing counted; was Simulator.process renamed? (symbol $symbol)" >&2
    exit 1
fi
per_event=$((instructions / events))
echo "engine loop: $instructions instructions over $events events = $per_event per event"

if [ "${1:-}" = "--update" ]; then
    echo "$per_event" > "$threshold_file"
    echo "threshold written: $threshold_file"
    exit 0
fi
threshold=$(tr -dc '0-9' < "$threshold_file")
limit=$((threshold * (100 + tolerance_percent) / 100))
if [ "$per_event" -gt "$limit" ]; then
    echo "instructions per event: WORSE ($per_event > $threshold + $tolerance_percent % = $limit)"
    exit 1
elif [ "$per_event" -lt $((threshold * (100 - tolerance_percent) / 100)) ]; then
    echo "instructions per event: BETTER ($per_event against $threshold; refresh with --update)"
else
    echo "instructions per event: EQUAL ($per_event against $threshold ± $tolerance_percent %)"
fi
