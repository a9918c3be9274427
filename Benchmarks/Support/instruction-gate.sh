# Shared by the instruction gates (instructions-per-event.sh, instructions-per-request.sh), which source it after
# setting `tolerance_percent`: reading callgrind's counts and judging one against its threshold.

# The largest inclusive count among the symbols matching the extended regex $2 in callgrind output $1 (0 when none
# does): a function the linker shares between specialisations shows up under several names.
callgrind_inclusive() {
    callgrind_annotate --inclusive=yes "$1" 2>/dev/null | { grep -E "$2" || true; } \
        | awk '{ gsub(",", "", $1); if ($1 + 0 > max) max = $1 + 0 } END { printf "%.0f\n", max }'
}

# Prints "<label>: WORSE|BETTER|EQUAL (...)" for count $2 against threshold $3 (± tolerance_percent); returns 1 when the
# count is worse or there is no threshold.
gate_verdict() {
    local label=$1 measured=$2 threshold=$3
    if [ -z "$threshold" ]; then
        echo "$label: $measured, no threshold (run with --update)"
        return 1
    fi
    local limit=$((threshold * (100 + tolerance_percent) / 100))
    if [ "$measured" -gt "$limit" ]; then
        echo "$label: WORSE ($measured > $threshold + $tolerance_percent % = $limit)"
        return 1
    elif [ "$measured" -lt $((threshold * (100 - tolerance_percent) / 100)) ]; then
        echo "$label: BETTER ($measured against $threshold; refresh with --update)"
    else
        echo "$label: EQUAL ($measured against $threshold ± $tolerance_percent %)"
    fi
}
