// TEMPORARY: stands in for @convkit/formats' readIkat25Run until branch wt-eval25 is merged.
import { readJsonl } from "@convkit/formats";
import type { Run25Turn } from "./responses.js";

type Obj = Record<string, unknown>;
const scored = (v: unknown) =>
  Object.entries((v ?? {}) as Record<string, number>).map(([id, score]) => ({ id, score }));

export function readIkat25Run(path: string): AsyncIterable<Run25Turn[]> {
  return readJsonl(path, (v) => {
    const o = v as Obj;
    const m = (o.metadata ?? {}) as Obj;
    return {
      metadata: { team_id: String(m.team_id), run_id: String(m.run_id), run_type: String(m.run_type) },
      turn_id: String(o.turn_id),
      references: scored(o.references),
      responses: ((o.responses ?? []) as Obj[]).map((r) => ({
        text: String(r.text),
        citations: scored(r.citations),
        ptkb_provenance: ((r.ptkb_provenance ?? []) as unknown[]).map(String),
      })),
    };
  });
}
