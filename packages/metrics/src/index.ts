// @convkit/metrics: IR metrics with trec_eval semantics.
export {};
