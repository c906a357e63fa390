# Peer: spaCy as TREC iKAT's passage chunker runs it (spacy_passage_chunker.py): the model loaded with
# every component but `senter` excluded, then `enable_pipe("senter")`, over the texts the chunker
# prepares from ClueWeb22 records (`\r`/`\n` → space, strip, first 10,000 code points).
# usage: spacy_senter.py MODEL_DIR CORPUS.jsonl tokenizer|senter
#   tokenizer: nlp.make_doc(text) (the tokenizer alone); senter: nlp(text) and its sentence texts.
# Reading and preparing the texts and loading the model are outside the timed section (loadSeconds).
import json, resource, sys, time
from pathlib import Path

t0 = time.perf_counter()
import spacy

model, corpus, mode = sys.argv[1], sys.argv[2], sys.argv[3]
if mode not in ("tokenizer", "senter"):
    sys.exit(f"mode must be tokenizer or senter, not {mode}")
pipeline = spacy.util.load_config(Path(model) / "config.cfg")["nlp"]["pipeline"]
nlp = spacy.load(model, exclude=[c for c in pipeline if c != "senter"])
nlp.enable_pipe("senter")
texts = []
in_bytes = 0
with open(corpus, "rb") as f:
    for line in f:
        in_bytes += len(line)
        if not line.strip():
            continue
        t = json.loads(line)["Clean-Text"].replace("\r", " ").replace("\n", " ").strip()[:10000]
        if t:
            texts.append(t)
seg_bytes = sum(len(t.encode("utf-8")) for t in texts)
load = time.perf_counter() - t0

t1 = time.perf_counter()
units = 0
if mode == "tokenizer":
    for t in texts:
        units += len(nlp.make_doc(t))
else:
    for t in texts:
        units += len([s.text for s in nlp(t).sents])
seconds = time.perf_counter() - t1

print(json.dumps({
    "records": len(texts),
    "bytes": in_bytes,
    "segmentedBytes": seg_bytes,
    "tokens" if mode == "tokenizer" else "sentences": units,
    "pipeline": nlp.pipe_names,
    "spacy": spacy.__version__,
    "loadSeconds": load,
    "seconds": seconds,
    "maxRssMiB": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
}))
