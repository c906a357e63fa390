// Downloading a URL to a file: streamed, atomic, with the HTTP status as the error.
import { ConvkitError } from "./errors.js";
import { writeAtomic } from "./sink.js";

/** A download that did not succeed (HTTP status or network error). */
export class DownloadError extends ConvkitError {
  constructor(
    readonly url: string,
    reason: string,
  ) {
    super(`${url}: ${reason}`);
    this.name = "DownloadError";
  }
}

/** Streams `url` into `target` (appears only when complete); returns the byte count. */
export async function downloadFile(
  url: string,
  target: string,
  onBytes?: (n: number) => void,
): Promise<number> {
  let res: Response;
  try {
    res = await fetch(url, { redirect: "follow" });
  } catch (e) {
    throw new DownloadError(url, `could not connect (${(e as Error).cause ?? (e as Error).message})`);
  }
  if (!res.ok || !res.body) throw new DownloadError(url, `HTTP ${res.status} ${res.statusText}`);
  let n = 0;
  const body = res.body;
  await writeAtomic(target, async (sink) => {
    for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
      n += chunk.length;
      onBytes?.(chunk.length);
      await sink.write(chunk);
    }
  });
  return n;
}
