// Jobs whose stored JSON cannot be parsed (written into Redis by hand, by another program, or
// half by a crash): BullMQ throws a SyntaxError wherever it reads one, so a worker would leave it
// active forever and `status` would crash on it. Here such a job is found from its raw hash,
// named with its reason, and (on a worker) rewritten so that BullMQ can read it and the worker
// fails it once, as any job with data its kind refuses.
import { messageOf } from "@convkit/io";
import { tryParseJson } from "@convkit/json";
import type { Job, Queue } from "bullmq";
import type { Redis } from "ioredis";
import { loadBullmq } from "./connection.js";

/** The job hash fields BullMQ parses as JSON when it reads a job. */
const JSON_FIELDS = ["data", "opts", "parent"] as const;

/** The field of the data a rewritten unreadable job carries: its reason (the worker fails the job with it). */
export const UNREADABLE_FIELD = "convkitUnreadable";

/** Why a raw field is not JSON, or undefined when it is (or absent: BullMQ reads that as none). */
function parseError(raw: string | null | undefined): string | undefined {
  if (raw === null || raw === undefined || raw === "") return undefined;
  const parsed = tryParseJson(raw);
  return parsed.ok ? undefined : parsed.reason;
}

/** What is wrong with a job's raw {@link JSON_FIELDS} (`data is not JSON (…)`), or undefined when BullMQ can read them. */
function unreadableReason(hash: readonly (string | null)[]): string | undefined {
  const bad = JSON_FIELDS.flatMap((field, i) => {
    const e = parseError(hash[i]);
    return e === undefined ? [] : [`${field} is not JSON (${e})`];
  });
  return bad.length ? bad.join("; ") : undefined;
}

/** A job as `status` and `clean` see it: BullMQ's job, or the reason it cannot be read. */
export type ListedJob =
  | { readonly id: string; readonly job: Job; readonly unreadable?: undefined }
  | { readonly id: string; readonly job?: undefined; readonly name: string; readonly unreadable: string };

/** Jobs of the queue in `states`, each read by BullMQ or, where that fails, named by its raw hash. */
export async function listJobs(
  q: Queue,
  client: Redis,
  states: Parameters<Queue["getRanges"]>[0],
): Promise<ListedJob[]> {
  const { Job } = await loadBullmq();
  const ids = [...new Set(await q.getRanges(states, 0, -1, true))];
  const out: ListedJob[] = [];
  for (const id of ids) {
    try {
      const job = await Job.fromId(q, id);
      if (job) out.push({ id, job });
    } catch (e) {
      const [name, ...hash] = await client.hmget(q.toKey(id), "name", ...JSON_FIELDS);
      out.push({
        id,
        name: name ?? "",
        unreadable: unreadableReason(hash) ?? messageOf(e).replace(/\n[\s\S]*/, ""),
      });
    }
  }
  return out;
}

/** The fields that make an unreadable job readable, failing with `reason`. */
function rewritten(
  q: Queue,
  reason: string,
  hash: readonly (string | null)[],
  parentKey: string | null,
  keepFailedSeconds: number,
): Record<string, string> {
  const fields: Record<string, string> = { data: JSON.stringify({ [UNREADABLE_FIELD]: reason }) };
  if (parseError(hash[1]) !== undefined)
    fields.opts = JSON.stringify({ attempts: 1, removeOnFail: { age: keepFailedSeconds } });
  if (parseError(hash[2]) !== undefined && parentKey) {
    // `bull:QUEUE:ID`: the parent's id after the queue's key prefix; units ignore their failure
    // in the parent (as submitted), which lists it.
    const prefix = q.toKey("");
    const parentId = parentKey.startsWith(prefix) ? parentKey.slice(prefix.length) : parentKey;
    fields.parent = JSON.stringify({ id: parentId, queueKey: prefix.slice(0, -1), idof: true });
  }
  return fields;
}

/**
 * Rewrites the queue's unfinished jobs that BullMQ cannot read: their data becomes a record of
 * the reason (the worker fails the job with it, once), unreadable options become none but a
 * failed job's retention, an unreadable parent link is made again from the job's parent key (so
 * the run still hears of the failure). Returns the jobs rewritten and why.
 */
export async function repairUnreadable(
  q: Queue,
  client: Redis,
  keepFailedSeconds: number,
): Promise<{ id: string; reason: string }[]> {
  const ids = [
    ...new Set(
      await q.getRanges(["waiting", "active", "prioritized", "delayed", "waiting-children"], 0, -1, true),
    ),
  ];
  const repaired: { id: string; reason: string }[] = [];
  // Read in batches of one round trip each: a run may have a hundred thousand units.
  for (let i = 0; i < ids.length; i += 1000) {
    const batch = ids.slice(i, i + 1000);
    const pipe = client.pipeline();
    for (const id of batch) pipe.hmget(q.toKey(id), "parentKey", ...JSON_FIELDS);
    const replies = (await pipe.exec()) ?? [];
    for (const [j, id] of batch.entries()) {
      const [err, reply] = replies[j] ?? [null, null];
      if (err || !Array.isArray(reply)) continue;
      const [parentKey, ...hash] = reply.map((x: unknown) => (typeof x === "string" ? x : null));
      const reason = unreadableReason(hash);
      if (reason === undefined) continue;
      await client.hset(q.toKey(id), rewritten(q, reason, hash, parentKey ?? null, keepFailedSeconds));
      repaired.push({ id, reason });
    }
  }
  return repaired;
}
