// Checked access where the code knows an element is there: a wrong guess throws, naming the index or key, instead of `!` letting undefined flow on.

/** `list[i]`, which must exist. */
export function at<T>(list: ArrayLike<T>, i: number): T {
  const x = list[i];
  if (x === undefined) throw new Error(`no element ${i} (of ${list.length})`);
  return x;
}

/** `map.get(key)`, which must be there. */
export function got<K, V>(map: ReadonlyMap<K, V>, key: K): V {
  const x = map.get(key);
  if (x === undefined) throw new Error(`no entry ${String(key)}`);
  return x;
}
