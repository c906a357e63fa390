// CPython 3.11's list.sort (timsort with powersort's merge order), comparison for comparison:
// with NaN among the keys the order depends on which pairs are compared, and with keys of mixed
// types which pair fails first names the types in Python's TypeError.
import type { PyJson } from "./python-json.js";
import { pyLt } from "./python-json-value.js";

const MIN_GALLOP = 7;

interface Run {
  base: number;
  len: number;
  power: number;
}

/** Sorts `idx` (positions into keys) in place, as listsort sorts items by these keys. */
class TimSort {
  private minGallop = MIN_GALLOP;
  private readonly pending: Run[] = [];
  constructor(
    private readonly keys: readonly PyJson[],
    private readonly a: number[],
  ) {}

  private lt(i: number, j: number): boolean {
    return pyLt(this.keys[i] as PyJson, this.keys[j] as PyJson);
  }

  sort(): void {
    const a = this.a;
    const n = a.length;
    if (n < 2) return;
    let lo = 0;
    let remaining = n;
    const minrun = computeMinrun(n);
    do {
      let [run, descending] = this.countRun(lo, lo + remaining);
      if (descending) reverse(a, lo, lo + run);
      if (run < minrun) {
        const force = Math.min(remaining, minrun);
        this.binarySort(lo, lo + force, lo + run);
        run = force;
      }
      this.foundNewRun(run);
      this.pending.push({ base: lo, len: run, power: 0 });
      lo += run;
      remaining -= run;
    } while (remaining);
    while (this.pending.length > 1) {
      let k = this.pending.length - 2;
      if (k > 0 && (this.pending[k - 1] as Run).len < (this.pending[k + 1] as Run).len) k--;
      this.mergeAt(k);
    }
  }

  private countRun(lo: number, hi: number): [number, boolean] {
    const a = this.a;
    lo++;
    if (lo === hi) return [1, false];
    let n = 2;
    if (this.lt(a[lo] as number, a[lo - 1] as number)) {
      for (lo++; lo < hi; lo++, n++) if (!this.lt(a[lo] as number, a[lo - 1] as number)) break;
      return [n, true];
    }
    for (lo++; lo < hi; lo++, n++) if (this.lt(a[lo] as number, a[lo - 1] as number)) break;
    return [n, false];
  }

  private binarySort(lo: number, hi: number, start: number): void {
    const a = this.a;
    if (lo === start) start++;
    for (; start < hi; start++) {
      let l = lo;
      let r = start;
      const pivot = a[r] as number;
      do {
        const p = l + ((r - l) >> 1);
        if (this.lt(pivot, a[p] as number)) r = p;
        else l = p + 1;
      } while (l < r);
      for (let p = start; p > l; p--) a[p] = a[p - 1] as number;
      a[l] = pivot;
    }
  }

  private foundNewRun(n2: number): void {
    const p = this.pending;
    if (p.length === 0) return;
    const last = p[p.length - 1] as Run;
    const power = powerloop(last.base, last.len, n2, this.a.length);
    while (p.length > 1 && (p[p.length - 2] as Run).power > power) this.mergeAt(p.length - 2);
    (p[p.length - 1] as Run).power = power;
  }

  private mergeAt(i: number): void {
    const p = this.pending;
    const ra = p[i] as Run;
    const rb = p[i + 1] as Run;
    let baseA = ra.base;
    let na = ra.len;
    const baseB = rb.base;
    let nb = rb.len;
    ra.len = na + nb;
    p.splice(i + 1, 1);
    const k = this.gallopRight(this.a[baseB] as number, baseA, na, 0);
    baseA += k;
    na -= k;
    if (na === 0) return;
    nb = this.gallopLeft(this.a[baseA + na - 1] as number, baseB, nb, nb - 1);
    if (nb <= 0) return;
    if (na <= nb) this.mergeLo(baseA, na, baseB, nb);
    else this.mergeHi(baseA, na, baseB, nb);
  }

  /** gallop_left over keys at arr[base .. base+n), positions as offsets from base. */
  private gallopLeft(key: number, base: number, n: number, hint: number, arr: number[] = this.a): number {
    let lastofs = 0;
    let ofs = 1;
    const at = (o: number) => arr[base + o] as number;
    if (this.lt(at(hint), key)) {
      const maxofs = n - hint;
      while (ofs < maxofs) {
        if (this.lt(at(hint + ofs), key)) {
          lastofs = ofs;
          ofs = (ofs << 1) + 1;
        } else break;
      }
      if (ofs > maxofs) ofs = maxofs;
      lastofs += hint;
      ofs += hint;
    } else {
      const maxofs = hint + 1;
      while (ofs < maxofs) {
        if (this.lt(at(hint - ofs), key)) break;
        lastofs = ofs;
        ofs = (ofs << 1) + 1;
      }
      if (ofs > maxofs) ofs = maxofs;
      const k = lastofs;
      lastofs = hint - ofs;
      ofs = hint - k;
    }
    lastofs++;
    while (lastofs < ofs) {
      const m = lastofs + ((ofs - lastofs) >> 1);
      if (this.lt(at(m), key)) lastofs = m + 1;
      else ofs = m;
    }
    return ofs;
  }

  private gallopRight(key: number, base: number, n: number, hint: number, arr: number[] = this.a): number {
    let lastofs = 0;
    let ofs = 1;
    const at = (o: number) => arr[base + o] as number;
    if (this.lt(key, at(hint))) {
      const maxofs = hint + 1;
      while (ofs < maxofs) {
        if (this.lt(key, at(hint - ofs))) {
          lastofs = ofs;
          ofs = (ofs << 1) + 1;
        } else break;
      }
      if (ofs > maxofs) ofs = maxofs;
      const k = lastofs;
      lastofs = hint - ofs;
      ofs = hint - k;
    } else {
      const maxofs = n - hint;
      while (ofs < maxofs) {
        if (this.lt(key, at(hint + ofs))) break;
        lastofs = ofs;
        ofs = (ofs << 1) + 1;
      }
      if (ofs > maxofs) ofs = maxofs;
      lastofs += hint;
      ofs += hint;
    }
    lastofs++;
    while (lastofs < ofs) {
      const m = lastofs + ((ofs - lastofs) >> 1);
      if (this.lt(key, at(m))) ofs = m;
      else lastofs = m + 1;
    }
    return ofs;
  }

  private mergeLo(baseA: number, na: number, baseB: number, nb: number): void {
    const a = this.a;
    const tmp = a.slice(baseA, baseA + na);
    let pa = 0;
    let pb = baseB;
    let dest = baseA;
    a[dest++] = a[pb++] as number;
    nb--;
    const finish = () => {
      // Succeed / Fail: what is left of A goes after dest.
      for (let i = 0; i < na; i++) a[dest + i] = tmp[pa + i] as number;
    };
    const copyB = () => {
      for (let i = 0; i < nb; i++) a[dest + i] = a[pb + i] as number;
      a[dest + nb] = tmp[pa] as number;
    };
    if (nb === 0) return finish();
    if (na === 1) return copyB();
    let minGallop = this.minGallop;
    try {
      for (;;) {
        let acount = 0;
        let bcount = 0;
        for (;;) {
          if (this.lt(a[pb] as number, tmp[pa] as number)) {
            a[dest++] = a[pb++] as number;
            bcount++;
            acount = 0;
            if (--nb === 0) return finish();
            if (bcount >= minGallop) break;
          } else {
            a[dest++] = tmp[pa++] as number;
            acount++;
            bcount = 0;
            if (--na === 1) return copyB();
            if (acount >= minGallop) break;
          }
        }
        minGallop++;
        do {
          minGallop -= minGallop > 1 ? 1 : 0;
          this.minGallop = minGallop;
          let k = this.gallopRight(a[pb] as number, pa, na, 0, tmp);
          acount = k;
          if (k) {
            for (let i = 0; i < k; i++) a[dest + i] = tmp[pa + i] as number;
            dest += k;
            pa += k;
            na -= k;
            if (na === 1) return copyB();
            if (na === 0) return finish();
          }
          a[dest++] = a[pb++] as number;
          if (--nb === 0) return finish();
          k = this.gallopLeft(tmp[pa] as number, pb, nb, 0);
          bcount = k;
          if (k) {
            for (let i = 0; i < k; i++) a[dest + i] = a[pb + i] as number;
            dest += k;
            pb += k;
            nb -= k;
            if (nb === 0) return finish();
          }
          a[dest++] = tmp[pa++] as number;
          if (--na === 1) return copyB();
        } while (acount >= MIN_GALLOP || bcount >= MIN_GALLOP);
        minGallop++;
        this.minGallop = minGallop;
      }
    } catch (e) {
      finish();
      throw e;
    }
  }

  private mergeHi(baseA: number, na: number, baseB: number, nb: number): void {
    const a = this.a;
    const tmp = a.slice(baseB, baseB + nb);
    let dest = baseB + nb - 1;
    let pb = nb - 1;
    let pa = baseA + na - 1;
    a[dest--] = a[pa--] as number;
    na--;
    const finish = () => {
      for (let i = 0; i < nb; i++) a[dest - (nb - 1) + i] = tmp[i] as number;
    };
    const copyA = () => {
      dest -= na;
      pa -= na;
      for (let i = na; i >= 1; i--) a[dest + i] = a[pa + i] as number;
      a[dest] = tmp[pb] as number;
    };
    if (na === 0) return finish();
    if (nb === 1) return copyA();
    let minGallop = this.minGallop;
    try {
      for (;;) {
        let acount = 0;
        let bcount = 0;
        for (;;) {
          if (this.lt(tmp[pb] as number, a[pa] as number)) {
            a[dest--] = a[pa--] as number;
            acount++;
            bcount = 0;
            if (--na === 0) return finish();
            if (acount >= minGallop) break;
          } else {
            a[dest--] = tmp[pb--] as number;
            bcount++;
            acount = 0;
            if (--nb === 1) return copyA();
            if (bcount >= minGallop) break;
          }
        }
        minGallop++;
        do {
          minGallop -= minGallop > 1 ? 1 : 0;
          this.minGallop = minGallop;
          let k = this.gallopRight(tmp[pb] as number, baseA, na, na - 1);
          k = na - k;
          acount = k;
          if (k) {
            dest -= k;
            pa -= k;
            for (let i = k; i >= 1; i--) a[dest + i] = a[pa + i] as number;
            na -= k;
            if (na === 0) return finish();
          }
          a[dest--] = tmp[pb--] as number;
          if (--nb === 1) return copyA();
          k = this.gallopLeft(a[pa] as number, 0, nb, nb - 1, tmp);
          k = nb - k;
          bcount = k;
          if (k) {
            dest -= k;
            pb -= k;
            for (let i = 1; i <= k; i++) a[dest + i] = tmp[pb + i] as number;
            nb -= k;
            if (nb === 1) return copyA();
            if (nb === 0) return finish();
          }
          a[dest--] = a[pa--] as number;
          if (--na === 0) return finish();
        } while (acount >= MIN_GALLOP || bcount >= MIN_GALLOP);
        minGallop++;
        this.minGallop = minGallop;
      }
    } catch (e) {
      finish();
      throw e;
    }
  }
}

function computeMinrun(n: number): number {
  let r = 0;
  while (n >= 64) {
    r |= n & 1;
    n >>= 1;
  }
  return n + r;
}

function powerloop(s1: number, n1: number, n2: number, n: number): number {
  let result = 0;
  let a = 2 * s1 + n1;
  let b = a + n1 + n2;
  for (;;) {
    result++;
    if (a >= n) {
      a -= n;
      b -= n;
    } else if (b >= n) break;
    a <<= 1;
    b <<= 1;
  }
  return result;
}

function reverse(a: number[], lo: number, hi: number): void {
  for (hi--; lo < hi; lo++, hi--) {
    const t = a[lo] as number;
    a[lo] = a[hi] as number;
    a[hi] = t;
  }
}

/**
 * `sorted(range(len(keys)), key=keys.__getitem__, reverse=reverse)`: the positions of the keys in
 * Python's sorted order. Throws what a comparison throws (PyException TypeError), as Python does.
 */
export function pySortedOrder(keys: readonly PyJson[], reverse_ = false): number[] {
  const order = keys.map((_, i) => i);
  // Reverse sort stays stable the way listsort does it: reverse, sort forward, reverse.
  if (reverse_) order.reverse();
  new TimSort(keys, order).sort();
  if (reverse_) order.reverse();
  return order;
}
