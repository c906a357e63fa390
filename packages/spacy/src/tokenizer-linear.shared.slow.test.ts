// The tokenizer's time is linear in the input on the adversarial inputs (testdata/adversarial.ts),
// where spaCy's own tokenizer, and this port before, peeled, searched and hashed what was left of a
// long chunk once per mark (quadratic): the median time for 4n units is at most 5 times that for n
// (quadratic work would be 16 times). en_core_web_sm 3.8.0's rules (shared).
import { requires, rng, spacyModel } from "@convkit/test-helpers";
import { beforeAll, expect, it } from "vitest";
import { loadPipelineFolder } from "./folder.js";
import { adversarialInputs } from "./testdata/adversarial.js";
import { SpacyTokenizer } from "./tokenizer.js";

const N = 25_000;
const RUNS = 7;
/**
 * Times under this many milliseconds count as this many: on a busy machine a few scavenges and
 * the scheduler's pauses add tens of milliseconds to a run at 4N (seen: 19 -> 107 ms), while the
 * quadratic work before took 160 ms to seconds at N and 16 times that at 4N.
 */
const FLOOR_MS = 50;

requires("shared").describe("the tokenizer on adversarial inputs: time linear in their length", () => {
  let tokenizer: SpacyTokenizer;
  beforeAll(() => {
    tokenizer = new SpacyTokenizer(loadPipelineFolder(spacyModel()).tokenizer, "tokenizer");
    // Compiled before timing.
    for (const text of Object.values(adversarialInputs(2000, rng))) tokenizer.tokenize(text);
  });

  /** Milliseconds to tokenize `text` with empty caches (a cached chunk would cost nothing). */
  function time(text: string): number {
    tokenizer.renew();
    const t = performance.now();
    tokenizer.tokenize(text);
    return performance.now() - t;
  }

  const median = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1]!;

  it.each(Object.keys(adversarialInputs(1, rng)))("%s", (name) => {
    const [text, longer] = [adversarialInputs(N, rng)[name]!, adversarialInputs(4 * N, rng)[name]!];
    // In turn, so that a busy stretch of the machine slows both sizes alike.
    const small: number[] = [];
    const large: number[] = [];
    for (let k = 0; k < RUNS; k++) {
      small.push(time(text));
      large.push(time(longer));
    }
    const [n, n4] = [median(small), median(large)];
    expect(n4, `${name}: ${n.toFixed(1)} ms for ${N}, ${n4.toFixed(1)} ms for ${4 * N}`).toBeLessThanOrEqual(
      5 * Math.max(n, FLOOR_MS),
    );
  });
});
