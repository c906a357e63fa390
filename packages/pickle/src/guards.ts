// What the general reader guarantees of the value it returns, whoever walks it next (JSON, the
// synthetic and eval-dict readers): nested at most MAX_DEPTH deep, no cycle, and memo-shared
// entries that, written out in full as JSON writes them, stay within a budget linear in the pickle.
import { InputError } from "@convkit/io";
import { PyTuple, type PyValue } from "./values.js";

/**
 * The deepest nesting a pickle may have. CPython's json.dumps stops near its recursion limit,
 * 1000, and V8's JSON.stringify a few thousand levels down: deeper would fail when written out.
 */
export const MAX_DEPTH = 1000;

/**
 * Written out in full (JSON has no references), memo-shared entries may make a value at most
 * SHARED_FACTOR times the values the pickle holds, plus SHARED_SLACK: linear in the input whatever
 * it shares, while ClariQ's synthetic sets (each context list and turn referenced by several
 * records, as CPython's memo shares them) come to about 1.5 times.
 */
const SHARED_FACTOR = 4;
const SHARED_SLACK = 1 << 21;

/** A list, tuple, dict or set: what holds other values. */
type Container = PyValue[] | PyTuple | Map<PyValue, PyValue> | Set<PyValue>;

function isContainer(v: unknown): v is Container {
  return Array.isArray(v) || v instanceof Map || v instanceof PyTuple || v instanceof Set;
}

/** Python's name of a container's type. */
function containerName(v: Container): string {
  if (Array.isArray(v)) return "list";
  if (v instanceof Map) return "dict";
  return v instanceof Set ? "set" : "tuple";
}

function tooDeep(name: string, offset: number | undefined, kind: string, depth: number): never {
  throw new InputError(
    name,
    offset === undefined ? {} : { offset },
    `a pickle nested at most ${MAX_DEPTH} deep`,
    `a ${kind} nested ${depth} deep`,
  );
}

/**
 * How deep the containers on the reader's stack are: per stack slot holding a container, its
 * depth (1: nothing nested), exact while no container is referenced twice, a lower bound after
 * (then {@link check} measures the whole value). Other slots' entries are stale.
 */
export class Nesting {
  private readonly depths: number[] = [];
  /** Every container referenced more than once (memo gets, DUP, set() copying a list's items). */
  private readonly shared = new Set<object>();

  constructor(
    private readonly stack: readonly unknown[],
    private readonly name: string,
  ) {}

  /** An empty container is about to be pushed. */
  empty(): void {
    this.depths[this.stack.length] = 1;
  }

  /** The value just pushed is referenced again (memo get, DUP): a container is remembered as shared. */
  again(v: unknown): void {
    if (typeof v !== "object" || !isContainer(v)) return;
    this.shared.add(v);
    // Its depth is now a lower bound: it may have been filled since it was put, or be filled later.
    const n = this.stack.length;
    this.depths[n - 1] = n >= 2 && this.stack[n - 2] === v ? this.depths[n - 2]! : 1;
  }

  /** The set just pushed (set(list)) copied the list's items, which may now be referenced twice. */
  copied(s: Set<PyValue>): void {
    this.depths[this.stack.length - 1] = 1;
    for (const x of s) if (isContainer(x)) this.shared.add(x);
  }

  /** The depth of a container holding stack[from..to): one more than the deepest of them. */
  holding(from: number, to: number): number {
    const stack = this.stack;
    const depths = this.depths;
    let d = 1;
    for (let i = Math.max(from, 0); i < to; i++) {
      const v = stack[i];
      if (typeof v === "object" && v !== null && depths[i]! >= d && isContainer(v)) d = depths[i]! + 1;
    }
    return d;
  }

  /** The container at stack slot p is `d` deep (or deeper, when `atLeast`); refused past MAX_DEPTH. */
  nest(p: number, d: number, offset: number, atLeast: boolean): void {
    if (atLeast && d <= this.depths[p]!) return;
    if (d > MAX_DEPTH) tooDeep(this.name, offset, containerName(this.stack[p] as Container), d);
    this.depths[p] = d;
  }

  /** Checks the whole value once read, when containers were shared (else the stack's depths were exact). */
  check(value: PyValue): void {
    if (this.shared.size === 0) return;
    checkShared(value, this.shared, this.name);
    this.shared.clear();
  }
}

function kidsOf(v: Container): PyValue[] {
  if (Array.isArray(v)) return v;
  if (v instanceof PyTuple) return v.items;
  if (v instanceof Set) return [...v];
  const out: PyValue[] = [];
  for (const [k, x] of v) out.push(k, x);
  return out;
}

/**
 * Checks a value whose containers may be referenced more than once. `shared` must hold every
 * container referenced more than once (the reader adds each one a memo get, DUP or set() copies),
 * so the walk remembers only those: each other container is met once. Linear in the distinct
 * values; throws on a cycle, nesting past MAX_DEPTH, or an expansion past the budget.
 */
function checkShared(root: PyValue, shared: ReadonlySet<object>, name: string): void {
  if (!isContainer(root)) return;
  // Per shared container walked: [values written out, depth]; on the current path: absent, in `open`.
  const done = new Map<object, [number, number]>();
  const open = new Set<object>();
  const nodes: Container[] = [];
  const kids: PyValue[][] = [];
  const pos: number[] = [];
  const size: number[] = []; // 1 + the values written out below so far
  const below: number[] = []; // the deepest child's depth so far
  let held = 0; // values the pickle holds: each distinct container and its slots
  const enter = (c: Container) => {
    const k = kidsOf(c);
    nodes.push(c);
    kids.push(k);
    pos.push(0);
    size.push(1);
    below.push(0);
    held += 1 + k.length;
    if (shared.has(c)) open.add(c);
  };
  enter(root);
  for (;;) {
    const f = nodes.length - 1;
    const k = kids[f]!;
    if (pos[f]! < k.length) {
      const c = k[pos[f]!++];
      if (!isContainer(c)) {
        size[f]!++;
        continue;
      }
      if (shared.has(c)) {
        const d = done.get(c);
        if (d !== undefined) {
          size[f]! += d[0];
          if (d[1] > below[f]!) below[f] = d[1];
          continue;
        }
        if (open.has(c)) {
          const kind = containerName(c);
          const levels = f + 1 - nodes.lastIndexOf(c);
          throw new InputError(
            name,
            {},
            "a pickle without cycles (JSON cannot write one)",
            `a ${kind} that contains itself${levels > 1 ? ` ${levels} levels down` : ""}`,
          );
        }
      }
      if (nodes.length >= MAX_DEPTH) tooDeep(name, undefined, containerName(c), nodes.length + 1);
      enter(c);
      continue;
    }
    const node = nodes.pop()!;
    kids.pop();
    pos.pop();
    const s = size.pop()!;
    const depth = below.pop()! + 1;
    if (depth > MAX_DEPTH) tooDeep(name, undefined, containerName(node), depth);
    if (shared.has(node)) {
      open.delete(node);
      done.set(node, [s, depth]);
    }
    if (nodes.length === 0) {
      const budget = SHARED_FACTOR * held + SHARED_SLACK;
      if (s > budget)
        throw new InputError(
          name,
          {},
          `a pickle whose memo-shared values, written out in full, make at most ${budget} values (${SHARED_FACTOR} per value it holds + ${SHARED_SLACK})`,
          `${s > 1e15 ? s.toExponential(2) : s} values from ${held}`,
        );
      return;
    }
    size[f - 1]! += s;
    if (depth > below[f - 1]!) below[f - 1] = depth;
  }
}
