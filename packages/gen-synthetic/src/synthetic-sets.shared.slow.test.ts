// convkit-gen-synthetic on the real ClariQ dev data (../shared): the record counts, and CPython loads the pickle to the JSONL records (over 10 s on a busy 2-core machine).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { python, requires, runCli, shared, tempDir } from "@convkit/test-helpers";
import { expect, it } from "vitest";

function gen(args: string[]) {
  return runCli("gen-synthetic", args);
}

requires("shared", "python3").describe("convkit-gen-synthetic on the real dev data (shared)", () => {
  it("dev_synthetic: 182,435 records, CPython loads the pickle to exactly the JSONL records, in id order", () => {
    const out = tempDir();
    const r = gen([
      "--data",
      shared("data", "clariq"),
      "--qulac",
      shared("data", "qulac", "qulac.json"),
      "--splits",
      "dev",
      "--out",
      out,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^182435 records, 15345 contexts, 3 files/);
    const check = python(
      "import pickle,tarfile,json,sys\nt=tarfile.open(sys.argv[1]+'/dev_synthetic.pkl.tar.gz')\nd=pickle.load(t.extractfile('dev_synthetic.pkl'))\nl=[json.loads(x) for x in open(sys.argv[1]+'/dev_synthetic.jsonl')]\nprint(len(d), list(d)==[x['record_id'] for x in l], all(d[x['record_id']]=={k:v for k,v in x.items() if k!='record_id'} for x in l), list(d)==sorted(d))",
      undefined,
      [out],
    ).trim();
    expect(check).toBe("182435 True True True");
    const tsv = readFileSync(join(out, "dev_synthetic.contexts.tsv"), "utf8").trim().split("\n");
    expect(tsv.length - 1).toBe(15345);
  }, 240_000);
});
