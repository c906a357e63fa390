// @convkit/text: NLTK-exact text processing (word_tokenize, PorterStemmer, stopwords) and the ClariQ/Qulac pipelines.
export { clariqTerms, QulacVocabulary, qulacTerms, type SentenceSplitter } from "./pipelines.js";
export { porterStem, porterStemUncached } from "./porter.js";
export { ENGLISH_STOPWORDS } from "./stopwords.js";
export { wordTokenize } from "./tokenize.js";
