# Peer: spaCy as TREC iKAT's passage chunker runs it (spacy_passage_chunker.py): the model loaded with
# every component but `senter` excluded, then `enable_pipe("senter")`, over prepared texts (JSONL
# {"id", "text"}: bench/gen-real-corpus.mjs's real-MB.texts.jsonl, the texts convkit reads).
# usage: spacy_senter.py MODEL_DIR TEXTS.jsonl tokenizer|senter
#        spacy_senter.py MODEL_DIR TEXTS.jsonl sentences OUT.jsonl
#   tokenizer: nlp.make_doc(text) (the tokenizer alone); senter: nlp(text) and its sentence texts;
#   reading the texts and loading the model are outside the timed section (loadSeconds); wall and CPU
#   seconds (time.process_time: user+sys of the process) of the timed section.
#   sentences: the whole job as a script does it (timed from outside, as a process): each line read,
#   nlp(text), {"id", "sentences": [s.text for s in doc.sents]} written to OUT.jsonl, in input order.
import json, resource, sys, time
from pathlib import Path

t0 = time.perf_counter()
import spacy

model, texts_path, mode = sys.argv[1], sys.argv[2], sys.argv[3]
if mode not in ("tokenizer", "senter", "sentences"):
    sys.exit(f"mode must be tokenizer, senter or sentences, not {mode}")
pipeline = spacy.util.load_config(Path(model) / "config.cfg")["nlp"]["pipeline"]
nlp = spacy.load(model, exclude=[c for c in pipeline if c != "senter"])
nlp.enable_pipe("senter")

if mode == "sentences":
    n = 0
    with open(texts_path, encoding="utf-8") as f, open(sys.argv[4], "w", encoding="utf-8") as out:
        for line in f:
            if not line.strip():
                continue
            r = json.loads(line)
            sents = [s.text for s in nlp(r["text"]).sents]
            out.write(json.dumps({"id": r["id"], "sentences": sents}, ensure_ascii=False) + "\n")
            n += 1
    print(json.dumps({"records": n, "spacy": spacy.__version__}))
    sys.exit(0)

texts = []
with open(texts_path, encoding="utf-8") as f:
    for line in f:
        if line.strip():
            texts.append(json.loads(line)["text"])
text_bytes = sum(len(t.encode("utf-8")) for t in texts)
load = time.perf_counter() - t0

c1 = time.process_time()
t1 = time.perf_counter()
units = 0
if mode == "tokenizer":
    for t in texts:
        units += len(nlp.make_doc(t))
else:
    for t in texts:
        units += len([s.text for s in nlp(t).sents])
seconds = time.perf_counter() - t1
cpu = time.process_time() - c1

print(json.dumps({
    "records": len(texts),
    "textBytes": text_bytes,
    "tokens" if mode == "tokenizer" else "sentences": units,
    "pipeline": nlp.pipe_names,
    "spacy": spacy.__version__,
    "loadSeconds": load,
    "seconds": seconds,
    "cpuSeconds": cpu,
    "maxRssMiB": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
}))
