# Peer: one of TREC iKAT 2025's official scripts (validate_trec_ikat25.py, generate_run.py, fetched
# by bench/cases/ikat25.mjs) run as its __main__ with the given argv, its stdout discarded; prints
# the records it read, the seconds of the script's run and this process's peak RSS.
import contextlib, io, json, os, resource, runpy, sys, time
script, records, *argv = sys.argv[1:]
sys.argv = [script, *argv]
t0 = time.perf_counter()
code = 0
with contextlib.redirect_stdout(io.StringIO()):
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit as e:
        code = e.code or 0
seconds = time.perf_counter() - t0
print(json.dumps({"records": int(records), "seconds": seconds, "exit": code, "maxRssMiB": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
