// SVG charts whose axes cover the data with round ticks, whose labels fit, and whose marks link and explain themselves.
import { at, got } from "../src/shared/checked.js";
import { fmt } from "./dom.js";

const NS = "http://www.w3.org/2000/svg";
type SvgAttrs = Record<string, string | number>;
function s(tag: string, attrs: SvgAttrs = {}, ...children: (Node | string)[]): SVGElement {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.append(c);
  return el;
}
const title = (t: string) => s("title", {}, t);

/** Round ticks (steps of 1, 2 or 5 × 10^k) covering [lo, hi]; the domain is widened to the outer ticks. */
function niceTicks(lo: number, hi: number, count = 5): { lo: number; hi: number; ticks: number[] } {
  if (!(hi > lo)) [lo, hi] = [lo - 0.5, hi + 0.5];
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((x) => x >= raw) ?? 10 * mag;
  const a = Math.floor(lo / step + 1e-9) * step;
  const b = Math.ceil(hi / step - 1e-9) * step;
  const ticks: number[] = [];
  for (let v = a; v <= b + step / 2; v += step) ticks.push(Number(v.toFixed(12)));
  return { lo: a, hi: b, ticks };
}
const tickText = (v: number) => String(Number(v.toPrecision(6)));

/** The drawing's width in px: the page's (a phone's 400 px draws at 1:1, its text stays legible), at most 900. */
let W = 720;
let H = 240;
const fit = (height: number) => {
  W = Math.max(300, Math.min(900, document.documentElement.clientWidth - 32));
  H = height;
};

interface Mark {
  x: number;
  label: string;
}

/** The marks as a legend under the chart (names never drawn over axes or each other). */
function legend(marks: Mark[], colors: string[]): HTMLElement {
  const ul = document.createElement("ul");
  ul.className = "legend";
  marks.forEach((m, i) => {
    const li = document.createElement("li");
    const sw = document.createElement("span");
    sw.className = "swatch";
    sw.style.background = at(colors, i % colors.length);
    li.append(sw, `${m.label}: ${fmt(m.x)}`);
    ul.append(li);
  });
  return ul;
}
const MARK_COLORS = ["#cf222e", "#8250df", "#bf8700", "#1a7f37"];

/** Frame: y ticks and label on the left, x ticks at the bottom, in a viewBox that scales to the width. */
function frame(o: {
  x: { lo: number; hi: number; ticks: number[] };
  y: { lo: number; hi: number; ticks: number[] };
  xLabel: string;
  yLabel: string;
  left?: number;
  bottom?: number;
}) {
  const m = { l: o.left ?? 56, r: 16, t: 12, b: o.bottom ?? 44 };
  const X = (v: number) => m.l + ((v - o.x.lo) / (o.x.hi - o.x.lo)) * (W - m.l - m.r);
  const Y = (v: number) => H - m.b - ((v - o.y.lo) / (o.y.hi - o.y.lo)) * (H - m.t - m.b);
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "plot", role: "img" });
  const g = s("g", { class: "axes" });
  for (const t of o.y.ticks) {
    g.append(s("line", { x1: m.l, x2: W - m.r, y1: Y(t), y2: Y(t), class: t === 0 ? "zero" : "grid" }));
    g.append(s("text", { x: m.l - 6, y: Y(t) + 4, "text-anchor": "end" }, tickText(t)));
  }
  for (const t of o.x.ticks) {
    g.append(s("line", { x1: X(t), x2: X(t), y1: H - m.b, y2: H - m.b + 4, class: "tick" }));
    g.append(s("text", { x: X(t), y: H - m.b + 16, "text-anchor": "middle" }, tickText(t)));
  }
  g.append(
    s("text", { x: (m.l + W - m.r) / 2, y: H - 6, "text-anchor": "middle", class: "label" }, o.xLabel),
  );
  g.append(
    s(
      "text",
      {
        x: 12,
        y: (m.t + H - m.b) / 2,
        transform: `rotate(-90 12 ${(m.t + H - m.b) / 2})`,
        "text-anchor": "middle",
        class: "label",
      },
      o.yLabel,
    ),
  );
  svg.append(g);
  return { svg, X, Y, m };
}

/**
 * The distribution of a metric over candidate questions: a histogram with bins on round edges
 * (whole bars, the axis from the first edge to the last) when there are many values, a strip
 * of dots (each value, hover for it) when there are few. Run picks are vertical lines, named in
 * the legend below.
 */
export function distribution(values: number[], marks: Mark[], o: { x: string }): HTMLElement {
  // A strip is as tall as its highest stack of equal values (no empty band above the dots).
  const few = values.length <= 12;
  const stacks = new Map<string, number>();
  for (const v of values) stacks.set(v.toFixed(3), (stacks.get(v.toFixed(3)) ?? 0) + 1);
  const highest = Math.max(1, ...stacks.values());
  const DOT = 14;
  fit(few ? 12 + 44 + 12 + highest * DOT : 240);
  const all = [...values, ...marks.map((m) => m.x)].filter((v) => Number.isFinite(v));
  const x = niceTicks(Math.min(0, ...all), Math.max(1, ...all));
  const wrap = document.createElement("div");
  wrap.className = "chart";
  wrap.dataset.test = few ? "strip" : "histogram";
  let f: ReturnType<typeof frame>;
  if (few) {
    f = frame({ x, y: { lo: 0, hi: 1, ticks: [] }, xLabel: o.x, yLabel: "", left: 24 });
    const rows = new Map<string, number>();
    for (const v of [...values].sort((a, b) => a - b)) {
      const k = v.toFixed(3);
      const n = rows.get(k) ?? 0;
      rows.set(k, n + 1);
      // Equal values stack upwards so every dot shows.
      f.svg.append(
        s("circle", { cx: f.X(v), cy: H - f.m.b - 10 - n * DOT, r: 6, class: "dot" }, title(fmt(v))),
      );
    }
  } else {
    const step = at(x.ticks, 1) - at(x.ticks, 0);
    const bin = step / 4;
    const bins = Math.round((x.hi - x.lo) / bin);
    const n = new Array<number>(bins).fill(0);
    for (const v of values) {
      const k = Math.min(bins - 1, Math.floor((v - x.lo) / bin + 1e-9));
      // A value with no bin (NaN, -Infinity) is not counted.
      const count = n[k];
      if (count !== undefined) n[k] = count + 1;
    }
    const y = niceTicks(0, Math.max(1, ...n), 4);
    y.ticks = y.ticks.filter((t) => Number.isInteger(t));
    f = frame({ x, y, xLabel: o.x, yLabel: "questions" });
    n.forEach((c, i) => {
      if (c === 0) return;
      const a = x.lo + i * bin;
      f.svg.append(
        s(
          "rect",
          {
            x: f.X(a) + 1,
            width: f.X(a + bin) - f.X(a) - 2,
            y: f.Y(c),
            height: f.Y(0) - f.Y(c),
            class: "bar",
          },
          title(`${fmt(a, 3)}–${fmt(a + bin, 3)}: ${c}`),
        ),
      );
    });
  }
  // Marks at one value (two runs picking alike, or both scored MIN) sit side by side, 4 px apart,
  // instead of one hiding the other; the legend names each with its value.
  const atValue = new Map<number, number[]>();
  marks.forEach((mk, i) => {
    if (Number.isFinite(mk.x)) atValue.set(mk.x, [...(atValue.get(mk.x) ?? []), i]);
  });
  marks.forEach((mk, i) => {
    if (!Number.isFinite(mk.x)) return;
    const same = got(atValue, mk.x);
    const dx = (same.indexOf(i) - (same.length - 1) / 2) * 4;
    f.svg.append(
      s(
        "line",
        {
          x1: f.X(mk.x) + dx,
          x2: f.X(mk.x) + dx,
          "data-test": "pick-mark",
          y1: f.m.t,
          y2: H - f.m.b,
          stroke: at(MARK_COLORS, i % MARK_COLORS.length),
          "stroke-width": 2,
        },
        title(`${mk.label}: ${fmt(mk.x)}`),
      ),
    );
  });
  wrap.append(f.svg);
  if (marks.length) wrap.append(legend(marks, MARK_COLORS));
  return wrap;
}

/** The plots' font size (svg.plot in style.css) and the room one upright label takes across. */
const FONT = 11;
const LINE = Math.ceil(FONT * 1.35) + 3;
const LABEL_GAP = 8;

let measurer: CanvasRenderingContext2D | null | undefined;
/** A label's length in px in the plots' font (an estimate where no canvas is at hand). */
function textWidth(t: string): number {
  if (measurer === undefined) {
    measurer = document.createElement("canvas").getContext("2d");
    if (measurer) measurer.font = `${FONT}px system-ui, sans-serif`;
  }
  return measurer ? measurer.measureText(t).width : t.length * FONT * 0.65;
}

/**
 * Which of n bars, `bw` px apart, are named so upright labels never touch: every k-th, k the
 * fewest bars that make a label's width, always the first and the last (the one before the
 * last is left out when it would be closer than k).
 */
function labelled(n: number, bw: number): Set<number> {
  const k = Math.max(1, Math.ceil(LINE / Math.max(bw, 1e-9)));
  const out = new Set<number>();
  for (let i = 0; i < n; i += k) if (i === 0 || n - 1 - i >= k) out.add(i);
  if (n > 0) out.add(n - 1);
  return out;
}

/**
 * Per-topic differences as bars in order, each a link to its topic (click or Enter), its id on
 * the axis (every k-th when they would overlap) and its values on hover.
 */
export function deltaChart(
  rows: { topic: string; a: number; b: number; delta: number; label?: string }[],
  o: { y: string; a: string; b: string; href: (topic: string) => string; selected?: string },
): HTMLElement {
  fit(280);
  const y = niceTicks(Math.min(0, ...rows.map((r) => r.delta)), Math.max(0, ...rows.map((r) => r.delta)), 4);
  // Topic ids stand upright under their bars: as tall as the longest, one line (LINE) wide each.
  const longest = Math.max(8, ...rows.map((r) => textWidth(r.topic)));
  const f = frame({
    x: { lo: 0, hi: Math.max(1, rows.length), ticks: [] },
    y,
    xLabel: "",
    yLabel: o.y,
    bottom: LABEL_GAP + Math.ceil(longest) + 6,
  });
  const bw = (W - f.m.l - f.m.r) / Math.max(1, rows.length);
  const named = labelled(rows.length, bw);
  rows.forEach((r, i) => {
    const x0 = f.X(i);
    const top = f.Y(Math.max(0, r.delta));
    const height = Math.max(1, Math.abs(f.Y(r.delta) - f.Y(0)));
    const a = s("a", {
      href: o.href(r.topic),
      class: "bar-link",
      "data-topic": r.topic,
      "aria-label": `${r.topic}: ${fmt(r.delta)}`,
    });
    a.append(
      s("rect", { x: x0, width: bw, y: f.m.t, height: H - f.m.t - f.m.b, class: "hit" }),
      s("rect", {
        x: x0 + bw * 0.1,
        width: Math.max(1, bw * 0.8),
        y: top,
        height,
        class: `${r.delta >= 0 ? "bar up" : "bar down"}${r.topic === o.selected ? " sel" : ""}`,
      }),
      title(
        `${r.topic}${r.label ? ` (${r.label})` : ""}\n${o.b}: ${fmt(r.b)} · ${o.a}: ${fmt(r.a)} · Δ ${fmt(r.delta)}`,
      ),
    );
    f.svg.append(a);
    if (named.has(i)) {
      // Rotated about its end, the id reads upwards and ends LABEL_GAP under the axis, centred on its bar.
      const lx = x0 + bw / 2 + FONT * 0.35;
      const ly = H - f.m.b + LABEL_GAP;
      f.svg.append(
        s(
          "text",
          { x: lx, y: ly, transform: `rotate(-90 ${lx} ${ly})`, "text-anchor": "end", class: "xlab" },
          r.topic,
        ),
      );
    }
  });
  const wrap = document.createElement("div");
  wrap.className = "chart";
  wrap.dataset.test = "delta-chart";
  wrap.append(f.svg);
  return wrap;
}
