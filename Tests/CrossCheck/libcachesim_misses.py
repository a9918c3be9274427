#!/usr/bin/env python3
"""Counts libCacheSim's misses exactly (request by request, not from a float ratio) for one algorithm and
capacity on a CSV trace (time,obj_id,obj_size with a header)."""
import sys
import libcachesim as lcs

path, algorithm, capacity = sys.argv[1], sys.argv[2], int(sys.argv[3])
params = lcs.ReaderInitParam(has_header=True, has_header_set=True, delimiter=",")
params.time_field, params.obj_id_field, params.obj_size_field = 1, 2, 3
reader = lcs.TraceReader(path, lcs.TraceType.CSV_TRACE, params)
cache = {"lru": lcs.LRU, "fifo": lcs.FIFO}[algorithm](capacity)
misses = 0
for req in reader:
    if not req.valid:
        break
    if not cache.get(req):
        misses += 1
print(misses)
