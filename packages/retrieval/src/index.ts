// @convkit/retrieval: ranking models (rank_bm25's BM25Okapi, exact).
export { Bm25Okapi, type Bm25Params } from "./bm25.js";
