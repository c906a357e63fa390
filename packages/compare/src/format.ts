// A comparison as people read it: a terminal table, Markdown, LaTeX as papers print it, JSON and CSV.
import type { Comparison, PairResult, TestName } from "./compare.js";

export const COMPARISON_FORMATS = ["table", "markdown", "latex", "json", "csv"] as const;
export type Format = (typeof COMPARISON_FORMATS)[number];

const TEST_NAMES: Record<TestName, string> = {
  t: "paired t-test",
  wilcoxon: "Wilcoxon signed-rank test",
  sign: "sign test",
  randomization: "paired randomization test",
};

const CORRECTION_NAMES: Record<string, string> = {
  none: "no correction",
  bonferroni: "Bonferroni correction",
  holm: "Holm correction",
  sidak: "Šidák correction",
  "holm-sidak": "Holm–Šidák correction",
  fdr_bh: "Benjamini–Hochberg FDR control",
  fdr_by: "Benjamini–Yekutieli FDR control",
};

/** The runs' letters in tables: a, b, …, z, aa, …. */
function letter(i: number): string {
  let s = "";
  let k = i + 1;
  while (k > 0) {
    s = String.fromCharCode(97 + ((k - 1) % 26)) + s;
    k = Math.floor((k - 1) / 26);
  }
  return s;
}

const fixed = (x: number, d = 4) => (Number.isNaN(x) ? "—" : x.toFixed(d));
const pText = (p: number) => (Number.isNaN(p) ? "—" : p >= 0.001 ? p.toFixed(4) : p.toExponential(1));
const signed = (x: number) => (Number.isNaN(x) ? "—" : `${x >= 0 ? "+" : ""}${x.toFixed(4)}`);

/** What the comparison states in a sentence: test, sidedness, correction, alpha, topics. */
export function describeComparison(c: Comparison): string {
  const sided = c.alternative === "two-sided" ? "two-sided" : `one-sided (${c.alternative})`;
  const draws =
    c.test === "randomization"
      ? `, ${c.permutations!.toLocaleString("en-US")} sign patterns drawn with seed ${c.seed} (all of them up to 20 topics)`
      : "";
  const topics =
    c.missing === "drop"
      ? "topics every run has"
      : "every topic of any run, a missing one counting 0 (trec_eval -c for qrels)";
  return `${TEST_NAMES[c.test]}, ${sided}${draws}; ${CORRECTION_NAMES[c.correction]} per measure; alpha ${c.alpha}; ${topics}`;
}

/** For each measure and run, the letters of the runs it beats significantly. */
function beats(c: Comparison): Map<string, string[][]> {
  const out = new Map<string, string[][]>();
  for (const m of c.measures)
    out.set(
      m.name,
      c.runs.map(() => []),
    );
  for (const p of c.pairs) {
    if (!p.reject) continue;
    const [winner, loser] = p.mean_diff > 0 ? [p.a, p.b] : p.mean_diff < 0 ? [p.b, p.a] : [];
    if (winner === undefined || loser === undefined) continue;
    const row = out.get(p.measure)?.[c.runs.indexOf(winner)];
    if (row === undefined) throw new Error(`${winner} on ${p.measure}: not a compared run and measure`);
    row.push(letter(c.runs.indexOf(loser)));
  }
  for (const rows of out.values()) for (const r of rows) r.sort();
  return out;
}

/** Run i's cell per measure: its mean, the letters of the runs it beats significantly, whether it is best. */
function runCells(
  c: Comparison,
  marks: Map<string, string[][]>,
  top: Map<string, Set<number>>,
  i: number,
): { mean: string; beat: string[]; best: boolean }[] {
  return c.measures.map((m) => {
    const mean = m.means[i];
    const beat = marks.get(m.name)?.[i];
    const tops = top.get(m.name);
    if (mean === undefined || beat === undefined || tops === undefined)
      throw new Error(`run ${i} has no mean of ${m.name}`);
    return { mean: fixed(mean), beat, best: tops.has(i) };
  });
}

/** Per measure, the indexes of the runs with the best mean (ties all best). */
function best(c: Comparison): Map<string, Set<number>> {
  return new Map(
    c.measures.map((m) => {
      const top = Math.max(...m.means.filter((x) => !Number.isNaN(x)));
      return [m.name, new Set(m.means.flatMap((x, i) => (x === top ? [i] : [])))];
    }),
  );
}

function padTable(rows: string[][]): string {
  const widths = (rows[0] ?? []).map((_, j) => Math.max(...rows.map((r) => [...(r[j] ?? "")].length)));
  // Every row has the header's columns: a cell past them would not be padded.
  return rows
    .map((r) =>
      r.map((cell, j) => (j === 0 ? cell.padEnd(widths[j] ?? 0) : cell.padStart(widths[j] ?? 0))).join("  "),
    )
    .map((l) => l.trimEnd())
    .join("\n");
}

function tableText(c: Comparison): string {
  const marks = beats(c);
  const top = best(c);
  let s = `${describeComparison(c)}\n`;
  s += `Runs: ${c.runs.map((r, i) => `(${letter(i)}) ${r}`).join("  ")}\n\n`;
  const means = [["run", ...c.measures.map((m) => `${m.name} (${m.topics})`)]];
  c.runs.forEach((r, i) => {
    means.push([
      `(${letter(i)}) ${r}`,
      ...runCells(c, marks, top, i).map(
        ({ mean, beat }) => `${mean}${beat.length > 0 ? ` >${beat.join("")}` : ""}`,
      ),
    ]);
  });
  s += `${padTable(means)}\n\n`;
  const rows = [["measure", "a", "b", "mean a", "mean b", "Δ (a-b)", "W/T/L", "p", "p adj", "sig"]];
  for (const p of c.pairs)
    rows.push([
      p.measure,
      p.a,
      p.b,
      fixed(p.mean_a),
      fixed(p.mean_b),
      signed(p.mean_diff),
      `${p.wins}/${p.ties}/${p.losses}`,
      pText(p.p),
      pText(p.p_adjusted),
      p.reject ? "*" : "",
    ]);
  s += `${padTable(rows)}\n`;
  s += `* significant at alpha ${c.alpha} after the correction; ">x" after a mean: significantly above run x.\n`;
  return s;
}

function markdown(c: Comparison): string {
  const marks = beats(c);
  const top = best(c);
  let s = `| run | ${c.measures.map((m) => m.name).join(" | ")} |\n|---|${c.measures.map(() => "---:").join("|")}|\n`;
  c.runs.forEach((r, i) => {
    const cells = runCells(c, marks, top, i).map(({ mean: v, beat, best }) => {
      const cell = best ? `**${v}**` : v;
      return beat.length > 0 ? `${cell}<sup>${beat.join("")}</sup>` : cell;
    });
    s += `| (${letter(i)}) ${r.replaceAll("|", "\\|")} | ${cells.join(" | ")} |\n`;
  });
  s += `\nMeans over ${topicsPhrase(c)}. Superscript letters: significantly better than that run (${describeComparison(c)}). Best in bold.\n`;
  return s;
}

function topicsPhrase(c: Comparison): string {
  const counts = [...new Set(c.measures.map((m) => m.topics))];
  return counts.length === 1 ? `${counts[0]} topics` : `${counts.join("/")} topics (per measure)`;
}

const latexEscape = (s: string) =>
  s.replace(/[\\{}$&#%_^~]/g, (ch) =>
    ch === "\\" ? "\\textbackslash{}" : ch === "^" ? "\\^{}" : ch === "~" ? "\\~{}" : `\\${ch}`,
  );

function latex(c: Comparison): string {
  const marks = beats(c);
  const top = best(c);
  const lines = [
    "\\begin{table}[t]",
    "\\centering",
    `\\caption{Mean effectiveness over ${topicsPhrase(c)}. Superscript letters mark a significant improvement over the run with that letter (${latexEscape(describeComparison(c)).replace("alpha", "$\\alpha$ =")}). Best value per measure in bold.}`,
    "\\label{tab:runs}",
    `\\begin{tabular}{l${"r".repeat(c.measures.length)}}`,
    "\\toprule",
    `Run & ${c.measures.map((m) => latexEscape(m.name)).join(" & ")} \\\\`,
    "\\midrule",
  ];
  c.runs.forEach((r, i) => {
    const cells = runCells(c, marks, top, i).map(({ mean: v, beat, best }) => {
      const cell = best ? `\\textbf{${v}}` : v;
      return beat.length > 0 ? `${cell}$^{${beat.join("")}}$` : cell;
    });
    lines.push(`(${letter(i)}) ${latexEscape(r)} & ${cells.join(" & ")} \\\\`);
  });
  lines.push("\\bottomrule", "\\end{tabular}", "\\end{table}");
  return `${lines.join("\n")}\n`;
}

/**
 * JSON has no NaN or infinities. ±inf is written as the strings "inf" / "-inf" (as the SciPy goldens
 * hold them; Python's `float()` and pandas' `to_numeric` read them back), so that t keeps its sign
 * where SciPy's is infinite (constant non-zero differences); NaN (no value) is written as null.
 */
const num = (x: number): number | string | null =>
  Number.isFinite(x)
    ? x
    : x === Number.POSITIVE_INFINITY
      ? "inf"
      : x === Number.NEGATIVE_INFINITY
        ? "-inf"
        : null;

function jsonPair(p: PairResult): Record<string, unknown> {
  return {
    measure: p.measure,
    a: p.a,
    b: p.b,
    n: p.n,
    mean_a: num(p.mean_a),
    mean_b: num(p.mean_b),
    mean_diff: num(p.mean_diff),
    t: num(p.t),
    statistic: num(p.statistic),
    p: num(p.p),
    p_adjusted: num(p.p_adjusted),
    reject: p.reject,
    cohen_dz: num(p.cohen_dz),
    ci95: p.ci95.map(num),
    wins: p.wins,
    ties: p.ties,
    losses: p.losses,
  };
}

function json(c: Comparison): string {
  const head = { ...c, measures: c.measures.map((m) => ({ ...m, means: m.means.map(num) })) };
  return `${JSON.stringify({ ...head, pairs: c.pairs.map(jsonPair) }, null, 1)}\n`;
}

const CSV_FIELDS = [
  "measure",
  "a",
  "b",
  "n",
  "mean_a",
  "mean_b",
  "mean_diff",
  "t",
  "statistic",
  "p",
  "p_adjusted",
  "reject",
  "cohen_dz",
  "ci95_low",
  "ci95_high",
  "wins",
  "ties",
  "losses",
] as const;

const csvCell = (v: unknown) => {
  const s = typeof v === "number" ? (Number.isNaN(v) ? "" : String(v)) : String(v);
  return /[",\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
};

/** The pairs as flat rows: CSV's columns (the interval as ci95_low, ci95_high), numbers as computed. */
export function pairRows(c: Comparison): Record<(typeof CSV_FIELDS)[number], unknown>[] {
  return c.pairs.map((p) => {
    const row: Record<string, unknown> = { ...p, ci95_low: p.ci95[0], ci95_high: p.ci95[1] };
    return Object.fromEntries(CSV_FIELDS.map((f) => [f, row[f]])) as Record<
      (typeof CSV_FIELDS)[number],
      unknown
    >;
  });
}

function csv(c: Comparison): string {
  let s = `${CSV_FIELDS.join(",")}\n`;
  for (const row of pairRows(c)) s += `${CSV_FIELDS.map((f) => csvCell(row[f])).join(",")}\n`;
  return s;
}

/** The comparison in the format asked for. */
export function formatComparison(c: Comparison, format: Format): string {
  switch (format) {
    case "table":
      return tableText(c);
    case "markdown":
      return markdown(c);
    case "latex":
      return latex(c);
    case "json":
      return json(c);
    case "csv":
      return csv(c);
  }
}
