// @convkit/retrieval: ranking models (rank_bm25's BM25Okapi, exact; per-topic indexes with query likelihood, Dirichlet LM, BM25).
export { Bm25Okapi, type Bm25Params } from "./bm25.js";
export {
  type Bm25Options,
  bm25Scores,
  countQuery,
  DirichletScorer,
  dirichletScores,
  dirichletScoresFloat32,
  type QueryModel,
  qulacQueryModel,
} from "./language-models.js";
export {
  type CollectionStats,
  collectionStats,
  formatCollectionStats,
  parseCollectionStats,
  type RankingHead,
  rankingHead,
  type TermIdDocuments,
  TopicIndex,
  topDocuments,
} from "./topic-index.js";
