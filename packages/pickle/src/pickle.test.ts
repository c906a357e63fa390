import { formatPyFloat } from "@convkit/pycompat";
import { python, requires } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";
import { loadPickle } from "./unpickle.js";
import { PyFloat, PyTuple, type PyValue } from "./values.js";
import { dumpPickle, PickleWriter } from "./writer.js";

/** CPython's view of a value, with types, so int/float/str keys are told apart. */
const CANON_PY = `
import sys, pickle, json
def canon(v):
    if v is None or isinstance(v, bool): return v
    if isinstance(v, int): return ["int", str(v)]
    if isinstance(v, float): return ["float", repr(v)]
    if isinstance(v, str): return ["str", v]
    if isinstance(v, (bytes, bytearray)): return ["bytes", list(v)]
    if isinstance(v, list): return ["list", [canon(x) for x in v]]
    if isinstance(v, tuple): return ["tuple", [canon(x) for x in v]]
    if isinstance(v, dict): return ["dict", [[canon(k), canon(x)] for k, x in v.items()]]
    if isinstance(v, (set, frozenset)): return ["set", sorted(json.dumps(canon(x), separators=(",", ":"), ensure_ascii=False) for x in v)]
    raise TypeError(type(v))
`;

function canon(v: PyValue): unknown {
  if (v === null || typeof v === "boolean") return v;
  if (typeof v === "bigint") return ["int", v.toString()];
  if (typeof v === "number")
    return Number.isSafeInteger(v) ? ["int", String(v)] : ["float", formatPyFloat(v)];
  if (v instanceof PyFloat) return ["float", formatPyFloat(v.value)];
  if (typeof v === "string") return ["str", v];
  if (v instanceof Uint8Array) return ["bytes", [...v]];
  if (Array.isArray(v)) return ["list", v.map(canon)];
  if (v instanceof PyTuple) return ["tuple", v.items.map(canon)];
  if (v instanceof Map) return ["dict", [...v].map(([k, x]) => [canon(k), canon(x)])];
  if (v instanceof Set) return ["set", [...v].map((x) => JSON.stringify(canon(x))).sort()];
  return ["dict", Object.entries(v).map(([k, x]) => [canon(k), canon(x)])];
}

const sample: PyValue = new Map<PyValue, PyValue>([
  [2287, { topic_id: 8, facet_id: "F0968", conversation_context: [], context_id: 968 }],
  ["F0513", new Map([["Q00045", { no_answer: new PyFloat(0), with_answer: 0.2233114358097999 }]])],
  [-5, [true, false, null, 1.5, -0.25, 1e-7, 1e300]],
  [1n << 70n, -(1n << 80n)],
  [2 ** 40, new PyTuple([1, "two", new PyTuple([])])],
  ["ünïcödé ✓ 𝄞", new Uint8Array([0, 255, 7])],
  ["", new Set([1, 2])],
  [70000, -70000],
]);

describe("pickle writer and reader", () => {
  it("round-trips every supported type with key types and dict order kept", () => {
    const back = loadPickle(dumpPickle(sample), "s", { keepFloats: true });
    expect(canon(back)).toEqual(canon(sample));
  });

  it("memoizes repeated strings and shared lists (written once, referenced after)", () => {
    const ctx = [{ question: "q".repeat(50), answer: "a" }];
    const big = new Map<PyValue, PyValue>();
    for (let i = 0; i < 500; i++) big.set(i, { context: ctx, question: "q".repeat(50) });
    const bytes = dumpPickle(big);
    expect(bytes.length).toBeLessThan(500 * 30);
    const back = loadPickle(bytes) as Map<number, Map<string, PyValue>>;
    expect(back.get(0)!.get("context")).toBe(back.get(499)!.get("context"));
  });

  it("streams a dict in batches with frames (items across many frames)", () => {
    const w = new PickleWriter();
    w.beginDict();
    for (let b = 0; b < 30; b++)
      w.dictItems(Array.from({ length: 1000 }, (_, i) => [b * 1000 + i, `value ${b * 1000 + i}`] as const));
    w.finish();
    const bytes = Buffer.concat(w.take());
    const back = loadPickle(bytes) as Map<number, string>;
    expect(back.size).toBe(30000);
    expect(back.get(29999)).toBe("value 29999");
    expect(bytes.indexOf(0x95)).toBe(2); // FRAME right after PROTO 4
  });

  it("reads the value whatever chunking the input arrives in", async () => {
    const { Unpickler } = await import("./unpickle.js");
    const bytes = dumpPickle(sample);
    for (const size of [1, 3, 64, 4096]) {
      const u = new Unpickler("chunks", { keepFloats: true });
      for (let i = 0; i < bytes.length; i += size) u.feed(bytes.subarray(i, i + size));
      expect(canon(u.finish())).toEqual(canon(sample));
    }
  });

  it("the dict-tree scan gives the same leaves whatever chunking the input arrives in", async () => {
    const { DictTreeScanner } = await import("./dict-tree.js");
    // An eval-dict-shaped tree: metric → context → question → {no_answer, with_answer}.
    const tree = new Map<PyValue, PyValue>();
    for (const m of ["NDCG1", "P1"]) {
      const ctxs = new Map<PyValue, PyValue>();
      for (let c = 0; c < 1500; c++) {
        const qs = new Map<PyValue, PyValue>();
        // At least two questions: a one-item dict (SETITEM without MARK) is outside the scan's subset.
        for (let q = 0; q < 2 + (c % 9); q++)
          // Some ids are not ASCII (the decoder's way, not the ASCII shortcut).
          qs.set(`Q${q % 4 === 3 ? "é" : ""}${String((c * 7 + q) % 300).padStart(5, "0")}`, {
            no_answer: new PyFloat(c / 7 + q),
            with_answer: new PyFloat(q / 3 - c),
          });
        ctxs.set(c * 1009, qs);
      }
      tree.set(m, ctxs);
    }
    const bytes = dumpPickle(tree);
    const leaves = (size: number) => {
      const out: string[] = [];
      const s = new DictTreeScanner(
        "chunks",
        3,
        (p, names, values, n) => {
          out.push(
            `${p.join("/")}:${Array.from({ length: n }, (_, i) => `${names[i]}=${values[i]}`).join(",")}`,
          );
        },
        (branch) => ((branch[1] as number) % 2 === 0 ? new Set<PyValue>(["Q00007", "Q00100"]) : undefined),
      );
      for (let i = 0; i < bytes.length; i += size) s.feed(bytes.subarray(i, i + size));
      s.finish();
      return out;
    };
    const whole = leaves(bytes.length);
    expect(whole.length).toBeGreaterThan(1000);
    // The leaves are the tree's own, in its order, only the wanted ones under even contexts.
    const expected: string[] = [];
    for (const [m, ctxs] of tree as Map<PyValue, Map<PyValue, Map<PyValue, Record<string, PyFloat>>>>)
      for (const [c, qs] of ctxs)
        for (const [q, v] of qs)
          if ((c as number) % 2 !== 0 || q === "Q00007" || q === "Q00100")
            expected.push(
              `${m}/${c}/${q}:no_answer=${v.no_answer!.value},with_answer=${v.with_answer!.value}`,
            );
    expect(whole).toEqual(expected);
    for (const size of [1, 7, 4095, 4096, 8193, 20_000, 65_536]) expect(leaves(size)).toEqual(whole);
  });

  it("refuses GLOBAL/REDUCE, naming the class, and never runs anything", () => {
    const evil = Buffer.from("cos\nsystem\n(S'echo hacked'\ntR.", "latin1");
    expect(() => loadPickle(evil, "evil.pkl")).toThrow(
      "evil.pkl:byte 0: expected plain data (no class may be imported or called), found GLOBAL os.system",
    );
  });

  it("reports a pickle cut mid-frame with the byte offset", () => {
    const bytes = dumpPickle(
      new Map(Array.from({ length: 3000 }, (_, i) => [i, `v${i}`] as [PyValue, PyValue])),
    );
    const cut = bytes.subarray(0, 5000);
    expect(() => loadPickle(cut, "cut.pkl")).toThrow(
      /^cut\.pkl:byte 5000: expected the rest of a frame \(\d+ more bytes\), found end of file$/,
    );
  });
});

requires("python3").describe("pickle against CPython (python3)", () => {
  it("CPython loads what convkit writes to the same values", () => {
    const out = python(
      `${CANON_PY}\nprint(json.dumps(canon(pickle.load(sys.stdin.buffer))))`,
      dumpPickle(sample),
    );
    expect(JSON.parse(out)).toEqual(canon(sample));
  });

  it("convkit reads what CPython writes with protocols 0 to 5", () => {
    const script = `${CANON_PY}
v = {2287: {'topic_id': 8, 'ctx': [], 'f': 0.0}, 'F0513': [1.5, -2, 2**70, -2**80, (1, 'x'), (), b'\\x00\\xff', True, None], -1: 'ünï 𝄞', 'big': 'x' * 300, 's': {3}, 'fs': frozenset([4])}
for p in range(6):
    sys.stdout.write(pickle.dumps(v, protocol=p).hex() + '\\n')
print(json.dumps(canon(v)))`;
    const lines = python(script).trim().split("\n");
    const expected = JSON.parse(lines.pop()!);
    lines.forEach((hex, p) => {
      expect(
        canon(loadPickle(Buffer.from(hex, "hex"), `p${p}`, { keepFloats: true })),
        `protocol ${p}`,
      ).toEqual(expected);
    });
  });
});
