// Streaming the elements of one huge JSON array or object (stream-json), handed on in batches.
import { Readable } from "node:stream";
import { type ByteSource, InputError, messageOf } from "@convkit/io";
import { JsonDepthScanner, MAX_JSON_DEPTH } from "@convkit/json";

/** Options of {@link streamJsonItems}. */
export interface JsonItemsOptions {
  /** Path of the array/object to stream (e.g. `arguments`); the top-level value when absent. */
  pick?: string;
  /** `array` streams `[…]` elements, `object` streams `{key: value}` entries. */
  kind: "array" | "object";
  batchSize?: number;
  /** The deepest nesting read (default {@link MAX_JSON_DEPTH}); deeper is an InputError at its line and column. */
  maxDepth?: number;
}

/** Items of the picked array/object as `{key, value}`, in batches; memory holds one batch. */
export async function* streamJsonItems<T>(
  source: ByteSource,
  options: JsonItemsOptions,
): AsyncIterable<{ key: string | number; value: T }[]> {
  let fed = 0;
  // stream-json assembles any depth, but the checks after it walk values recursively.
  const depth = new JsonDepthScanner(source.name, options.maxDepth ?? MAX_JSON_DEPTH);
  async function* counted(): AsyncIterable<Uint8Array> {
    for await (const c of source.chunks) {
      depth.feed(c);
      fed += c.length;
      yield c;
    }
  }
  // stream-json is loaded on first use: only the JSON-streaming formats need it.
  const [{ default: chain }, { parser }, { pick }, { streamArray }, { streamObject }] = await Promise.all([
    import("stream-chain"),
    import("stream-json"),
    import("stream-json/filters/pick.js"),
    import("stream-json/streamers/stream-array.js"),
    import("stream-json/streamers/stream-object.js"),
  ]);
  const stages: unknown[] = [
    Readable.from(counted(), { objectMode: false }),
    parser({ streamValues: false }),
  ];
  if (options.pick) stages.push(pick({ filter: options.pick }));
  stages.push(options.kind === "array" ? streamArray() : streamObject());
  const pipeline = chain(stages as Parameters<typeof chain>[0]);
  const size = options.batchSize ?? 1000;
  let batch: { key: string | number; value: T }[] = [];
  try {
    for await (const item of pipeline) {
      batch.push(item as { key: string | number; value: T });
      if (batch.length >= size) {
        yield batch;
        batch = [];
      }
    }
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(
      source.name,
      { offset: fed },
      "valid JSON",
      messageOf(e).split("\n")[0] ?? "an error",
    );
  }
  if (batch.length > 0) yield batch;
}
