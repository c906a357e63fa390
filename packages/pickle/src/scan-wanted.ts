// Which leaves of a branch the dict-tree scanner reports: what its caller's `wantLeaves` answered
// for the branch, matched against leaf keys (as values, or as the memo's string ids).
import type { DictItemsKernel } from "./dict-items.js";
import type { StringMemo } from "./scan-memo.js";
import type { PyValue } from "./values.js";

/**
 * The leaf keys of a branch worth reporting: a set, or a short list (no copy is made of it: a
 * caller answering each branch with its own few keys keeps them as lists).
 */
export type WantedLeaves = ReadonlySet<PyValue> | readonly PyValue[];

function isList(w: WantedLeaves): w is readonly PyValue[] {
  return Array.isArray(w);
}

/** The wanted keys of the branch being scanned, also handed to the kernel as string ids. */
export class WantedKeys {
  /** What {@link use} was given last (a caller returning the same object again costs nothing). */
  private from: WantedLeaves | undefined;
  private set: ReadonlySet<PyValue> | undefined;
  /** The wanted keys as a list when they are few: a few comparisons beat a hash lookup per item. */
  private few: readonly PyValue[] | undefined;
  /** The string ids of `few`'s strings (the first `idCount`). */
  private ids = new Int32Array(4);
  private idCount = 0;

  constructor(
    private readonly memo: StringMemo,
    private readonly kernel: DictItemsKernel,
  ) {}

  /** The keys to report from now on (undefined: all). */
  use(w: WantedLeaves | undefined): void {
    if (w === this.from) return;
    this.from = w;
    if (w === undefined) {
      this.set = undefined;
      this.few = undefined;
    } else if (isList(w)) {
      this.set = undefined;
      this.few = w;
    } else {
      this.set = w;
      this.few = w.size <= 4 ? [...w] : undefined;
    }
    const few = this.few;
    if (few === undefined) {
      this.kernel.setWanted(undefined, 0);
      return;
    }
    if (few.length > this.ids.length) this.ids = new Int32Array(few.length);
    let n = 0;
    for (const k of few) if (typeof k === "string") this.ids[n++] = this.memo.intern(k);
    this.idCount = n;
    this.kernel.setWanted(this.ids, n);
  }

  /** Whether a leaf whose key is the string of id `id` is wanted. */
  hasId(id: number): boolean {
    if (this.few !== undefined) {
      const ids = this.ids;
      for (let i = 0; i < this.idCount; i++) if (ids[i] === id) return true;
      return false;
    }
    return this.set === undefined || this.set.has(this.memo.name(id));
  }

  has(key: PyValue): boolean {
    const few = this.few;
    if (few !== undefined) {
      for (let i = 0; i < few.length; i++) if (few[i] === key) return true;
      return false;
    }
    return this.set === undefined || this.set.has(key);
  }
}
