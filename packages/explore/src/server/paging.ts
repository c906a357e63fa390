// Paged answers: every list endpoint returns a slice and the total, so no view loads a whole file.

export interface Page<T> {
  total: number;
  offset: number;
  items: T[];
}

/** The largest page any endpoint returns. */
const MAX_LIMIT = 500;

export function page<S, T>(all: readonly S[], offset: number, limit: number, map: (s: S) => T): Page<T> {
  const from = Math.max(0, Math.min(offset, all.length));
  const to = Math.min(all.length, from + Math.max(0, Math.min(limit, MAX_LIMIT)));
  return { total: all.length, offset: from, items: all.slice(from, to).map(map) };
}
