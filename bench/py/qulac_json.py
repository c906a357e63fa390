# Peer: json.load of qulac.json and conversion to rows (what pandas.read_json replaces).
import json, resource, sys, time
t0 = time.perf_counter()
d = json.load(open(sys.argv[1], encoding="utf-8"))
cols = list(d)
rows = [{c: d[c][i] for c in cols} for i in sorted(d["topic_id"], key=int)]
print(json.dumps({"records": len(rows), "seconds": time.perf_counter() - t0, "maxRssMiB": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
