// numpy's argsort(kind='quicksort') (scalar introsort, npysort/quicksort.cpp), reproduced tie for tie.

const SMALL_QUICKSORT = 15;

/** numpy's float ordering: NaN sorts after every number. */
function less(a: number, b: number): boolean {
  return a < b || (Number.isNaN(b) && !Number.isNaN(a));
}

function msb(n: number): number {
  let depth = 0;
  for (let x = n; x > 1; x >>>= 1) depth++;
  return depth;
}

/** `a[i]`, which the loops keep within bounds; a slip is a RangeError, not a NaN that sorts. */
function at(a: Int32Array, i: number): number {
  const x = a[i];
  if (x === undefined) throw new RangeError(`argsort: position ${i} outside 0..${a.length - 1}`);
  return x;
}

/** The value at position `i` of the permutation: `v[a[i]]`. */
function valueAt(v: ArrayLike<number>, a: Int32Array, i: number): number {
  const x = v[at(a, i)];
  if (x === undefined) throw new RangeError(`argsort: index ${a[i]} outside 0..${v.length - 1}`);
  return x;
}

/** Exchanges positions `i` and `j` of the permutation. */
function swap(a: Int32Array, i: number, j: number): void {
  const t = at(a, i);
  a[i] = at(a, j);
  a[j] = t;
}

function siftDown(v: ArrayLike<number>, a: Int32Array, base: number, i: number, n: number): void {
  // 1-based heap over a[base+1 .. base+n], as numpy's aheapsort indexes it.
  const tmp = at(a, base + i);
  const vt = v[tmp];
  if (vt === undefined) throw new RangeError(`argsort: index ${tmp} outside 0..${v.length - 1}`);
  let j = i * 2;
  while (j <= n) {
    if (j < n && less(valueAt(v, a, base + j), valueAt(v, a, base + j + 1))) j++;
    if (less(vt, valueAt(v, a, base + j))) {
      a[base + i] = at(a, base + j);
      i = j;
      j += j;
    } else break;
  }
  a[base + i] = tmp;
}

/** numpy's aheapsort_, the fallback when the introsort depth runs out. */
function heapsort(v: ArrayLike<number>, a: Int32Array, start: number, n: number): void {
  const base = start - 1;
  for (let l = n >> 1; l > 0; --l) siftDown(v, a, base, l, n);
  for (let m = n; m > 1; ) {
    swap(a, base + m, base + 1);
    m -= 1;
    siftDown(v, a, base, 1, m);
  }
}

/**
 * The permutation `np.argsort(v, kind='quicksort')` returns on a float64 or int64 array (numpy's
 * portable path, as numpy < 1.25 runs everywhere). It is not stable: equal values come out in the
 * order this exact partitioning leaves them, which is what pandas `sort_values` and rank_bm25 see.
 */
export function numpyArgsort(v: ArrayLike<number>): Int32Array {
  const num = v.length;
  const a = new Int32Array(num);
  for (let i = 0; i < num; i++) a[i] = i;
  if (num < 2) return a;
  let pl = 0;
  let pr = num - 1;
  const stack: number[] = [];
  const depths: number[] = [];
  let cdepth = msb(num) * 2;
  for (;;) {
    if (cdepth < 0) {
      heapsort(v, a, pl, pr - pl + 1);
    } else {
      while (pr - pl > SMALL_QUICKSORT) {
        const pm = pl + ((pr - pl) >> 1);
        if (less(valueAt(v, a, pm), valueAt(v, a, pl))) swap(a, pm, pl);
        if (less(valueAt(v, a, pr), valueAt(v, a, pm))) swap(a, pr, pm);
        if (less(valueAt(v, a, pm), valueAt(v, a, pl))) swap(a, pm, pl);
        const vp = valueAt(v, a, pm);
        let pi = pl;
        let pj = pr - 1;
        swap(a, pm, pj);
        // The innermost loops keep plain indexing: checked access here costs ~15% of a sort (A/B,
        // 1M floats); the median of three above bounds both scans.
        for (;;) {
          do ++pi;
          while (less(v[a[pi]!]!, vp));
          do --pj;
          while (less(vp, v[a[pj]!]!));
          if (pi >= pj) break;
          const t = a[pi]!;
          a[pi] = a[pj]!;
          a[pj] = t;
        }
        swap(a, pi, pr - 1);
        if (pi - pl < pr - pi) {
          stack.push(pi + 1, pr);
          pr = pi - 1;
        } else {
          stack.push(pl, pi - 1);
          pl = pi + 1;
        }
        depths.push(--cdepth);
      }
      for (let pi = pl + 1; pi <= pr; ++pi) {
        const vi = at(a, pi);
        const vp = valueAt(v, a, pi);
        let pj = pi;
        let pk = pi - 1;
        while (pj > pl && less(vp, v[a[pk]!]!)) a[pj--] = a[pk--]!;
        a[pj] = vi;
      }
    }
    const right = stack.pop();
    const left = stack.pop();
    const depth = depths.pop();
    if (right === undefined || left === undefined || depth === undefined) break;
    pr = right;
    pl = left;
    cdepth = depth;
  }
  return a;
}
