"""One reader opening one table, as a user would, no schema given: prints
{"records", "seconds", "maxRssMiB"} as JSON (or {"error": ...} when the reader refuses the file).

usage: read_table.py pandas|polars|pyarrow|duckdb|datasets FILE.jsonl|FILE.parquet
"""
import json
import os
import resource
import sys
import tempfile
import time

reader, path = sys.argv[1], sys.argv[2]
parquet = path.endswith(".parquet")
start = time.perf_counter()
try:
    if reader == "pandas":
        import pandas as pd

        n = len(pd.read_parquet(path) if parquet else pd.read_json(path, lines=True))
    elif reader == "polars":
        import polars as pl

        n = (pl.read_parquet(path) if parquet else pl.read_ndjson(path)).height
    elif reader == "pyarrow":
        if parquet:
            import pyarrow.parquet as pq

            n = pq.read_table(path).num_rows
        else:
            import pyarrow.json as pj

            n = pj.read_json(path).num_rows
    elif reader == "duckdb":
        import duckdb

        # A DuckDB user queries the file in SQL (a count reads every row); materializing it to
        # Arrow would time DuckDB's list<struct> conversion, not the file.
        fn = "read_parquet" if parquet else "read_json_auto"
        n = duckdb.sql(f"select count(*) from {fn}(?)", params=[path]).fetchone()[0]
    elif reader == "datasets":
        os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        cache = tempfile.mkdtemp()
        import datasets

        datasets.disable_progress_bars()
        kind = "parquet" if parquet else "json"
        n = len(datasets.load_dataset(kind, data_files=path, split="train", cache_dir=cache))
    else:
        raise SystemExit(f"unknown reader {reader}")
except SystemExit:
    raise
except Exception as e:  # the reader refusing the file is a result, not a crash of the bench
    print(json.dumps({"error": f"{type(e).__name__}: {str(e).splitlines()[0][:160]}"}))
    sys.exit(0)
seconds = time.perf_counter() - start
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"records": n, "seconds": seconds, "maxRssMiB": rss}))
