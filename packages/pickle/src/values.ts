// The JavaScript shapes of Python values as convkit's pickle reader returns and its writer accepts.

/** A Python tuple (kept apart from lists so a round trip writes a tuple again). */
export class PyTuple {
  constructor(readonly items: PyValue[]) {}
}

/** A Python float whose value is integral (`0.0`), kept apart from ints when asked to (see `keepFloats`). */
export class PyFloat {
  constructor(readonly value: number) {}
}

/**
 * A Python value: None → null, bool, int → number (BigInt beyond 2^53), float → number,
 * str → string, bytes/bytearray → Uint8Array, list → array, tuple → PyTuple, dict → Map (insertion
 * order and key types kept: `1` and `'1'` are different keys), set/frozenset → Set.
 */
export type PyValue =
  | null
  | boolean
  | number
  | bigint
  | string
  | Uint8Array
  | PyFloat
  | PyTuple
  | PyValue[]
  | Map<PyValue, PyValue>
  | Set<PyValue>
  | { readonly [key: string]: PyValue };

/** A dict as read from a pickle. */
export type PyDict = Map<PyValue, PyValue>;
