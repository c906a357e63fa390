// At scale against CPython: the golden multi-turn eval dict, read by convkit, written back, equals the original.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { evalDictValue, toEvalDict } from "@convkit/formats";
import { dumpPickle, readPickleFile } from "@convkit/pickle";
import { python, requires, shared, tempDir } from "@convkit/test-helpers";
import { expect, it } from "vitest";

requires("shared", "python3").describe(
  "golden multi-turn eval dict round trip through CPython (shared, slow)",
  () => {
    it("CPython finds the pickle convkit writes == the published one, and convkit's is no larger", async () => {
      const src = shared("golden", "clariq-eval", "eval_dicts", "multi_turn_dev_eval.pkl.tar.gz");
      const d = toEvalDict(src, await readPickleFile(src));
      const ours = join(tempDir(), "ours.pkl");
      const bytes = dumpPickle(evalDictValue(d));
      writeFileSync(ours, bytes);
      const out = python(
        "import pickle,sys,tarfile\nt=tarfile.open(sys.argv[1]);raw=t.extractfile(t.getmembers()[0]).read()\na=pickle.loads(raw);b=pickle.load(open(sys.argv[2],'rb'))\nprint(a==b, list(a)==list(b), all(list(a[m])==list(b[m]) for m in a), len(raw))",
        undefined,
        [src, ours],
      ).trim();
      const [eq, keyOrder, ctxOrder, rawLen] = out.split(" ");
      expect([eq, keyOrder, ctxOrder]).toEqual(["True", "True", "True"]);
      expect(bytes.length).toBeLessThanOrEqual(Number(rawLen));
    });
  },
);
