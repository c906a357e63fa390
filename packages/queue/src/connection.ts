// Where the queue lives: `redis://HOST:PORT[/DB]` parsed and checked, and the Redis settings a
// crash-proof run needs verified before anything is submitted or taken.
import { ConvkitError, messageOf, UsageError } from "@convkit/io";
import type { Redis } from "ioredis";

/**
 * BullMQ and ioredis, loaded when a queue is used: the libraries that declare job kinds (segment,
 * gen-eval) are loaded by every local run too, and loading BullMQ costs about a second.
 */
export const loadBullmq = (): Promise<typeof import("bullmq")> => import("bullmq");
const loadIoredis = () => import("ioredis");

/** A parsed `--queue` URL. */
export interface QueueAddress {
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly db: number;
}

/** The one BullMQ queue every convkit job goes through (job names say their kind). */
export const QUEUE_NAME = "convkit";

/** Parses `redis://HOST[:PORT][/DB]` (port 6379, db 0 by default); anything else is a usage error. */
export function parseQueueUrl(url: string): QueueAddress {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new UsageError(`--queue: expected redis://HOST:PORT[/DB], found ${JSON.stringify(url)}`);
  }
  if (u.protocol !== "redis:" || u.hostname === "" || u.search !== "" || u.hash !== "")
    throw new UsageError(`--queue: expected redis://HOST:PORT[/DB], found ${JSON.stringify(url)}`);
  const port = u.port === "" ? 6379 : Number(u.port);
  const path = u.pathname.replace(/^\//, "");
  if (path !== "" && !/^\d+$/.test(path))
    throw new UsageError(`--queue: expected a database number after the port, found ${JSON.stringify(path)}`);
  const db = path === "" ? 0 : Number(path);
  return { url, host: u.hostname.replace(/^\[|\]$/g, ""), port, db };
}

/** A plain client (the run claims, the status); callers disconnect it. */
export async function plainClient(a: QueueAddress): Promise<Redis> {
  const { Redis } = await loadIoredis();
  const c = new Redis({ ...connectionOptions(a), maxRetriesPerRequest: 20 });
  c.on("error", () => {});
  return c;
}

/** ioredis options for BullMQ's own connections (blocking reads need maxRetriesPerRequest null). */
export function connectionOptions(a: QueueAddress) {
  return { host: a.host, port: a.port, db: a.db, maxRetriesPerRequest: null };
}

/**
 * Connects and checks the server: Redis answers, and `maxmemory-policy` is `noeviction` (under
 * any other policy Redis may evict a job's keys under memory pressure, and BullMQ then loses or
 * repeats work). `wait`: keep trying until the server is up (a worker started before Redis),
 * saying so once through `onWaiting`; otherwise fail after a few seconds.
 */
export async function checkRedis(
  a: QueueAddress,
  o: { wait?: boolean; onWaiting?: (why: string) => void } = {},
): Promise<void> {
  let said = false;
  let lastError = "";
  const { Redis } = await loadIoredis();
  const client = new Redis({
    ...connectionOptions(a),
    lazyConnect: true,
    enableOfflineQueue: true,
    retryStrategy: (times: number) => {
      if (!o.wait && times > 10) return null;
      if (!said) {
        said = true;
        o.onWaiting?.(lastError);
      }
      return Math.min(200 * times, 2000);
    },
  });
  client.on("error", (e: Error) => {
    lastError = e.message;
  });
  try {
    await client.connect().catch(async (e: Error) => {
      // connect() rejects on the first failure even while the retry strategy goes on.
      if (!o.wait) throw e;
      await new Promise<void>((resolve) => client.once("ready", () => resolve()));
    });
    // ioredis selects the database on connect but only reports a bad one as an event.
    await client.select(a.db).catch((e: Error) => {
      throw new ConvkitError(`${a.url}: cannot use database ${a.db} (${e.message})`);
    });
    const reply: unknown = await client.config("GET", "maxmemory-policy").catch((e: Error) => {
      throw new ConvkitError(
        `${a.url}: cannot read maxmemory-policy (${e.message}); the queue needs noeviction: check it with the server's administrator`,
      );
    });
    // CONFIG GET answers [name, value].
    const policy: unknown = Array.isArray(reply) ? reply[1] : undefined;
    if (policy !== "noeviction")
      throw new ConvkitError(
        `${a.url}: expected maxmemory-policy noeviction (Redis may otherwise evict queued jobs), found ${String(policy)} (CONFIG SET maxmemory-policy noeviction, or set it in redis.conf)`,
      );
  } catch (e) {
    if (e instanceof ConvkitError) throw e;
    throw new ConvkitError(`${a.url}: cannot reach Redis (${lastError || messageOf(e)})`);
  } finally {
    client.disconnect();
  }
}
