// The official iKAT 2023/2024 checkers and generate_run.py against their goldens
// (../shared/golden/ikat-checkers/YEAR/NNN: run.json.gz, check.rc, check.log, trec.run.gz or trec.rc).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { type IkatTopic, readIkatTopics } from "@convkit/formats";
import { requires, SHARED, shared } from "@convkit/test-helpers";
import { beforeAll, expect, it } from "vitest";
import { officialCheck } from "./checker-2023-2024.js";
import { readProtoRun, trecRunText } from "./convert.js";

/** An official log line as a finding would hold it (the set's order in 2024's run_type line is Python's hash order). */
function officialLines(log: string): { level: string; message: string }[] {
  const out: { level: string; message: string }[] = [];
  for (const l of log.split("\n")) {
    const m = /^(WARNING|ERROR|INFO) __main__ (.*)$/.exec(l);
    if (m) out.push({ level: m[1]!, message: m[2]! });
    else if (l !== "" && out.length > 0) out[out.length - 1]!.message += `\n${l}`;
  }
  return out.filter((l) => l.level !== "INFO");
}
const sameSet = (s: string) =>
  s.replace(/\{'[^}]*'\}/, (set) => [...set.matchAll(/'[^']*'/g)].sort().join(","));

for (const year of [2023, 2024] as const) {
  requires("shared").describe(`official ${year} checker and generate_run.py on the goldens (shared)`, () => {
    // A path only (shared() throws when it is missing): this runs while the file is collected,
    // also where ../shared is not there and the block is skipped.
    const dir = join(SHARED, "golden", "ikat-checkers", String(year));
    let topics: IkatTopic[];
    beforeAll(async () => {
      topics = await readIkatTopics(shared("data", "ikat", `${year}_test_topics.json`));
    });
    const cases = existsSync(dir) ? readdirSync(dir).sort() : [];

    it(`every case: the same verdict, the same log lines in order (turn named), the same warning count; convert byte-identical`, () => {
      expect(cases.length).toBeGreaterThanOrEqual(60);
      let agree = 0;
      let converted = 0;
      for (const c of cases) {
        const at = (f: string) => join(dir, c, f);
        const bytes = gunzipSync(readFileSync(at("run.json.gz")));
        const rc = Number(readFileSync(at("check.rc"), "utf8"));
        const log = readFileSync(at("check.log"), "utf8");
        const v = officialCheck(bytes, topics, year);
        const label = `${year}/${c} (${readFileSync(at("case.txt"), "utf8").trim()})`;
        expect(v.valid, label).toBe(rc === 0);
        const want = officialLines(log);
        const got = v.findings.map((f) => ({
          level: f.level === "error" ? "ERROR" : "WARNING",
          message: f.message,
        }));
        expect(got.length, label).toBe(want.length);
        want.forEach((w, i) => {
          expect(got[i]!.level, label).toBe(w.level);
          expect(sameSet(got[i]!.message), label).toBe(sameSet(w.message));
          // The turn a line names is the finding's turn.
          const turn = /[Tt]urn (?!ID)([^\s,!]+?)[.,!]?(?:\s|$)/.exec(w.message);
          if (turn) expect(v.findings[i]!.turn, label).toBe(turn[1]);
        });
        const done = /with (\d+) warnings/.exec(log);
        if (rc === 0 && done) expect(v.warnings, label).toBe(Number(done[1]));
        agree++;
        // convert: generate_run.py's bytes, or an error where it failed (the run the check parsed,
        // else parsed again: generate_run.py skips the checker's run_name/run_type/turns test).
        const trec = () => trecRunText(v.run ?? readProtoRun(bytes, year));
        if (existsSync(at("trec.rc"))) expect(trec, label).toThrow();
        else {
          const want = gunzipSync(readFileSync(at("trec.run.gz"))).toString("utf8");
          expect(trec() === want, label).toBe(true);
          converted++;
        }
      }
      expect(agree).toBe(cases.length);
      expect(converted).toBeGreaterThan(40);
    });

    it("convert without --year: the year guessed from the run gives the same bytes", () => {
      for (const c of cases.slice(0, 8)) {
        const at = (f: string) => join(dir, c, f);
        if (existsSync(at("trec.rc"))) continue;
        const bytes = gunzipSync(readFileSync(at("run.json.gz")));
        const want = gunzipSync(readFileSync(at("trec.run.gz"))).toString("utf8");
        expect(trecRunText(readProtoRun(bytes)) === want, `${year}/${c}`).toBe(true);
      }
    });
  });
}
