// The dict-tree scanner's memo: what each memo index holds as far as a scan cares (a string, a
// dict, nothing), as small integers in the WebAssembly kernel's memory, which reads it too.
import type { DictItemsKernel } from "./dict-items.js";

/**
 * Per memo index: 0 (unset), -1 (a dict) or k, the id of a string. A typed array because the leaf
 * dicts alone take a million entries, which as a JS array cost more to grow and to trace through
 * GC than the rest of the scan. Equal strings get one id, so a leaf's key is checked against the
 * wanted ones as small integers (comparing two different strings of equal length reads their
 * characters, and that per item was a fifth of the scan).
 */
export class StringMemo {
  /** The entries: a view of the kernel's memory, taken again by {@link refresh}. */
  ids: Int32Array;
  /** One past the highest index set (MEMOIZE's next index: CPython numbers entries densely). */
  length = 0;
  private readonly names: string[] = [];
  private readonly idOf = new Map<string, number>();

  constructor(private readonly kernel: DictItemsKernel) {
    this.ids = kernel.memo;
  }

  /** Takes the kernel's memory again: loading bytes or growing the memo detaches the old view. */
  refresh(): void {
    this.ids = this.kernel.memo;
  }

  /** The id of `s` (made on first sight). */
  intern(s: string): number {
    const id = this.idOf.get(s);
    if (id !== undefined) return id;
    const added = this.names.push(s);
    this.idOf.set(s, added);
    return added;
  }

  /** The string of id `id`. */
  name(id: number): string {
    return this.names[id - 1]!;
  }

  /** Sets entry `idx` to a string, or to a dict for `undefined`. */
  set(idx: number, s: string | undefined): void {
    if (idx >= this.ids.length) {
      this.kernel.growMemo(idx + 1);
      this.refresh();
    }
    this.ids[idx] = s === undefined ? -1 : this.intern(s);
    if (idx >= this.length) this.length = idx + 1;
  }

  /** The string at `idx`, or undefined (unset, or a dict). */
  str(idx: number): string | undefined {
    const r = idx < this.length ? this.ids[idx]! : 0;
    return r > 0 ? this.names[r - 1] : undefined;
  }

  /** Index → string for every string entry: what later bytes of the stream may refer to. */
  strings(): Map<number, string> {
    const out = new Map<number, string>();
    for (let i = 0; i < this.length; i++) {
      const r = this.ids[i]!;
      if (r > 0) out.set(i, this.names[r - 1]!);
    }
    return out;
  }
}
