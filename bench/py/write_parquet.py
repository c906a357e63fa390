"""The peer of convkit's Parquet writer: the same records written by pyarrow (zstd, its defaults).

usage: write_parquet.py table FILE.parquet OUT.parquet  -- pq.write_table of a table already in
           memory (read from convkit's own Parquet, untimed): pyarrow's writer alone
       write_parquet.py jsonl FILE.jsonl OUT.parquet    -- what a user does today: pandas
           read_json(lines=True), then to_parquet (timed as a whole)
Prints {"records", "seconds", "maxRssMiB", "bytes"} as JSON.
"""
import json
import os
import resource
import sys
import time

mode, src, out = sys.argv[1:4]
import pyarrow.parquet as pq

if mode == "table":
    table = pq.read_table(src)
    start = time.perf_counter()
    pq.write_table(table, out, compression="zstd")
    n = table.num_rows
else:
    import pandas as pd

    start = time.perf_counter()
    df = pd.read_json(src, lines=True)
    df.to_parquet(out, compression="zstd")
    n = len(df)
seconds = time.perf_counter() - start
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"records": n, "seconds": seconds, "maxRssMiB": rss, "bytes": os.path.getsize(out)}))
