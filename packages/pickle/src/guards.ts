// What the general reader guarantees of the value it returns, whoever walks it next (JSON, the
// synthetic and eval-dict readers): nested at most MAX_DEPTH deep, no cycle, and memo-shared
// entries that, written out in full at each reference as JSON writes them, stay within a budget
// linear in the pickle. All of it checked in time linear in the pickle.
import { InputError } from "@convkit/io";
import { PyTuple, type PyValue } from "./values.js";

/**
 * The deepest nesting a pickle may have. CPython's json.dumps stops near its recursion limit,
 * 1000, and V8's JSON.stringify a few thousand levels down: deeper would fail when written out.
 */
export const MAX_DEPTH = 1000;

/**
 * Written out in full at each reference (JSON has no references), memo-shared entries may add at
 * most SHARED_PER_BYTE values per byte of pickle, plus SHARED_SLACK: linear in the input whatever
 * it shares (an unshared pickle holds at most about one value per byte), while ClariQ's synthetic
 * sets, whose context lists and turns several records reference as CPython's memo shares them,
 * add 0.15 per byte.
 */
const SHARED_PER_BYTE = 2;
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

/** A container's values written out in full (itself, and each value below it, once per reference) and its depth. */
type Stats = readonly [size: number, depth: number];

/**
 * How deep the containers on the reader's stack are, and what memo sharing adds. Per stack slot
 * holding a container: its depth (1: nothing nested). A container met again (memo get, DUP) is
 * measured once, at its first reference again: CPython refers only to complete containers, so its
 * depth and size stay exact. One filled after it was shared (how cycles are made) or copied by
 * set() makes the stack's figures lower bounds: the whole value is then measured once it is read.
 */
export class Nesting {
  private readonly depths: number[] = [];
  /** Every container referenced more than once, with its figures once measured (while exact). */
  private readonly shared = new Map<object, Stats | undefined>();
  /** Values written out again at the references so far. */
  private extra = 0;
  /** Whether a shared container was filled after it was shared, or set() copied a list's containers. */
  private inexact = false;

  constructor(
    private readonly stack: readonly unknown[],
    private readonly name: string,
  ) {}

  /** An empty container is about to be pushed. */
  empty(): void {
    this.depths[this.stack.length] = 1;
  }

  /** The value just pushed (at `offset`) is referenced again (memo get, DUP). */
  again(v: unknown, offset: number): void {
    if (typeof v !== "object" || !isContainer(v)) return;
    const slot = this.stack.length - 1;
    let stats = this.shared.get(v);
    if (stats === undefined) {
      if (this.inexact) {
        this.shared.set(v, undefined);
        this.depths[slot] = 1; // a lower bound: check() measures
        return;
      }
      // Not inexact, so no cycle anywhere (making one fills a shared container): the walk ends.
      this.shared.set(v, undefined);
      stats = measure(v, this.shared, this.name)[0];
    }
    this.depths[slot] = stats[1];
    this.extra += stats[0];
    const budget = SHARED_PER_BYTE * offset + SHARED_SLACK;
    if (this.extra > budget) tooShared(this.name, offset, budget, this.extra);
  }

  /** The set just pushed (set(list)) copied the list's items: containers among them are now shared. */
  copied(s: Set<PyValue>): void {
    this.depths[this.stack.length - 1] = 1;
    for (const x of s)
      if (isContainer(x)) {
        this.inexact = true;
        if (!this.shared.has(x)) this.shared.set(x, undefined);
      }
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

  /**
   * The container at stack slot p is `d` deep (refused past MAX_DEPTH); `filled`: it was just
   * given more values, and is at least `d` deep.
   */
  nest(p: number, d: number, offset: number, filled: boolean): void {
    if (filled) {
      if (this.shared.size > 0 && this.shared.has(this.stack[p] as object)) this.inexact = true;
      if (d <= this.depths[p]!) return;
    }
    if (d > MAX_DEPTH) tooDeep(this.name, offset, containerName(this.stack[p] as Container), d);
    this.depths[p] = d;
  }

  /** Checks the whole value of a pickle of `bytes` once read, when the stack's figures were lower bounds. */
  check(value: PyValue, bytes: number): void {
    if (!this.inexact || !isContainer(value)) return;
    const memo = new Map<object, Stats | undefined>();
    for (const k of this.shared.keys()) memo.set(k, undefined);
    const [[size], held] = measure(value, memo, this.name);
    const budget = SHARED_PER_BYTE * bytes + SHARED_SLACK;
    if (size - held > budget) tooShared(this.name, undefined, budget, size - held);
  }
}

function tooShared(name: string, offset: number | undefined, budget: number, extra: number): never {
  throw new InputError(
    name,
    offset === undefined ? {} : { offset },
    `memo-shared values that, written out in full at each reference, add at most ${budget} values (${SHARED_PER_BYTE} per byte read + ${SHARED_SLACK})`,
    `${extra > 1e15 ? extra.toExponential(2) : extra} more`,
  );
}

/** Pushes the containers among v's values (and a dict's keys) to `out`; returns how many values v holds. */
function containersIn(v: Container, out: Container[]): number {
  if (v instanceof Map) {
    for (const [k, x] of v) {
      if (typeof k === "object" && k !== null && isContainer(k)) out.push(k);
      if (typeof x === "object" && x !== null && isContainer(x)) out.push(x);
    }
    return 2 * v.size;
  }
  if (v instanceof Set) {
    for (const x of v) if (typeof x === "object" && x !== null && isContainer(x)) out.push(x);
    return v.size;
  }
  const items = v instanceof PyTuple ? v.items : v;
  for (const x of items) if (typeof x === "object" && x !== null && isContainer(x)) out.push(x);
  return items.length;
}

/**
 * Walks the containers under `root` (iteratively: any depth) and returns root's figures and the
 * values the walk met (each container and its slots, once). The containers that are keys of `memo`
 * are walked once, their figures kept there: every other one must be referenced once only, so
 * the walk is linear. Throws on a cycle or nesting past MAX_DEPTH.
 */
function measure(root: Container, memo: Map<object, Stats | undefined>, name: string): [Stats, number] {
  const open = new Set<object>(); // memo keys on the current path
  // The path from the root: per container, the containers it holds, how many of them are walked,
  // 1 + the values written out below it so far, and the deepest depth below it so far. `path`
  // holds the ancestors of `top`.
  const path: PathFrame[] = [];
  let held = 0;
  const enter = (c: Container): PathFrame => {
    const kids: Container[] = [];
    const n = containersIn(c, kids);
    held += 1 + n;
    if (memo.has(c)) open.add(c);
    // Values that are not containers are written out once each, right here.
    return { node: c, kids, pos: 0, size: 1 + n - kids.length, below: 0 };
  };
  let top = enter(root);
  for (;;) {
    const c = top.kids[top.pos];
    if (c !== undefined) {
      top.pos++;
      const known = memo.get(c);
      if (known !== undefined) {
        top.size += known[0];
        if (known[1] > top.below) top.below = known[1];
        continue;
      }
      if (open.has(c)) {
        const nodes = [...path.map((f) => f.node), top.node];
        const levels = nodes.length - nodes.lastIndexOf(c);
        throw new InputError(
          name,
          {},
          "a pickle without cycles (JSON cannot write one)",
          `a ${containerName(c)} that contains itself${levels > 1 ? ` ${levels} levels down` : ""}`,
        );
      }
      if (path.length + 1 >= MAX_DEPTH) tooDeep(name, undefined, containerName(c), path.length + 2);
      path.push(top);
      top = enter(c);
      continue;
    }
    const { node, size: s } = top;
    const depth = top.below + 1;
    if (depth > MAX_DEPTH) tooDeep(name, undefined, containerName(node), depth);
    if (memo.has(node)) {
      open.delete(node);
      memo.set(node, [s, depth]);
    }
    const parent = path.pop();
    if (parent === undefined) return [[s, depth], held];
    parent.size += s;
    if (depth > parent.below) parent.below = depth;
    top = parent;
  }
}

/** One container on {@link measure}'s path. */
interface PathFrame {
  readonly node: Container;
  readonly kids: Container[];
  pos: number;
  size: number;
  below: number;
}
