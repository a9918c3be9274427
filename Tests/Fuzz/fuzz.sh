#!/usr/bin/env bash
# Builds the libFuzzer harness (README: Fuzzing) and fuzzes every input kind for SECONDS each (default 20), seeded with
# the regression corpus Tests/FuzzCorpus/KIND. New inputs libFuzzer finds go to a scratch directory, never into the
# repository; a crash leaves its input in .build-fuzz/findings/ and fails the script.
#   bash Tests/Fuzz/fuzz.sh [SECONDS] [KIND ...]
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-20}
shift || true
kinds=("$@")
[ ${#kinds[@]} -gt 0 ] || kinds=(trace catalog device policy config libcachesim intervals lsapp ips chart studentlife)

# The harness target exists only with JETSIM_FUZZ set; its own scratch path keeps the instrumented objects apart.
export JETSIM_FUZZ=1 SWIFT_BACKTRACE=enable=no
# JETSIM_FUZZ_CONFIG=debug builds in about half the time (CI's short run); release runs about 3 times as many inputs.
config=${JETSIM_FUZZ_CONFIG:-release}
swift build -c "$config" --scratch-path .build-fuzz --product jetsim-fuzz --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address 2>&1 | tail -3
binary=.build-fuzz/$config/jetsim-fuzz

findings=.build-fuzz/findings
mkdir -p "$findings"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The kinds run two at a time (libFuzzer runs on one core), each for SECONDS; the verdicts follow in order.
parallel=2
for kind in "${kinds[@]}"; do
    mkdir -p "$work/$kind"
    # -max_len: inputs the engine runs in milliseconds (larger corpus files are replayed whole by the tests); -rss_limit_mb: a leak or a bomb is a finding, not a hang.
    JETSIM_FUZZ_TARGET=$kind ASAN_OPTIONS=detect_leaks=0 "$binary" -max_total_time="$seconds" -max_len=8192 -rss_limit_mb=2048 \
        -timeout=10 -use_value_profile=1 -print_final_stats=1 -artifact_prefix="$findings/$kind-" "$work/$kind" "Tests/FuzzCorpus/$kind" \
        >"$work/$kind.log" 2>&1 || touch "$work/$kind.failed" &
    while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do wait -n || true; done
done
wait
total=0
for kind in "${kinds[@]}"; do
    log="$work/$kind.log"
    if [ -e "$work/$kind.failed" ]; then
        tail -40 "$log"
        echo "fuzz: $kind FAILED (input: $(ls "$findings" | tr '\n' ' '))"
        exit 1
    fi
    runs=$(grep -a "stat::number_of_executed_units" "$log" | awk '{print $2}')
    total=$((total + ${runs:-0}))
    echo "fuzz: $kind: ${runs:-0} executions in ${seconds} s, no crash ($(grep -a 'cov:' "$log" | tail -1 | grep -o 'cov: [0-9]*'))"
done
echo "fuzz: $total executions, no crash"
