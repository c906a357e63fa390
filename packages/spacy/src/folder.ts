// Reading a spaCy 3.x pipeline folder (what `nlp.to_disk` writes, e.g. `en_core_web_sm-3.4.1/`):
// the config (checked against the architecture convkit implements), the tokenizer's rules, the
// `lexeme_norm` table and the senter's weights. Every problem is one InputError naming the file.
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { InputError, messageOf } from "@convkit/io";
import { Fields, inputMismatch, parseJsonText, tryParseJson } from "@convkit/json";
import { decode } from "@msgpack/msgpack";
import type { U64 } from "./hashing.js";

/** The lexical attributes the senter's embedding may read (spaCy's attribute names). */
type LexAttr = "NORM" | "PREFIX" | "SUFFIX" | "SHAPE" | "SPACY";
const LEX_ATTRS: readonly string[] = ["NORM", "PREFIX", "SUFFIX", "SHAPE", "SPACY"];

/** One special case of the tokenizer: the tokens' texts and, where the rule sets one, their NORM. */
export interface SpecialToken {
  orth: string;
  norm?: string;
}

/** The tokenizer's serialized rules (Python pattern sources, special cases). */
export interface TokenizerRules {
  prefixSearch: string | null;
  suffixSearch: string | null;
  infixFinditer: string | null;
  tokenMatch: string | null;
  urlMatch: string | null;
  fasterHeuristics: boolean;
  /** Special cases in the order spaCy adds them (sorted by chunk). */
  exceptions: [chunk: string, tokens: SpecialToken[]][];
}

/** A HashEmbed table: `rows × width` float32, its attribute column and seed. */
export interface HashEmbedTable {
  attr: LexAttr;
  seed: number;
  rows: number;
  E: Float32Array;
}

/** A maxout layer followed by layer norm: W is `nO × nP × nI`, b `nO × nP`, then G and b of the norm. */
export interface MaxoutNorm {
  nO: number;
  nP: number;
  nI: number;
  W: Float32Array;
  b: Float32Array;
  G: Float32Array;
  beta: Float32Array;
}

/** The senter's weights, in the order the network applies them. */
export interface SenterWeights {
  width: number;
  embeddings: HashEmbedTable[];
  /** The maxout + layer norm that mixes the concatenated embeddings. */
  mix: MaxoutNorm;
  /** Window size of the encoder's convolutions (tokens on each side). */
  window: number;
  /** The encoder's residual layers. */
  encoder: MaxoutNorm[];
  /** Output layer: `nO × width`, and the index of label `S`. */
  outW: Float32Array;
  outB: Float32Array;
  labels: string[];
}

/** Everything convkit needs of a pipeline folder. */
export interface SpacyPipelineData {
  path: string;
  /** `meta.json`'s `name` and `version` (as `en_core_web_sm-3.8.0`), or the folder name. */
  name: string;
  tokenizer: TokenizerRules;
  /** `lexeme_norm`: spaCy string hash (`hi:lo` hex) → norm. */
  lexemeNorm: Map<string, string>;
  senter: SenterWeights;
}

/** A key of the `lexeme_norm` table from a string hash. */
export function hashKey(h: U64): string {
  return `${h.hi.toString(16)}:${h.lo.toString(16)}`;
}

/** Loads and checks a spaCy pipeline folder for the tokenizer and the senter. */
export function loadPipelineFolder(dir: string): SpacyPipelineData {
  try {
    return readPipelineFolder(dir);
  } catch (e) {
    if (e instanceof InputError) throw e;
    // A layout the checks above did not foresee is still the folder's fault: one line, not a trace.
    throw new InputError(
      dir,
      {},
      "a spaCy pipeline folder convkit can read",
      `one it cannot (${messageOf(e)})`,
    );
  }
}

function readPipelineFolder(dir: string): SpacyPipelineData {
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new InputError(
      dir,
      {},
      "a spaCy pipeline folder (with config.cfg, tokenizer, vocab/, senter/)",
      "no such folder",
    );
  const configPath = join(dir, "config.cfg");
  const config = parseConfig(readRequired(configPath).toString("utf8"), configPath);
  checkArchitecture(config, configPath);
  const tokenizer = readTokenizer(join(dir, "tokenizer"));
  const lookupsPath = join(dir, "vocab", "lookups.bin");
  const wantsNorms = JSON.stringify(config["initialize.lookups"]?.tables ?? "").includes("lexeme_norm");
  const lexemeNorm =
    wantsNorms || existsSync(lookupsPath) ? readLexemeNorm(lookupsPath) : new Map<string, string>();
  const senter = readSenter(join(dir, "senter", "model"), config);
  let name = dir.replace(/\/+$/, "").split("/").at(-1) ?? dir;
  const metaPath = join(dir, "meta.json");
  if (existsSync(metaPath)) {
    const meta = Fields.of(
      parseJsonText(metaPath, readRequired(metaPath).toString("utf8")),
      inputMismatch(metaPath),
    );
    const lang = meta.optionalString("lang");
    const model = meta.optionalString("name");
    const version = meta.optionalString("version");
    if (model && version) name = `${lang ? `${lang}_` : ""}${model}-${version}`;
  }
  return { path: dir, name, tokenizer, lexemeNorm, senter };
}

function readRequired(path: string): Buffer {
  if (!existsSync(path)) throw new InputError(path, {}, "a file of the spaCy pipeline", "no such file");
  try {
    return readFileSync(path);
  } catch (e) {
    throw new InputError(
      path,
      {},
      "a readable file of the spaCy pipeline",
      (e as NodeJS.ErrnoException).code ?? "an unreadable file",
    );
  }
}

type ConfigValue = string | number | boolean | null | ConfigValue[] | { [k: string]: ConfigValue };
type Config = Record<string, Record<string, ConfigValue>>;

/** spaCy's config.cfg (confection's INI dialect): `[section.path]` then `key = value`, values as JSON where they parse. */
function parseConfig(text: string, path: string): Config {
  const out: Config = {};
  let section: Record<string, ConfigValue> | undefined;
  const lines = text.split("\n");
  for (const [n, text] of lines.entries()) {
    const line = text.replace(/\r$/, "");
    if (/^\s*([#;].*)?$/.test(line)) continue;
    if (/^\[[^\]]+\]\s*$/.test(line)) {
      section = out[line.slice(1, line.indexOf("]"))] ??= {};
      continue;
    }
    const kv = /^([^=\s][^=]*?)\s*=\s*(.*)$/.exec(line);
    if (!kv || !section) {
      // A continuation line of a multi-line value belongs to the previous key: not used here.
      if (/^\s+\S/.test(line) && section) continue;
      throw new InputError(
        path,
        { line: n + 1 },
        "`[section]` or `key = value`",
        JSON.stringify(line.slice(0, 40)),
      );
    }
    // The key is what comes before the first `=` (less trailing space), the value what follows.
    const eq = line.indexOf("=");
    const raw = line.slice(eq + 1).trim();
    // References (${...}) and bare words stay strings.
    const parsed = tryParseJson(raw);
    const value = parsed.ok ? (parsed.value as ConfigValue) : raw;
    section[line.slice(0, eq).trimEnd()] = value;
  }
  return out;
}

/** The senter's architecture as convkit implements it; anything else is an error naming what differs. */
function checkArchitecture(config: Config, path: string): void {
  const need = (section: string, key: string, expected: ConfigValue): void => {
    const found = config[section]?.[key];
    if (JSON.stringify(found) !== JSON.stringify(expected))
      throw new InputError(
        path,
        {},
        `[${section}] ${key} = ${JSON.stringify(expected)} (the senter convkit implements)`,
        found === undefined ? "no such setting" : JSON.stringify(found),
      );
  };
  const pipeline = config.nlp?.pipeline;
  if (!Array.isArray(pipeline) || !pipeline.includes("senter"))
    throw new InputError(path, {}, "a pipeline with a `senter` component", JSON.stringify(pipeline ?? null));
  need("nlp", "tokenizer", { "@tokenizers": "spacy.Tokenizer.v1" });
  need("components.senter", "factory", "senter");
  const m = "components.senter.model";
  need(m, "@architectures", "spacy.Tagger.v2");
  need(`${m}.tok2vec`, "@architectures", "spacy.Tok2Vec.v2");
  need(`${m}.tok2vec.embed`, "@architectures", "spacy.MultiHashEmbed.v2");
  need(`${m}.tok2vec.embed`, "include_static_vectors", false);
  need(`${m}.tok2vec.encode`, "@architectures", "spacy.MaxoutWindowEncoder.v2");
  const attrs = config[`${m}.tok2vec.embed`]?.attrs;
  if (!Array.isArray(attrs) || attrs.some((a) => typeof a !== "string" || !LEX_ATTRS.includes(a)))
    throw new InputError(
      path,
      {},
      `[${m}.tok2vec.embed] attrs among ${LEX_ATTRS.join(", ")}`,
      JSON.stringify(attrs ?? null),
    );
}

/** msgpack as spaCy writes it: byte-string keys become strings, 64-bit ints bigints. */
function unpack(bytes: Uint8Array, path: string): unknown {
  try {
    return decode(bytes, {
      useBigInt64: true,
      mapKeyConverter: (k: unknown) =>
        k instanceof Uint8Array
          ? Buffer.from(k).toString("utf8")
          : typeof k === "bigint"
            ? k.toString()
            : (k as string),
    });
  } catch (e) {
    throw new InputError(
      path,
      {},
      "a complete msgpack file",
      `a file that does not decode (${messageOf(e)})`,
    );
  }
}

function asRecord(v: unknown, path: string, what: string): Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v) || v instanceof Uint8Array)
    throw new InputError(path, {}, what, v === null ? "null" : Array.isArray(v) ? "a list" : typeof v);
  return v as Record<string, unknown>;
}

function text(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === "string") return v;
  if (v instanceof Uint8Array) return Buffer.from(v).toString("utf8");
  return null;
}

/** ORTH and NORM as spaCy's attribute ids (or names, as some versions write them). */
const ORTH_KEYS = ["65", "ORTH"];
const NORM_KEYS = ["67", "NORM"];

function readTokenizer(path: string): TokenizerRules {
  const d = asRecord(unpack(readRequired(path), path), path, "the tokenizer's msgpack map");
  const pattern = (k: string): string | null => {
    const v = d[k];
    if (v === undefined || v === null) return null;
    const s = text(v);
    if (s === null) throw new InputError(path, {}, `${k} as a pattern string`, typeof v);
    return s;
  };
  const exc = asRecord(d.exceptions ?? {}, path, "the tokenizer's exceptions map");
  const exceptions: [string, SpecialToken[]][] = [];
  for (const chunk of Object.keys(exc).sort(comparePython)) {
    const list = exc[chunk];
    if (!Array.isArray(list))
      throw new InputError(
        path,
        {},
        `a token list for the special case ${JSON.stringify(chunk)}`,
        typeof list,
      );
    const tokens = list.map((t) => {
      const r = asRecord(t, path, `token attributes of the special case ${JSON.stringify(chunk)}`);
      let orth: string | null = null;
      let norm: string | undefined;
      for (const [k, v] of Object.entries(r)) {
        if (ORTH_KEYS.includes(k)) orth = text(v);
        // An empty NORM is id 0 in spaCy: the token keeps its lexeme's norm.
        else if (NORM_KEYS.includes(k)) norm = text(v) || undefined;
        else
          throw new InputError(
            path,
            {},
            `only ORTH and NORM in the special case ${JSON.stringify(chunk)}`,
            `attribute ${k}`,
          );
      }
      if (orth === null)
        throw new InputError(
          path,
          {},
          `ORTH in every token of the special case ${JSON.stringify(chunk)}`,
          "none",
        );
      return norm === undefined ? { orth } : { orth, norm };
    });
    if (tokens.map((t) => t.orth).join("") !== chunk)
      throw new InputError(
        path,
        {},
        `token texts that spell the special case ${JSON.stringify(chunk)}`,
        JSON.stringify(tokens.map((t) => t.orth)),
      );
    exceptions.push([chunk, tokens]);
  }
  return {
    prefixSearch: pattern("prefix_search"),
    suffixSearch: pattern("suffix_search"),
    infixFinditer: pattern("infix_finditer"),
    tokenMatch: pattern("token_match"),
    urlMatch: pattern("url_match"),
    fasterHeuristics: d.faster_heuristics === undefined ? true : d.faster_heuristics === true,
    exceptions,
  };
}

/** Python's default string order (by code point), which `sorted()` gives special cases. */
function comparePython(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const [cx, cy] = [x[i]?.codePointAt(0), y[i]?.codePointAt(0)];
    if (cx === undefined || cy === undefined) throw new RangeError(`no code point ${i} in ${a} or ${b}`);
    const d = cx - cy;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

function readLexemeNorm(path: string): Map<string, string> {
  const d = asRecord(unpack(readRequired(path), path), path, "the lookups' msgpack map");
  const out = new Map<string, string>();
  if (d.lexeme_norm === undefined) return out;
  // A table is either the plain {hash: norm} map or a serialized Table {name, dict, bloom}.
  let table: unknown = d.lexeme_norm;
  if (table instanceof Uint8Array) table = asRecord(unpack(table, path), path, "the lexeme_norm table").dict;
  for (const [k, v] of Object.entries(asRecord(table, path, "the lexeme_norm table"))) {
    const norm = text(v);
    if (norm === null) continue;
    if (!/^\d+$/.test(k))
      throw new InputError(path, {}, "string hashes as the lexeme_norm table's keys", JSON.stringify(k));
    const big = BigInt(k);
    out.set(hashKey({ hi: Number(big >> 32n), lo: Number(big & 0xffffffffn) }), norm);
  }
  return out;
}

interface ModelNode {
  name: string;
  dims: Record<string, unknown>;
  attrs: Record<string, unknown>;
  params: Record<string, unknown>;
}

function readSenter(path: string, config: Config): SenterWeights {
  const d = asRecord(unpack(readRequired(path), path), path, "thinc's model msgpack map");
  const nodes = d.nodes;
  const attrs = d.attrs;
  const params = d.params;
  if (
    !Array.isArray(nodes) ||
    !Array.isArray(attrs) ||
    !Array.isArray(params) ||
    nodes.length !== attrs.length
  )
    throw new InputError(path, {}, "thinc's model layout (nodes, attrs, params)", "another layout");
  const walk: ModelNode[] = nodes.map((n, i) => {
    const node = asRecord(n, path, "a model node");
    const nodeAttrs: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(asRecord(attrs[i], path, "a node's attrs")))
      nodeAttrs[k] = v instanceof Uint8Array ? unpack(v, path) : v;
    return {
      name: String(node.name),
      dims: asRecord(node.dims ?? {}, path, "a node's dims"),
      attrs: nodeAttrs,
      params: asRecord(params[i] ?? {}, path, "a node's params"),
    };
  });
  const named = (name: string) => walk.filter((n) => n.name === name);
  const embedCfg = config["components.senter.model.tok2vec.embed"];
  const encodeCfg = config["components.senter.model.tok2vec.encode"];
  if (!embedCfg || !encodeCfg)
    throw new InputError(path, {}, "config.cfg's senter tok2vec embed and encode sections", "none");
  const attrNames = embedCfg.attrs as LexAttr[];
  const columns = named("extract_features")[0]?.attrs.columns;
  if (!Array.isArray(columns) || JSON.stringify(columns) !== JSON.stringify(attrNames))
    throw new InputError(
      path,
      {},
      `feature columns ${JSON.stringify(attrNames)} as config.cfg says`,
      JSON.stringify(columns ?? null),
    );
  const hashEmbeds = named("hashembed");
  if (hashEmbeds.length !== attrNames.length)
    throw new InputError(path, {}, `${attrNames.length} hash embedding tables`, String(hashEmbeds.length));
  const embeddings = hashEmbeds.map((n) => {
    const E = array(n.params.E, path, "hashembed E", 2);
    const column = Number(n.attrs.column);
    // Two sizes: `array` checked the dimensions.
    const [rows, width] = E.shape;
    if (rows === undefined || width === undefined) throw new RangeError(`hashembed E of shape ${E.shape}`);
    return {
      attr: attrNames[column],
      seed: Number(n.attrs.seed),
      rows,
      E: E.data,
      width,
    };
  });
  const width = embeddings[0]?.width;
  if (width === undefined) throw new InputError(path, {}, "hash embedding tables", "none");
  const tables: HashEmbedTable[] = [];
  for (const { attr, seed, rows, E, width: w } of embeddings) {
    if (w !== width || !Number.isInteger(seed) || attr === undefined)
      throw new InputError(
        path,
        {},
        "hash embedding tables of one width with a column and a seed",
        "tables that differ",
      );
    tables.push({ attr, seed, rows, E });
  }
  const maxouts = named("maxout");
  const norms = named("layernorm");
  // The encoder's depth as the weights have it (config.cfg may hold a ${reference} there).
  const depth = named("maxout").length - 1;
  if (depth < 1) throw new InputError(path, {}, "an encoder of depth 1 or more", String(depth));
  if (maxouts.length !== depth + 1 || norms.length !== depth + 1)
    throw new InputError(
      path,
      {},
      `${depth + 1} maxout layers with layer norm (embedding mix + depth ${depth})`,
      `${maxouts.length} maxout, ${norms.length} layernorm`,
    );
  const layers = maxouts.map((m, i) => {
    const norm = norms[i];
    if (!norm) throw new InputError(path, {}, "a layer norm per maxout layer", "fewer"); // counted above
    return maxoutNorm(m, norm, path);
  });
  // The embedding mix, then the encoder's layers (depth >= 1: there are two or more).
  const [mix, ...encoder] = layers;
  if (!mix) throw new InputError(path, {}, "maxout layers", "none");
  const window = Number(named("expand_window")[0]?.attrs.window_size ?? encodeCfg.window_size);
  if (mix.nI !== width * attrNames.length || mix.nO !== width)
    throw new InputError(
      path,
      {},
      `an embedding mix of ${width * attrNames.length} → ${width}`,
      `${mix.nI} → ${mix.nO}`,
    );
  for (const l of encoder)
    if (l.nI !== width * (2 * window + 1) || l.nO !== width)
      throw new InputError(
        path,
        {},
        `encoder layers of ${width * (2 * window + 1)} → ${width}`,
        `${l.nI} → ${l.nO}`,
      );
  const pad = walk.find((n) => n.name.startsWith("with_array(residual(") && n.attrs.pad !== undefined)?.attrs
    .pad;
  if (pad !== undefined && Number(pad) !== window * depth)
    throw new InputError(path, {}, `encoder padding ${window * depth}`, String(pad));
  const softmax = named("softmax")[0];
  if (!softmax) throw new InputError(path, {}, "a softmax output layer", "none");
  const W = array(softmax.params.W, path, "softmax W", 2);
  const b = array(softmax.params.b, path, "softmax b", 1);
  if (W.shape[1] !== width || W.shape[0] !== 2 || b.shape[0] !== 2)
    throw new InputError(
      path,
      {},
      `a softmax of ${width} → 2 labels (I, S)`,
      `${W.shape[1]} → ${W.shape[0]}`,
    );
  return {
    width,
    embeddings: tables,
    mix,
    window,
    encoder,
    outW: W.data,
    outB: b.data,
    labels: ["I", "S"],
  };
}

function maxoutNorm(m: ModelNode, n: ModelNode, path: string): MaxoutNorm {
  const W = array(m.params.W, path, "maxout W", 3);
  const b = array(m.params.b, path, "maxout b", 2);
  const G = array(n.params.G, path, "layernorm G", 1);
  const beta = array(n.params.b, path, "layernorm b", 1);
  const [nO, nP, nI] = W.shape as [number, number, number];
  if (b.shape[0] !== nO || b.shape[1] !== nP || G.shape[0] !== nO || beta.shape[0] !== nO)
    throw new InputError(
      path,
      {},
      "maxout and layer norm shapes that agree",
      `W ${W.shape}, b ${b.shape}, G ${G.shape}`,
    );
  return { nO, nP, nI, W: W.data, b: b.data, G: G.data, beta: beta.data };
}

/** A numpy array as srsly's msgpack-numpy writes it: {nd, type, kind, shape, data}. */
function array(
  v: unknown,
  path: string,
  what: string,
  ndim: number,
): { shape: number[]; data: Float32Array } {
  const r = asRecord(v ?? null, path, `${what} as a numpy array`);
  const type = text(r.type);
  const shape = Array.isArray(r.shape) ? r.shape.map(Number) : [];
  const data = r.data;
  if (r.nd !== true || type !== "<f4" || shape.length !== ndim || !(data instanceof Uint8Array))
    throw new InputError(
      path,
      {},
      `${what}: a float32 array of ${ndim} dimensions`,
      `type ${type}, shape ${JSON.stringify(shape)}`,
    );
  if (shape.some((d) => !Number.isInteger(d) || d < 1))
    throw new InputError(path, {}, `${what}: a shape of positive sizes`, JSON.stringify(shape));
  const count = shape.reduce((a, b) => a * b, 1);
  if (data.byteLength !== count * 4)
    throw new InputError(
      path,
      {},
      `${what}: ${count * 4} bytes for shape ${JSON.stringify(shape)}`,
      `${data.byteLength} bytes`,
    );
  // Copied: msgpack's bytes need not be 4-byte aligned.
  const out = new Float32Array(count);
  new Uint8Array(out.buffer).set(data);
  return { shape, data: out };
}
