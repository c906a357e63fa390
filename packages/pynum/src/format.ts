// Python's fixed-point formatting ('{:.4f}'.format(x)): exact decimal value, ties to even.

/** `format(x, '.Nf')` as Python prints it (JS toFixed rounds exact ties up; Python to even). */
export function formatFixed(x: number, digits: number): string {
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
