#!/usr/bin/env python3
"""Writes a seeded Zipf request trace in libCacheSim's CSV format (time,obj_id,obj_size), with variable sizes
fixed per object and a few objects larger than the smallest capacity. Prints the capacities to test, one per line:
0.1 %, 1 % and 10 % of the bytes of all distinct objects. With --oracle-general, also writes the same requests as
libCacheSim's oracleGeneral binary (24-byte little-endian records: uint32 time, uint64 id, uint32 size, int64
next-access vtime, written -1 here: no reader of these scripts uses it)."""
import argparse, bisect, random, struct

ap = argparse.ArgumentParser()
ap.add_argument("--requests", type=int, default=200_000)
ap.add_argument("--objects", type=int, default=20_000)
ap.add_argument("--alpha", type=float, default=1.0)
ap.add_argument("--seed", type=int, default=42)
ap.add_argument("--out", required=True)
ap.add_argument("--oracle-general", help="also write the requests as an oracleGeneral binary here")
a = ap.parse_args()

rng = random.Random(a.seed)
sizes = [int(2 ** rng.uniform(10, 20)) for _ in range(a.objects)]          # 1 KiB .. 1 MiB, log-uniform
total = sum(sizes)
capacities = [total // 1000, total // 100, total // 10]
for k in range(7, a.objects, a.objects // 5):                               # five objects larger than the smallest cache
    sizes[k] = capacities[0] + 1 + rng.randrange(1000)
weights = [1.0 / (r ** a.alpha) for r in range(1, a.objects + 1)]
cumulative, acc = [], 0.0
for w in weights:
    acc += w
    cumulative.append(acc)
ids = list(range(1, a.objects + 1))
rng.shuffle(ids)                                                            # popularity is not id order
record = struct.Struct("<IQIq")
binary = open(a.oracle_general, "wb") if a.oracle_general else None
with open(a.out, "w") as f:
    f.write("time,obj_id,obj_size\n")
    for i in range(a.requests):
        k = bisect.bisect_left(cumulative, rng.random() * acc)
        f.write(f"{i // 10},{ids[k]},{sizes[k]}\n")                         # ten requests per second: times tie
        if binary:
            binary.write(record.pack(i // 10, ids[k], sizes[k], -1))
if binary:
    binary.close()
for c in capacities:
    print(c)
