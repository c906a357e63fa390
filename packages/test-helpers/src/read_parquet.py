"""Opens one Parquet file as a user would, with no schema given, in each of pyarrow, pandas, polars,
DuckDB and Hugging Face datasets, and streams what each saw to stdout as lines (memory: one reader's
table at a time, rows written as they are read), for @convkit/test-helpers' parquet-python.ts:

    #{"reader": R, "version": V, "columns": [{"name": N, "type": T, "normalized": U}, ...]}
    [value, ...]                          one line per row: its values in column order, or
    {"name": value, ...}                  the row as the library writes JSON itself (polars)
    #{"end": R, "rows": N, "seconds": S}  S: the reader's open + read + write time
    #{"error": R, "message": M}           instead of "end" when the reader failed

T is the type as the library names it; U the same in one vocabulary for all readers (int64,
string, double, boolean, list<...>, struct<name: type, ...>). Ints are JSON numbers with all their
digits, doubles their shortest round trip (Python's repr; polars' own JSON), nulls null (pandas' NaN
of a missing value too, and polars' own JSON writes NaN as null).

usage: python3 read_parquet.py FILE [READER ...]   (exit 1 when a reader failed)
       python3 read_parquet.py --serve

--serve reads requests from stdin, one JSON line each ({"path": FILE, "readers": [READER, ...]}),
and answers each with the lines above and then #{"done": FILE, "failed": true|false}: the libraries
are imported once for all the files of a test run (their imports take 3 s of each file's read).
"""

import gc
import json
import math
import os
import shutil
import sys
import tempfile
import time

# datasets writes its cache (a copy of the data) and would look online: everything in a temp
# folder removed at exit, offline, no progress bars on stderr. Set before datasets is imported.
_TMP = tempfile.TemporaryDirectory(prefix="convkit-read-parquet-")
os.environ["HF_HOME"] = os.path.join(_TMP.name, "hf")
os.environ["HF_DATASETS_CACHE"] = os.path.join(_TMP.name, "hf", "datasets")
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["HF_DATASETS_OFFLINE"] = "1"
os.environ["HF_DATASETS_DISABLE_PROGRESS_BARS"] = "1"

BATCH = 10_000
OUT = sys.stdout


def emit(obj):
    OUT.write("#")
    OUT.write(json.dumps(obj, ensure_ascii=False, separators=(",", ":"), default=str))
    OUT.write("\n")


def emit_rows(rows):
    """Writes each row (a tuple of Python values, or a line of JSON already); returns how many."""
    if isinstance(rows, NdjsonChunks):
        return rows.write(OUT)
    n = 0
    dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), default=str).encode
    write = OUT.write
    for row in rows:
        write(dumps(list(row)))
        write("\n")
        n += 1
    return n


class NdjsonChunks:
    """Rows a library writes as JSON lines itself: chunks of text, each ending in a newline."""

    def __init__(self, chunks):
        self.chunks = chunks

    def write(self, out):
        n = 0
        for text in self.chunks():
            out.write(text)
            n += text.count("\n")
        return n


# ---- pyarrow -------------------------------------------------------------------------------------


def arrow_normalized(t):
    import pyarrow as pa

    if pa.types.is_int64(t):
        return "int64"
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return "string"
    if pa.types.is_float64(t):
        return "double"
    if pa.types.is_boolean(t):
        return "boolean"
    if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_list_view(t):
        return f"list<{arrow_normalized(t.value_type)}>"
    if pa.types.is_struct(t):
        return "struct<%s>" % ", ".join(f"{f.name}: {arrow_normalized(f.type)}" for f in t)
    return str(t)


def read_pyarrow(path):
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    columns = [{"name": f.name, "type": str(f.type), "normalized": arrow_normalized(f.type)} for f in table.schema]

    def rows():
        for batch in table.to_batches(max_chunksize=BATCH):
            yield from zip(*(col.to_pylist() for col in batch.columns))

    return columns, rows()


# ---- pandas --------------------------------------------------------------------------------------


def pandas_value(v):
    """A pandas cell as plain Python: numpy arrays (lists) and scalars unwrapped, missing as None."""
    import numpy as np
    import pandas as pd

    if v is None or isinstance(v, (str, bool, int)):
        return v
    if isinstance(v, float):
        return None if math.isnan(v) else v
    if isinstance(v, (np.ndarray, list, tuple)):
        return [pandas_value(x) for x in v]
    if isinstance(v, dict):
        return {k: pandas_value(x) for k, x in v.items()}
    if isinstance(v, np.generic):
        return pandas_value(v.item())
    if v is pd.NA or v is pd.NaT:
        return None
    return v


def pandas_column(series):
    """A column as a list of plain Python values: tolist() (C speed) first, then each cell that is
    not already a plain value (NaN of a missing value, arrays of lists, numpy scalars) converted."""
    plain = (str, bool, int)
    return [
        v if v is None or type(v) in plain or (type(v) is float and v == v) else pandas_value(v)
        for v in series.tolist()
    ]


def infer_normalized(values):
    """The type of Python values (an object column's, where pandas names only "object"); `values`
    makes a fresh iterator each call. "null" when every value is missing."""
    for v in values():
        if v is None:
            continue
        if isinstance(v, bool):
            return "boolean"
        if isinstance(v, int):
            return "int64"
        if isinstance(v, float):
            return "double"
        if isinstance(v, str):
            return "string"
        if isinstance(v, list):
            return "list<%s>" % infer_normalized(lambda: (x for u in values() if u is not None for x in u))
        if isinstance(v, dict):
            fields = []
            for k in v:
                inner = infer_normalized(lambda k=k: (d.get(k) for d in values() if isinstance(d, dict)))
                fields.append(f"{k}: {inner}")
            return "struct<%s>" % ", ".join(fields)
        return type(v).__name__
    return "null"


PANDAS_TYPES = {"int64": "int64", "float64": "double", "bool": "boolean", "str": "string", "string": "string"}


def read_pandas(path):
    import pandas as pd

    df = pd.read_parquet(path)
    columns = []
    for name in df.columns:
        dtype = str(df[name].dtype)
        norm = PANDAS_TYPES.get(dtype)
        if norm is None and dtype == "object":
            s = df[name]
            norm = infer_normalized(lambda s=s: map(pandas_value, s))
        columns.append({"name": str(name), "type": dtype, "normalized": norm or dtype})

    def rows():
        # A slice of rows at a time: plain Python lists of one slice, not of the whole frame.
        for start in range(0, len(df), BATCH):
            part = df.iloc[start : start + BATCH]
            yield from zip(*(pandas_column(part[name]) for name in df.columns))

    return columns, rows()


# ---- polars --------------------------------------------------------------------------------------


def polars_normalized(t):
    import polars as pl

    if t == pl.Int64:
        return "int64"
    if t == pl.String:
        return "string"
    if t == pl.Float64:
        return "double"
    if t == pl.Boolean:
        return "boolean"
    if isinstance(t, (pl.List, pl.Array)):
        return f"list<{polars_normalized(t.inner)}>"
    if isinstance(t, pl.Struct):
        return "struct<%s>" % ", ".join(f"{f.name}: {polars_normalized(f.dtype)}" for f in t.fields)
    return str(t)


def read_polars(path):
    import polars as pl

    df = pl.read_parquet(path)
    columns = [{"name": n, "type": str(t), "normalized": polars_normalized(t)} for n, t in df.schema.items()]
    # polars' own JSON writer (its values, shortest round-trip doubles): 6x faster than
    # iter_rows plus Python's json; it writes NaN as null, which the four other readers still tell.
    return columns, NdjsonChunks(lambda: (df.slice(i, BATCH).write_ndjson() for i in range(0, df.height, BATCH)))


# ---- DuckDB --------------------------------------------------------------------------------------

DUCKDB_TYPES = {"bigint": "int64", "varchar": "string", "double": "double", "boolean": "boolean"}


def duckdb_normalized(t):
    if t.id == "list":
        return f"list<{duckdb_normalized(t.children[0][1])}>"
    if t.id == "struct":
        return "struct<%s>" % ", ".join(f"{n}: {duckdb_normalized(c)}" for n, c in t.children)
    return DUCKDB_TYPES.get(t.id, str(t))


def read_duckdb(path):
    import duckdb

    query = "select * from read_parquet(?)"
    rel = duckdb.sql(query, params=[path])
    columns = [{"name": n, "type": str(t), "normalized": duckdb_normalized(t)} for n, t in zip(rel.columns, rel.types)]
    # The rows through a cursor of the same query: a relation's fetchmany took 125 s for 745k rows
    # where the cursor's takes 15 s.
    cursor = duckdb.connect().execute(query, [path])

    def rows():
        while True:
            chunk = cursor.fetchmany(BATCH)
            if not chunk:
                return
            yield from chunk

    return columns, rows()


# ---- Hugging Face datasets -----------------------------------------------------------------------

DATASETS_TYPES = {"int64": "int64", "string": "string", "large_string": "string", "float64": "double", "bool": "boolean"}


def datasets_normalized(f):
    import datasets

    if isinstance(f, datasets.Value):
        return DATASETS_TYPES.get(f.dtype, f.dtype)
    if isinstance(f, (datasets.List, datasets.LargeList)):
        return f"list<{datasets_normalized(f.feature)}>"
    if isinstance(f, dict):
        return "struct<%s>" % ", ".join(f"{k}: {datasets_normalized(v)}" for k, v in f.items())
    return str(f)


def read_datasets(path):
    import datasets

    ds = datasets.load_dataset(
        "parquet", data_files=path, split="train", cache_dir=os.environ["HF_DATASETS_CACHE"]
    )
    names = list(ds.features)
    columns = [{"name": n, "type": str(ds.features[n]), "normalized": datasets_normalized(ds.features[n])} for n in names]

    def rows():
        for batch in ds.iter(batch_size=BATCH):
            yield from zip(*(batch[n] for n in names))

    return columns, rows()


READERS = {
    "pyarrow": ("pyarrow", read_pyarrow),
    "pandas": ("pandas", read_pandas),
    "polars": ("polars", read_polars),
    "duckdb": ("duckdb", read_duckdb),
    "datasets": ("datasets", read_datasets),
}


def read_file(path, readers):
    """Every reader's lines for one file; answers whether one failed."""
    failed = False
    for reader in readers or list(READERS):
        module, read = READERS[reader]
        start = time.perf_counter()
        try:
            version = __import__(module).__version__
            columns, rows = read(path)
            emit({"reader": reader, "version": version, "columns": columns})
            n = emit_rows(rows)
            emit({"end": reader, "rows": n, "seconds": round(time.perf_counter() - start, 3)})
        except Exception as e:  # one reader failing is a finding; the others still run
            failed = True
            emit({"error": reader, "message": f"{type(e).__name__}: {e}"})
        rows = columns = None
        gc.collect()
    # datasets' copy of the data (its cache) goes with the request.
    shutil.rmtree(os.environ["HF_DATASETS_CACHE"], ignore_errors=True)
    OUT.flush()
    return failed


def serve():
    for line in sys.stdin:
        request = json.loads(line)
        path, readers = request["path"], request["readers"]
        if any(r not in READERS for r in readers):
            raise SystemExit(f"read_parquet.py: no reader among {readers}")
        failed = read_file(path, readers)
        emit({"done": path, "failed": failed})
        OUT.flush()
    return 0


def main(argv):
    if argv[1:] == ["--serve"]:
        return serve()
    if len(argv) < 2 or any(r not in READERS for r in argv[2:]):
        sys.stderr.write(f"usage: read_parquet.py FILE [{' | '.join(READERS)} ...]\n       read_parquet.py --serve\n")
        return 2
    return 1 if read_file(argv[1], argv[2:]) else 0


if __name__ == "__main__":
    sys.stdout.reconfigure(encoding="utf-8", newline="\n")
    try:
        code = main(sys.argv)
    finally:
        _TMP.cleanup()
    sys.exit(code)
