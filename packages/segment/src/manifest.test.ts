// The manifest's parts that no CLI test reaches: a model's identity, the options in effect, a
// manifest read back only when whole.
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";
import {
  modelIdentity,
  type OutputManifest,
  outputOptions,
  readManifest,
  writeManifest,
} from "./manifest.js";

describe("manifest", () => {
  it("a model folder's identity: the same for a copy elsewhere, another for one byte changed or a file added", async () => {
    const d = tempDir("seg-model-");
    const a = join(d, "a");
    mkdirSync(join(a, "senter"), { recursive: true });
    writeFileSync(join(a, "meta.json"), '{"name": "core_web_sm"}');
    writeFileSync(join(a, "senter", "model"), Buffer.from([1, 2, 3, 4]));
    cpSync(a, join(d, "b"), { recursive: true });
    const id = await modelIdentity(a);
    expect(await modelIdentity(join(d, "b"))).toBe(id);
    writeFileSync(join(d, "b", "senter", "model"), Buffer.from([1, 2, 3, 5]));
    expect(await modelIdentity(join(d, "b"))).not.toBe(id);
    cpSync(a, join(d, "c"), { recursive: true });
    writeFileSync(join(d, "c", "extra"), "");
    expect(await modelIdentity(join(d, "c"))).not.toBe(id);
  });

  it("options in effect: a preset's default given is no change; an override is", () => {
    const base = outputOptions({ preset: "ikat", splitter: "heuristic" });
    expect(
      outputOptions({ preset: "ikat", splitter: "heuristic", overrides: { stride: 5 }, urlTitle: false }),
    ).toEqual(base);
    expect(outputOptions({ preset: "ikat", splitter: "heuristic", overrides: { stride: 3 } }).stride).toBe(3);
    expect(outputOptions({ preset: "msmarco", splitter: "heuristic" }).idSeparator).toBe("#");
  });

  it("read back as written; cut, of another shape or with an unknown format: no manifest", async () => {
    const d = tempDir("seg-manifest-");
    const m: OutputManifest = {
      writer: "convkit 9.9.9",
      input: { size: 10, mtimeNs: "1700000000123456789", sha256: "ab".repeat(32) },
      options: outputOptions({ preset: "ikat", splitter: "icu" }),
      outputs: { hashes: 5, jsonl: 7 },
      docs: 2,
      passages: 3,
    };
    const p = join(d, "x.manifest.json");
    await writeManifest(p, m);
    expect(await readManifest(p)).toEqual(m);
    const text = JSON.stringify(await readManifest(p));
    for (const bad of [
      text.slice(0, 50),
      text.replace('"docs":2', '"docs":-1'),
      text.replace('"jsonl":7', '"pdf":7'),
      text.replace('"size":10', '"size":"10"'),
      "[]",
    ]) {
      writeFileSync(p, bad);
      expect(await readManifest(p), bad).toBeUndefined();
    }
    expect(await readManifest(join(d, "none.json"))).toBeUndefined();
  });
});
