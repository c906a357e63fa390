// The Python operations iKAT 2025's scripts apply to whatever json.loads gave them (dict.get,
// len, iteration, `in`, `sorted(d.items(), key=value, reverse=True)`), each raising the exception
// Python raises on a value of the wrong type: the scripts' verdicts follow those exceptions.
import {
  type PyDict,
  PyException,
  type PyJson,
  pyCheckHashable,
  pyEq,
  pyJsonTypeName,
  pySortedOrder,
} from "@convkit/formats";

export const isDict = (v: PyJson | undefined): v is PyDict => v instanceof Map;

/** `v.get(key, dflt)`: AttributeError unless v is a dict. */
export function pyGet(v: PyJson, key: string, dflt: PyJson = null): PyJson {
  if (!isDict(v)) throw attributeError(v, "get");
  return v.has(key) ? (v.get(key) as PyJson) : dflt;
}

function attributeError(v: PyJson, name: string): PyException {
  return new PyException("AttributeError", `'${pyJsonTypeName(v)}' object has no attribute '${name}'`);
}

/** `list(v)` as a for loop sees it: a dict's keys, a list's items, a string's characters. */
export function pyIter(v: PyJson): PyJson[] {
  if (Array.isArray(v)) return v;
  if (isDict(v)) return [...v.keys()];
  if (typeof v === "string") return Array.from(v);
  throw new PyException("TypeError", `'${pyJsonTypeName(v)}' object is not iterable`);
}

/** `len(v)`. */
export function pyLen(v: PyJson): number {
  if (Array.isArray(v)) return v.length;
  if (isDict(v)) return v.size;
  if (typeof v === "string") return Array.from(v).length;
  throw new PyException("TypeError", `object of type '${pyJsonTypeName(v)}' has no len()`);
}

/** `x in container`. */
export function pyIn(x: PyJson, container: PyJson): boolean {
  if (Array.isArray(container)) return container.some((y) => pyEq(x, y));
  if (isDict(container)) {
    pyCheckHashable(x);
    return typeof x === "string" && container.has(x);
  }
  if (typeof container === "string") {
    if (typeof x !== "string")
      throw new PyException(
        "TypeError",
        `'in <string>' requires string as left operand, not ${pyJsonTypeName(x)}`,
      );
    return container.includes(x);
  }
  throw new PyException("TypeError", `argument of type '${pyJsonTypeName(container)}' is not iterable`);
}

/** `container[key]` for a str key. */
export function pyGetItem(container: PyJson, key: string): PyJson {
  if (isDict(container)) {
    if (!container.has(key)) throw new PyException("KeyError", `'${key}'`);
    return container.get(key) as PyJson;
  }
  if (Array.isArray(container))
    throw new PyException("TypeError", "list indices must be integers or slices, not str");
  if (typeof container === "string")
    throw new PyException("TypeError", "string indices must be integers, not 'str'");
  throw new PyException("TypeError", `'${pyJsonTypeName(container)}' object is not subscriptable`);
}

/** `v[:n]` (a dict's slice raises: Python 3.11's slices are unhashable). */
export function pySliceHead(v: PyJson, n: number): PyJson {
  if (Array.isArray(v)) return v.slice(0, n);
  if (typeof v === "string") return Array.from(v).slice(0, n).join("");
  if (isDict(v)) throw new PyException("TypeError", "unhashable type: 'slice'");
  throw new PyException("TypeError", `'${pyJsonTypeName(v)}' object is not subscriptable`);
}

/** `sorted(v.items(), key=lambda item: item[1], reverse=True)` as [key, value] pairs. */
export function pySortedItemsDesc(v: PyJson): [string, PyJson][] {
  if (!isDict(v)) throw attributeError(v, "items");
  const items = [...v];
  return pySortedOrder(
    items.map(([, x]) => x),
    true,
  ).map((i) => items[i] as [string, PyJson]);
}

/** A lone surrogate makes print() and a UTF-8 text file's write() raise UnicodeEncodeError. */
export function checkEncodable(s: string): void {
  if (s.isWellFormed()) return;
  const m = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.exec(s);
  if (!m) return;
  const pos = Array.from(s.slice(0, m.index)).length;
  const code = (m[0].codePointAt(0) ?? 0).toString(16);
  throw new PyException(
    "UnicodeEncodeError",
    `'utf-8' codec can't encode character '\\u${code}' in position ${pos}: surrogates not allowed`,
  );
}
