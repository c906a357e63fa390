# Peer: Python's csv module reading the ClariQ TSVs into dicts (what pandas.read_csv replaces).
import csv, json, resource, sys, time
t0 = time.perf_counter()
n = 0
for f in sys.argv[1:]:
    with open(f, newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            row["topic_id"] = int(row["topic_id"]); row["clarification_need"] = int(row["clarification_need"])
            n += 1
print(json.dumps({"records": n, "seconds": time.perf_counter() - t0, "maxRssMiB": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
