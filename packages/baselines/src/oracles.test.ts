import { describe, expect, it } from "vitest";
import { ContextOracle, topicOracle } from "./oracles.js";

describe("ContextOracle", () => {
  const feed = (o: ContextOracle) => {
    // metric, context, question, no_answer, with_answer — in dict order.
    o.add("MRR100", 7, "Q1", 0.9, 0.2);
    o.add("MRR100", 7, "Q2", 0.1, 0.5);
    o.add("MRR100", 7, "Q3", 0.1, 0.5);
    o.add("MRR100", 7, "MAX", 0.9, 0.9);
    o.add("MRR100", 7, "MIN", 0, 0);
    o.add("MRR100", 8, "Q4", 0.3, 0.3);
    o.add("P1", 7, "Q9", 1, 1);
  };
  it("takes the highest value of its metric and variant, first in dict order on ties, MAX/MIN skipped", () => {
    const best = new ContextOracle("MRR100", "best");
    feed(best);
    expect([...best.choices()]).toEqual([
      [7, "Q2"],
      [8, "Q4"],
    ]);
    const noAnswer = new ContextOracle("MRR100", "best", "no_answer");
    feed(noAnswer);
    expect(noAnswer.choices().get(7)).toBe("Q1");
  });
  it("worst takes the lowest", () => {
    const worst = new ContextOracle("MRR100", "worst");
    feed(worst);
    expect(worst.choices().get(7)).toBe("Q1");
  });
});

describe("topicOracle", () => {
  const facets = new Map([
    [
      "F1",
      new Map([
        ["Q1", 1],
        ["Q2", 0.4],
        ["MAX", 1],
        ["MIN", 0.1],
      ]),
    ],
    [
      "F2",
      new Map([
        ["Q2", 0.5],
        ["Q3", 0.2],
        ["MAX", 0.5],
        ["MIN", 0],
      ]),
    ],
  ]);
  it("sums over the topic's facets, a missing question counting the facet's MIN", () => {
    // Q1: 1 + 0 = 1; Q2: 0.4 + 0.5 = 0.9; Q3: 0.1 + 0.2 = 0.3.
    expect(topicOracle(facets, new Map([[5, ["F1", "F2"]]]), "best").get(5)).toBe("Q1");
    expect(topicOracle(facets, new Map([[5, ["F1", "F2"]]]), "worst").get(5)).toBe("Q3");
  });
  it("leaves out facets absent from the dict, and topics without any", () => {
    const r = topicOracle(
      facets,
      new Map([
        [5, ["F2", "F9"]],
        [6, ["F9"]],
      ]),
      "best",
    );
    expect([...r]).toEqual([[5, "Q2"]]);
  });
});
