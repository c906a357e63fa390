// Python's text forms of numbers, so files we write read the same as upstream's.

/** `repr(float)` of Python 3: shortest round-trip digits, exponent below 1e-4 and from 1e16. */
export function formatPyFloat(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const abs = Math.abs(x);
  if (abs >= 1e16 || abs < 1e-4) {
    const [m, e] = x.toExponential().split("e") as [string, string];
    const exp = Number(e);
    const sign = exp < 0 ? "-" : "+";
    const digits = String(Math.abs(exp)).padStart(2, "0");
    return `${m}e${sign}${digits}`;
  }
  const s = String(x);
  return s.includes(".") || s.includes("e") ? s : `${s}.0`;
}
