// The column summaries of a filtered list, kept per list and filter: the page asks for them apart from the list.
/** At most this many filters' summaries are kept per list (then the list's cache starts over). */
const MAX_KEPT = 64;

const kept = new WeakMap<object, Map<string, unknown>>();

/**
 * `summarize()`'s answer for `list` (a dataset, a synthetic set, an eval dict) under `filter` (the
 * request's filter parameters, normalized as the list matches them), computed once per filter. A
 * failed promise is not kept: the next request tries again.
 */
export function summaryOf<S>(list: object, filter: readonly unknown[], summarize: () => S): S {
  let m = kept.get(list);
  if (!m) {
    m = new Map();
    kept.set(list, m);
  }
  const key = JSON.stringify(filter);
  if (m.has(key)) return m.get(key) as S;
  if (m.size >= MAX_KEPT) m.clear();
  const s = summarize();
  m.set(key, s);
  if (s instanceof Promise) s.catch(() => m.delete(key));
  return s;
}
