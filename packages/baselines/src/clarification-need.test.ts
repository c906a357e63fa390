import { describe, expect, it } from "vitest";
import { fitCentroids, majorityLabel, needFeatures, predictCentroid } from "./clarification-need.js";

describe("clarification-need baselines", () => {
  it("majority label, ties to the smaller label", () => {
    expect(
      majorityLabel(
        new Map([
          [1, 3],
          [2, 2],
          [3, 3],
          [4, 2],
        ]),
      ),
    ).toBe(2);
    expect(
      majorityLabel(
        new Map([
          [1, 4],
          [2, 4],
          [3, 1],
        ]),
      ),
    ).toBe(4);
  });
  it("features: top score, mean of the top five, top minus fifth", () => {
    expect(needFeatures(Float64Array.from([1, 9, 3, 7, 5, 2, 8]))).toEqual([9, 32 / 5, 9 - 3]);
  });
  it("nearest centroid over z-scored features", () => {
    const m = fitCentroids(
      [
        [0, 10],
        [1, 10],
        [10, 10],
        [11, 10],
      ],
      [1, 1, 3, 3],
    );
    expect(m.centroids.map((c) => c[0])).toEqual([1, 3]);
    expect(predictCentroid(m, [2, 10])).toBe(1);
    expect(predictCentroid(m, [8, 10])).toBe(3);
    // A constant feature gets std 1, not a division by zero.
    expect(m.std[1]).toBe(1);
  });
});
