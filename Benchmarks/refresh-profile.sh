#!/usr/bin/env bash
# Writes Benchmarks/Profile/jetsim.profdata, the execution profile the release build optimises with (Package.swift:
# profile-guided optimisation, LLVM's IR-level instrumentation). An instrumented build of this tree runs a training
# set, and llvm-profdata merges its counts into a sparse indexed profile (functions never run are left out, so they are
# optimised as without a profile, not as cold code).
#
# The training set is not the benchmarks' workloads: its traces come from other seeds and sizes than W, W2 and the
# cache replays' Zipf traces (run-whole-process.sh, policies-vs-lru.sh, the instruction gates), so that what those
# measure is a profile's gain on a trace it has not seen. It covers `run` (the full engine on iOS devices with the
# freezer on and off, on an Android device, every built-in policy, minute and hourly samples, the events report) and
# `cachesim` (every policy of the cache replay, a CSV and an oracleGeneral binary, one cell and a one-pass grid).
#
# Refresh it after changing the engine, the policies, the cache replay or the readers and writers: a function whose
# code changed no longer matches its counts and is built without them (no error, no wrong result; only slower, which
# the instruction gates of .ci/run then show). Needs the toolchain's llvm-profdata and libclang_rt.profile (both ship
# with Swift on Linux) and python3 (the Zipf traces). About four minutes on the 2-core VM; then `swift package clean`
# and build again: SwiftPM does not rebuild for a new profile.
#
#   bash Benchmarks/refresh-profile.sh
set -euo pipefail
cd "$(dirname "$0")/.."
toolchain=$(dirname "$(readlink -f "$(command -v swiftc)")")
profdata=$toolchain/llvm-profdata
runtime=$(ls "$toolchain"/../lib/clang/*/lib/linux/libclang_rt.profile-"$(uname -m)".a 2>/dev/null | head -n 1 || true)
[ -x "$profdata" ] || { echo "refresh-profile: no llvm-profdata beside swiftc ($toolchain)" >&2; exit 1; }
[ -n "$runtime" ] || { echo "refresh-profile: no libclang_rt.profile-$(uname -m).a in the toolchain" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The instrumented build (Package.swift: JETSIM_PROFILE=generate instruments the tool's own targets), in a scratch path
# of its own, linked with the profile runtime that writes the counts at exit.
JETSIM_PROFILE=generate swift build -c release --product jetsim --scratch-path "$work/build" \
    -Xlinker -u -Xlinker __llvm_profile_runtime -Xlinker "$runtime" > "$work/build.log" 2>&1 \
    || { cat "$work/build.log" >&2; exit 1; }
jetsim="$work/build/release/jetsim"
export LLVM_PROFILE_FILE="$work/raw/%p.profraw"   # one file a process
# The same counts each time (with the instrumented build's atomic counters, Package.swift): Swift's hashing seeded the
# same in every process, so dictionaries and sets probe alike. What still varies lies outside the engine and the cache
# replay: sets of temporary files' paths (they hold a process id), a thread's hand-offs, a grid's cells scheduled by time.
export SWIFT_DETERMINISTIC_HASHING=1

# `run`: two generated workloads, not W's or W2's seeds.
"$jetsim" generate --users 120 --days 20 --apps 100 --seed 11 --out "$work/a" >/dev/null
"$jetsim" generate --users 30 --days 14 --apps 60 --seed 23 --out "$work/b" >/dev/null
printf 'base: iphone-x\nfreezer: false\n' > "$work/no-freezer.yaml"
run() { rm -rf "$work/out"; "$jetsim" run --out "$work/out" --quiet "$@"; }
run --device iphone-x --apps "$work/a/apps.csv" --trace "$work/a/trace.csv" --sample-interval 1h
run --device "$work/no-freezer.yaml" --apps "$work/a/apps.csv" --trace "$work/a/trace.csv" --sample-interval 1h
run --device iphone-x --apps "$work/b/apps.csv" --trace "$work/b/trace.csv"
run --device "$work/no-freezer.yaml" --apps "$work/b/apps.csv" --trace "$work/b/trace.csv" --events
for policy in lru fifo lfu cost largest random oracle; do
    run --device iphone-x --apps "$work/b/apps.csv" --trace "$work/b/trace.csv" --sample-interval 1h --policy "$policy"
done
run --device nexus-5 --apps "$work/b/apps.csv" --trace "$work/b/trace.csv" --sample-interval 1h --policy lmkd

# `cachesim`: Zipf traces of other seeds and sizes than the benchmarks'.
python3 Tests/CrossCheck/zipf_trace.py --requests 2000000 --objects 150000 --seed 29 --out "$work/z.csv" \
    --oracle-general "$work/z.bin" >/dev/null
cachesim() { rm -rf "$work/out"; "$jetsim" cachesim --out "$work/out" --quiet "$@"; }
for policy in lru fifo lfu cost largest random xnu; do
    cachesim --trace "$work/z.bin" --trace-format oracleGeneral --capacity 0.001,0.05 --policy "$policy" --jobs 1
done
cachesim --trace "$work/z.csv" --capacity 0.001,0.01,0.1 --policies lru,fifo,lfu,cost,largest,random --jobs 2

mkdir -p Benchmarks/Profile
"$profdata" merge --sparse -o Benchmarks/Profile/jetsim.profdata "$work"/raw/*.profraw
echo "refresh-profile: Benchmarks/Profile/jetsim.profdata ($(wc -c < Benchmarks/Profile/jetsim.profdata) bytes," \
    "$(ls "$work"/raw | wc -l) processes). SwiftPM does not rebuild for a new profile: swift package clean, then build."
