// Python's fixed-point formatting ('{:.4f}'.format(x)): exact decimal value, ties to even.

/**
 * `%.{digits}f` of a double as C and Python print it: the exact value rounded half to even.
 * Fast path: JS's toFixed rounds the exact value too (|x| < 1e21), but a tie up; a double is a
 * tie at `digits` places exactly when x·2^(digits+1) is an odd integer (x = (2k+1)/(2·10^d) must
 * be dyadic, so 5^d divides 2k+1), and -0 prints its sign: those go to formatFixedExact.
 */
export function formatFixed(x: number, digits: number): string {
  if (digits <= 20 && Math.abs(x) < 1e21 && x !== 0) {
    const y = x * 2 ** (digits + 1);
    if (!Number.isInteger(y) || y % 2 === 0) return x.toFixed(digits);
  }
  return formatFixedExact(x, digits);
}

/** {@link formatFixed}'s plain reference: the exact decimal expansion, rounded half to even by hand. */
export function formatFixedExact(x: number, digits: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  // toFixed(100) is the exact decimal expansion of the double for |x| < 1e21 and these magnitudes.
  const exact = Math.abs(x).toFixed(100);
  const dot = exact.indexOf(".");
  const intPart = exact.slice(0, dot);
  const frac = exact.slice(dot + 1);
  const keep = frac.slice(0, digits);
  const rest = frac.slice(digits);
  let digitsStr = intPart + keep;
  const first = rest[0] ?? "0";
  const tail = rest.slice(1);
  const lastDigit = Number(digitsStr[digitsStr.length - 1] ?? "0");
  const roundUp = first > "5" || (first === "5" && (/[1-9]/.test(tail) || lastDigit % 2 === 1));
  if (roundUp) {
    const up = (BigInt(digitsStr) + 1n).toString().padStart(digitsStr.length, "0");
    digitsStr = up;
  }
  const ip = digitsStr.slice(0, digitsStr.length - digits) || "0";
  const fp = digitsStr.slice(digitsStr.length - digits);
  const sign = x < 0 || Object.is(x, -0) ? "-" : "";
  return digits > 0 ? `${sign}${ip}.${fp}` : `${sign}${ip}`;
}
