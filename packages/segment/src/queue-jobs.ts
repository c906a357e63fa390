// Segmentation's job kinds on the queue, declared once for the command that submits a run and
// the worker that runs it: one unit per input file, and the run's end writing the manifest.
import type { Fields } from "@convkit/json";
import { CODECS } from "@convkit/parquet";
import { defineJobKindWithState, defineRunKind } from "@convkit/queue";
import type { PassageFormat } from "./encode.js";
import {
  finishQueuedSegmentation,
  type ManifestEntry,
  openSegmentationPool,
  type SegmentJobSummary,
  type SegmentUnitData,
  segmentQueuedInput,
} from "./job.js";
import { readWindowOverrides } from "./window-options.js";

const PRESETS = ["ikat", "msmarco"] as const;
const FORMATS = ["jsonl", "parquet", "hashes", "trecweb"] as const satisfies readonly PassageFormat[];

function readUnit(f: Fields): SegmentUnitData {
  const input = f.object("input");
  const o = f.optionalObject("overrides");
  return {
    input: { file: input.string("file"), rel: input.string("rel") },
    out: f.string("out"),
    formats: f.choices("formats", FORMATS),
    preset: f.choice("preset", PRESETS),
    splitter: f.string("splitter"),
    spacyModel: f.optionalString("spacyModel"),
    urlTitle: f.optionalBoolean("urlTitle"),
    offsets: f.optionalBoolean("offsets"),
    compression: f.has("compression") ? f.choice("compression", CODECS) : undefined,
    overrides: o && readWindowOverrides(o),
  };
}

const readEntry = (f: Fields): ManifestEntry => ({
  rel: f.string("rel"),
  docs: f.integer("docs"),
  passages: f.integer("passages"),
  skipped: f.optionalBoolean("skipped"),
});

/**
 * A unit: one input file segmented on the worker's thread pool, unless its outputs are current
 * (what is redone, and why, is a line on the worker's stderr); what became of it is its result.
 */
export const segmentFileJob = defineJobKindWithState({
  name: "segment-file",
  payload: readUnit,
  result: readEntry,
  open: (env) => openSegmentationPool(env.threads),
  close: (pool) => pool.destroy(),
  handle: (data, ctx, pool) =>
    segmentQueuedInput(
      data,
      pool,
      (docs, bytes) => ctx.progress(docs, bytes),
      (line) => ctx.say(line),
    ),
});

/** The run's end: what the units did, summed (each unit wrote its input's manifest). */
export const segmentRunJob = defineRunKind({
  name: "segment-run",
  unit: segmentFileJob,
  payload: (f): { out: string } => ({ out: f.string("out") }),
  result: (f): SegmentJobSummary => ({
    files: f.integer("files"),
    skipped: f.integer("skipped"),
    docs: f.integer("docs"),
    passages: f.integer("passages"),
  }),
  handle: (p, units) => finishQueuedSegmentation(p.out, units.results),
});
