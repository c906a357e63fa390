// Downloading a URL to a file: streamed, atomic, with the HTTP status or what went wrong on the
// wire as the error, and bounded waits (a server that stops answering or sending is an error,
// not a hang).
import { mkdir, rm } from "node:fs/promises";
import { dirname } from "node:path";
import { ConvkitError, messageOf } from "./errors.js";
import { writeAtomic } from "./sink.js";

/** A download that did not succeed (HTTP status or network error). */
export class DownloadError extends ConvkitError {
  override readonly code = "download";
  constructor(
    readonly url: string,
    readonly reason: string,
    options?: ErrorOptions,
  ) {
    super(`${url}: ${reason}`, options);
    this.name = "DownloadError";
  }
}

/** How long a download may wait. */
export interface DownloadTimeouts {
  /** From the request to the response's headers (connecting included), in ms (default 30 s). */
  connectMs?: number;
  /** Between two pieces of the body, in ms (default 60 s). */
  idleMs?: number;
}

export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

const seconds = (ms: number) => `${+(ms / 1000).toFixed(3)} s`;

/** An error's message and its causes' (fetch says "terminated"; the cause says why). */
function reasonOf(e: unknown): string {
  const parts: string[] = [];
  for (let x: unknown = e, depth = 0; x !== undefined && x !== null && depth < 4; depth++) {
    parts.push(messageOf(x));
    x = x instanceof Error ? x.cause : undefined;
  }
  return parts.join(": ");
}

/**
 * Streams `url` into `target` (appears only when complete; on any failure nothing is left, not
 * even the folders made for it); returns the byte count.
 */
export async function downloadFile(
  url: string,
  target: string,
  onBytes?: (n: number) => void,
  timeouts: DownloadTimeouts = {},
): Promise<number> {
  const connectMs = timeouts.connectMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const idleMs = timeouts.idleMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const abort = new AbortController();
  let timedOut = "";
  let timer: NodeJS.Timeout | undefined;
  const arm = (ms: number, what: () => string) => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = what();
      abort.abort();
    }, ms);
  };
  let n = 0;
  let made: string | undefined;
  try {
    arm(connectMs, () => `no response within ${seconds(connectMs)}`);
    let res: Response;
    try {
      res = await fetch(url, { redirect: "follow", signal: abort.signal });
    } catch (e) {
      throw new DownloadError(
        url,
        timedOut || `could not connect (${reasonOf(e instanceof Error ? (e.cause ?? e) : e)})`,
      );
    }
    // Answered: the time to the first byte of the body is the idle timeout's (armed at each read).
    clearTimeout(timer);
    if (!res.ok || !res.body) {
      await res.body?.cancel().catch(() => {});
      throw new DownloadError(url, `HTTP ${res.status} ${res.statusText}`);
    }
    const declared = res.headers.get("content-length");
    const of = declared !== null && /^\d+$/.test(declared) ? ` of ${declared}` : "";
    made = await mkdir(dirname(target), { recursive: true });
    const reader = res.body.getReader();
    const idle = () => `nothing received for ${seconds(idleMs)} after ${n}${of} bytes`;
    await writeAtomic(target, async (sink) => {
      try {
        for (;;) {
          arm(idleMs, idle);
          let chunk: Awaited<ReturnType<typeof reader.read>>;
          try {
            chunk = await reader.read();
          } catch (e) {
            // fetch reports a body cut short as "TypeError: terminated" (its cause says why).
            throw new DownloadError(url, timedOut || `the body ended after ${n}${of} bytes (${reasonOf(e)})`);
          }
          if (chunk.done) break;
          n += chunk.value.length;
          onBytes?.(chunk.value.length);
          await sink.write(chunk.value);
        }
      } finally {
        clearTimeout(timer);
        // Nothing more is read after a failed write: the connection is let go.
        await reader.cancel().catch(() => {});
      }
    });
    return n;
  } catch (e) {
    if (made !== undefined) await rm(made, { recursive: true, force: true });
    throw e;
  } finally {
    clearTimeout(timer);
  }
}
