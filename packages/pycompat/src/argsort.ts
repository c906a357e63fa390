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

function siftDown(v: ArrayLike<number>, a: Int32Array, base: number, i: number, n: number): void {
  // 1-based heap over a[base+1 .. base+n], as numpy's aheapsort indexes it.
  const tmp = a[base + i]!;
  let j = i * 2;
  while (j <= n) {
    if (j < n && less(v[a[base + j]!]!, v[a[base + j + 1]!]!)) j++;
    if (less(v[tmp]!, v[a[base + j]!]!)) {
      a[base + i] = a[base + j]!;
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
    const tmp = a[base + m]!;
    a[base + m] = a[base + 1]!;
    a[base + 1] = tmp;
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
        let t: number;
        if (less(v[a[pm]!]!, v[a[pl]!]!)) {
          t = a[pm]!;
          a[pm] = a[pl]!;
          a[pl] = t;
        }
        if (less(v[a[pr]!]!, v[a[pm]!]!)) {
          t = a[pr]!;
          a[pr] = a[pm]!;
          a[pm] = t;
        }
        if (less(v[a[pm]!]!, v[a[pl]!]!)) {
          t = a[pm]!;
          a[pm] = a[pl]!;
          a[pl] = t;
        }
        const vp = v[a[pm]!]!;
        let pi = pl;
        let pj = pr - 1;
        t = a[pm]!;
        a[pm] = a[pj]!;
        a[pj] = t;
        for (;;) {
          do ++pi;
          while (less(v[a[pi]!]!, vp));
          do --pj;
          while (less(vp, v[a[pj]!]!));
          if (pi >= pj) break;
          t = a[pi]!;
          a[pi] = a[pj]!;
          a[pj] = t;
        }
        const pk = pr - 1;
        t = a[pi]!;
        a[pi] = a[pk]!;
        a[pk] = t;
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
        const vi = a[pi]!;
        const vp = v[vi]!;
        let pj = pi;
        let pk = pi - 1;
        while (pj > pl && less(vp, v[a[pk]!]!)) a[pj--] = a[pk--]!;
        a[pj] = vi;
      }
    }
    if (stack.length === 0) break;
    pr = stack.pop()!;
    pl = stack.pop()!;
    cdepth = depths.pop()!;
  }
  return a;
}
