# Peer: a plain single-threaded Python generator of ClariQ's synthetic records from planned topics
# (bench/export-plans.mjs), writing JSONL (json.dumps per record) or pickle.dump of the whole dict.
import json, pickle, resource, sys, time

plans_path, fmt, out = sys.argv[1], sys.argv[2], sys.argv[3]
t0 = time.perf_counter()
topics = json.load(open(plans_path))

def records():
    # Record-id order: for each pass, for each history length, for each topic (as ClariQ numbers them).
    for passed in ([t for t in topics if t["topic_id"] <= 200], [t for t in topics if t["topic_id"] > 200]):
        for level in (0, 1, 2):
            for t in sorted(passed, key=lambda t: t["topic_id"]):
                yield from topic_records(t, level)

def topic_records(t, level):
    F = len(t["facets"]); rows = t["answers"]; n = len(rows[0]); nums = t["numbers"]
    ctx_lists = {}
    def rec(f, hist, x):
        if len(hist) == 0:
            rid = nums["L1base"] + x * F + f; cid = nums["emptyContext"][f]
        elif len(hist) == 1:
            y = hist[0]; rid = nums["L2base"] + x * F * (n - 1) + (y if y < x else y - 1) * F + f
            cid = nums["L1base"] + y * F + f
        else:
            a, b = hist; ci = x - (x > a) - (x > b)
            rid = nums["L3base"] + (((b * (b - 1)) // 2 + a) * F + f) * (n - 2) + ci
            cid = nums["L2base"] + b * F * (n - 1) + a * F + f
        ctx = ctx_lists.get(cid)
        if ctx is None:
            ctx = [{"question": rows[f][h]["question"], "answer": rows[f][h]["answer"]} for h in hist]
            ctx_lists[cid] = ctx
        return rid, {"topic_id": t["topic_id"], "facet_id": t["facets"][f], "initial_request": t["initial_request"],
                     "question": rows[f][x]["question"], "answer": rows[f][x]["answer"],
                     "conversation_context": ctx, "context_id": cid}
    if level == 0:
        for x in range(n):
            for f in range(F): yield rec(f, [], x)
    elif level == 1:
        for x in range(n):
            for y in range(n):
                if y != x:
                    for f in range(F): yield rec(f, [y], x)
    else:
        for b in range(1, n):
            for a in range(b):
                for f in range(F):
                    for c in range(n):
                        if c != a and c != b: yield rec(f, [a, b], c)

count = 0
if fmt == "jsonl":
    with open(out, "w") as fo:
        for rid, r in records():
            fo.write(json.dumps({"record_id": rid, **r}, ensure_ascii=False, separators=(",", ":")) + "\n")
            count += 1
else:
    d = {}
    for rid, r in records():
        d[rid] = r
    count = len(d)
    with open(out, "wb") as fo:
        pickle.dump(d, fo, protocol=4)
print(json.dumps({"records": count, "seconds": time.perf_counter() - t0, "maxRssMiB": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
