"""pyarrow side of bench/parquet-libraries.mjs (issue #41): the reference writer and the checker.

  write --mode memory|stream --in DIR --out DIR [--level N] [--row-group N] [--splits train,dev]
      writes <split>_synthetic.parquet with zstd from <split>_synthetic.jsonl and prints one JSON
      line {seconds, cpu_seconds, rows, max_rss_mib, records_rss_mib} (CPU: all threads, user + system). memory: the records are parsed first (not
      timed), then Table.from_pylist + write_table are timed; stream: reading the JSONL is timed
      too, and batches of --row-group rows go to a ParquetWriter as they are read.
  verify FILE.parquet FILE.jsonl
      prints {ok, schema, rows, why}: the declared types (int64 ids, strings,
      list<struct<question, answer>>) and every row equal to the JSONL's, field for field.
"""

import argparse
import json
import resource
import sys
import time

import pyarrow as pa
import pyarrow.parquet as pq

CONTEXT = pa.struct([pa.field("question", pa.string(), False), pa.field("answer", pa.string(), False)])
SCHEMA = pa.schema(
    [
        pa.field("record_id", pa.int64(), False),
        pa.field("topic_id", pa.int64(), False),
        pa.field("facet_id", pa.string(), False),
        pa.field("initial_request", pa.string(), False),
        pa.field("question", pa.string(), False),
        pa.field("answer", pa.string(), False),
        pa.field("conversation_context", pa.list_(pa.field("element", CONTEXT, False)), False),
        pa.field("context_id", pa.int64(), False),
    ]
)


def rss_mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def lines(path):
    with open(path, encoding="utf-8") as f:
        for line in f:
            yield json.loads(line)


def write(args):
    kw = {"compression": "zstd"}
    if args.level is not None:
        kw["compression_level"] = args.level
    rows = 0
    records_rss = 0.0
    seconds = 0.0
    cpu = 0.0
    for split in args.splits.split(","):
        src = f"{args.input}/{split}_synthetic.jsonl"
        dst = f"{args.out}/{split}_synthetic.parquet"
        if args.mode == "memory":
            records = list(lines(src))
            records_rss = max(records_rss, rss_mib())
            t0, c0 = time.perf_counter(), time.process_time()
            table = pa.Table.from_pylist(records, schema=SCHEMA)
            pq.write_table(table, dst, row_group_size=args.row_group, **kw)
            seconds += time.perf_counter() - t0
            cpu += time.process_time() - c0
            rows += len(records)
            del records, table
        else:
            t0, c0 = time.perf_counter(), time.process_time()
            with pq.ParquetWriter(dst, SCHEMA, **kw) as writer:
                batch = []
                for record in lines(src):
                    batch.append(record)
                    if len(batch) == args.row_group:
                        writer.write_batch(pa.RecordBatch.from_pylist(batch, schema=SCHEMA))
                        rows += len(batch)
                        batch = []
                if batch:
                    writer.write_batch(pa.RecordBatch.from_pylist(batch, schema=SCHEMA))
                    rows += len(batch)
            seconds += time.perf_counter() - t0
            cpu += time.process_time() - c0
    print(json.dumps({"seconds": seconds, "cpu_seconds": cpu, "rows": rows, "max_rss_mib": rss_mib(), "records_rss_mib": records_rss}))


def same_type(got, want):
    # the list's item field may be named "element" (compliant) or "item": compare the shape, not the name
    if pa.types.is_list(want):
        return pa.types.is_list(got) and same_type(got.value_type, want.value_type)
    if pa.types.is_struct(want):
        return (
            pa.types.is_struct(got)
            and got.num_fields == want.num_fields
            and all(got.field(i).name == want.field(i).name and same_type(got.field(i).type, want.field(i).type) for i in range(want.num_fields))
        )
    return got == want


def verify(args):
    schema = pq.read_schema(args.parquet)
    why = ""
    if schema.names != SCHEMA.names:
        why = f"columns {schema.names}"
    else:
        for field in SCHEMA:
            if not same_type(schema.field(field.name).type, field.type):
                why = f"{field.name} is {schema.field(field.name).type}"
                break
    rows = 0
    if not why:
        got = pq.ParquetFile(args.parquet).iter_batches(batch_size=100_000)
        want = lines(args.jsonl)
        for batch in got:
            for row in batch.to_pylist():
                if row != next(want, None):
                    why = f"row {rows + 1} differs"
                    break
                rows += 1
            if why:
                break
        if not why and next(want, None) is not None:
            why = f"only {rows} rows"
    short = str(schema.field("conversation_context").type) + "; ids " + str(schema.field("record_id").type)
    print(json.dumps({"ok": not why, "schema": short, "rows": rows, "why": why}))


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="cmd", required=True)
    w = sub.add_parser("write")
    w.add_argument("--mode", choices=["memory", "stream"], required=True)
    w.add_argument("--in", dest="input", required=True)
    w.add_argument("--out", required=True)
    w.add_argument("--level", type=int)
    w.add_argument("--row-group", type=int, default=None)
    w.add_argument("--splits", default="train,dev")
    v = sub.add_parser("verify")
    v.add_argument("parquet")
    v.add_argument("jsonl")
    args = parser.parse_args()
    if args.cmd == "write":
        if args.mode == "stream" and args.row_group is None:
            args.row_group = 100_000
        write(args)
    else:
        verify(args)


if __name__ == "__main__":
    sys.exit(main())
