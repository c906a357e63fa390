# Peer: CPython pickle.load of the eval dict (tarfile for .tar.gz, as the upstream tool does).
import json, pickle, resource, sys, tarfile, time
t0 = time.perf_counter()
p = sys.argv[1]
if p.endswith(".tar.gz"):
    t = tarfile.open(p)
    d = pickle.load(t.extractfile(t.getmembers()[0]))
else:
    d = pickle.load(open(p, "rb"))
n = sum(len(c) for m in d.values() for c in m.values())
print(json.dumps({"records": n, "seconds": time.perf_counter() - t0, "maxRssMiB": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
