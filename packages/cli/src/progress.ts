// Progress bars on stderr, only when stderr is a terminal.

/** A progress reporter; every method is a no-op when stderr is not a TTY. */
export interface Progress {
  /** `n` more items; `bytes` more input bytes (shown as MB/s when given). */
  tick(n: number, bytes?: number): void;
  /** Text shown after the rates (e.g. a queue run's files done and workers seen). */
  note(text: string): void;
  done(): void;
}

/**
 * Lines and a progress line on stderr: what an app passes to a package that reports (packages
 * never print; @convkit/queue's runOnQueue takes this as its report).
 */
export const stderrReport = {
  line(text: string): void {
    process.stderr.write(`${text}\n`);
  },
  progress: (label: string, unit: string): Progress => startProgress(label, unit),
};

/** Starts a progress line: count, rate and (with a total) percent and ETA. */
export function startProgress(
  label: string,
  unit: string,
  total?: number,
  stream: NodeJS.WriteStream = process.stderr,
): Progress {
  if (!stream.isTTY) return { tick() {}, note() {}, done() {} };
  const t0 = performance.now();
  let n = 0;
  let bytes = 0;
  let last = 0;
  let noted = "";
  const draw = () => {
    const s = (performance.now() - t0) / 1000;
    const rate = n / Math.max(s, 1e-3);
    const mbs = bytes > 0 ? ` ${(bytes / 2 ** 20 / Math.max(s, 1e-3)).toFixed(1)} MB/s` : "";
    let line = `${label}: ${n.toLocaleString("en-US")} ${unit} ${Math.round(rate).toLocaleString("en-US")} ${unit}/s${mbs}`;
    if (total) {
      const pct = Math.min(100, (100 * n) / total);
      const width = 24;
      const fill = Math.round((pct / 100) * width);
      const eta = rate > 0 ? Math.max(0, (total - n) / rate) : 0;
      line = `${label} [${"#".repeat(fill)}${".".repeat(width - fill)}] ${pct.toFixed(1)}% ${n.toLocaleString("en-US")}/${total.toLocaleString("en-US")} ${unit} ${Math.round(rate).toLocaleString("en-US")}/s${mbs} ETA ${eta.toFixed(0)}s`;
    }
    stream.write(`\r${line}${noted ? ` ${noted}` : ""}\u001b[K`);
  };
  return {
    tick(k: number, b = 0) {
      n += k;
      bytes += b;
      const now = performance.now();
      if (now - last > 100) {
        last = now;
        draw();
      }
    },
    note(text: string) {
      noted = text;
    },
    done() {
      draw();
      stream.write("\n");
    },
  };
}
