// The waterfall of one score (Splink's chart, drawn sideways): one bar per
// comparison, each starting where the running total stood, green when it
// adds weight and red when it takes it away; a comparison that does not
// count (its group counted a better one) is drawn grey from the running
// total and moves nothing. The last bar is the total, and dashed lines mark
// the threshold and the review threshold. A table beside it says the same
// in text.

import { h, list, plain, signed, svg } from "./dom.js";

const WIDTH = 780;
const CHART_LEFT = 200; // the comparison labels stand left of it
const CHART_RIGHT = 580; // the weight labels right of the bars
const TOP = 40; // the threshold labels stand above the rows
const ROW = 30;
const BAR = 18;

let charts = 0; // ids for the aria references of each chart

// A step of 1, 2 or 5 times a power of ten giving about six ticks.
export function tickStep(span) {
  const rough = span / 6;
  const power = 10 ** Math.floor(Math.log10(rough));
  for (const factor of [1, 2, 5]) {
    if (factor * power >= rough) return factor * power;
  }
  return 10 * power;
}

// Each comparison with the running total before and after it.
function steps(comparisons) {
  let running = 0;
  return comparisons.map((c) => {
    const weight = Number(c.weight ?? 0);
    const counted = c.counted === true;
    const from = running;
    if (counted) running += weight;
    return { ...c, weight, counted, from, to: from + weight, after: running };
  });
}

function label(c) {
  return `${c.type ?? "?"} \u00b7 ${c.level ?? "?"}`;
}

function weightText(c) {
  const tf = Number(c.tfAdjustment ?? 0);
  const tfText = Math.abs(tf) > 0.004 ? ` (tf ${signed(tf)})` : "";
  return `${signed(c.weight)}${tfText}${c.counted ? "" : " not counted"}`;
}

function chart({ comparisons, total, threshold, reviewThreshold, name }) {
  const rows = steps(comparisons);
  const marks = [threshold, reviewThreshold].filter((v) => typeof v === "number");
  const values = [0, total, ...marks, ...rows.flatMap((r) => [r.from, r.to])];
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  const pad = Math.max((hi - lo) * 0.05, 0.5);
  lo -= pad;
  hi += pad;
  const x = (v) => CHART_LEFT + ((v - lo) / (hi - lo)) * (CHART_RIGHT - CHART_LEFT);
  const rowY = (i) => TOP + i * ROW;
  const axisY = rowY(rows.length + 1) + 4;
  const height = axisY + 30;
  const number = ++charts;
  const titleId = `waterfall-${number}-title`;
  const descId = `waterfall-${number}-desc`;

  const step = tickStep(hi - lo);
  const ticks = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi; t += step) {
    const at = x(t);
    ticks.push(
      svg("line", { class: t === 0 ? "zero" : "grid", x1: at, x2: at, y1: TOP - 6, y2: axisY }),
      svg("text", { class: "tick", x: at, y: axisY + 16, "text-anchor": "middle" }, plain(t)),
    );
  }

  const bars = rows.map((r, i) => {
    const y = rowY(i) + (ROW - BAR) / 2;
    const left = x(Math.min(r.from, r.to));
    const width = Math.max(Math.abs(x(r.to) - x(r.from)), 1);
    const kind = !r.counted ? "uncounted" : r.weight < 0 ? "negative" : "positive";
    return svg(
      "g",
      { class: "row" },
      svg("text", { class: "label", x: CHART_LEFT - 8, y: y + BAR - 5, "text-anchor": "end" }, label(r)),
      svg(
        "rect",
        {
          class: `bar ${kind}`,
          x: left,
          y,
          width,
          height: BAR,
          "data-type": r.type ?? "",
          "data-level": r.level ?? "",
          "data-weight": r.weight,
          "data-counted": r.counted,
        },
        svg("title", {}, `${label(r)}: ${weightText(r)}`),
      ),
      svg("text", { class: "value", x: x(Math.max(r.from, r.to)) + 4, y: y + BAR - 5 }, weightText(r)),
      // The running total carried down to the next bar.
      svg("line", { class: "carry", x1: x(r.after), x2: x(r.after), y1: y, y2: rowY(i + 1) + (ROW - BAR) / 2 }),
    );
  });

  const totalY = rowY(rows.length) + (ROW - BAR) / 2;
  const totalBar = svg(
    "g",
    { class: "row" },
    svg("text", { class: "label total-label", x: CHART_LEFT - 8, y: totalY + BAR - 5, "text-anchor": "end" }, "total"),
    svg("rect", {
      class: "total",
      x: x(Math.min(0, total)),
      y: totalY,
      width: Math.max(Math.abs(x(total) - x(0)), 1),
      height: BAR,
      "data-total": total,
    }),
    svg("text", { class: "value total-value", x: x(Math.max(0, total)) + 4, y: totalY + BAR - 5 }, plain(total)),
  );

  const lines = [];
  const mark = (value, cls, text, y) => {
    if (typeof value !== "number") return;
    lines.push(
      svg("line", { class: cls, x1: x(value), x2: x(value), y1: y + 4, y2: axisY, "data-value": value }),
      svg("text", { class: `${cls}-label`, x: x(value), y, "text-anchor": "middle" }, `${text} ${plain(value)}`),
    );
  };
  mark(threshold, "threshold", "threshold", 14);
  mark(reviewThreshold, "review", "review", 30);

  const summary =
    `${rows.length} comparisons for ${name}; total ${plain(total)}` +
    (typeof threshold === "number" ? `, threshold ${plain(threshold)}` : "") +
    (typeof reviewThreshold === "number" ? `, review threshold ${plain(reviewThreshold)}` : "");
  return svg(
    "svg",
    {
      class: "waterfall",
      viewBox: `0 0 ${WIDTH} ${height}`,
      width: WIDTH,
      height,
      role: "img",
      "aria-labelledby": `${titleId} ${descId}`,
    },
    svg("title", { id: titleId }, `Waterfall of the score of ${name}`),
    svg("desc", { id: descId }, `${summary}. The table after the chart lists each comparison.`),
    ticks,
    svg("line", { class: "axis", x1: CHART_LEFT, x2: CHART_RIGHT, y1: axisY, y2: axisY }),
    bars,
    totalBar,
    lines,
  );
}

function numbers({ comparisons, total, name }) {
  const rows = steps(comparisons);
  const withValues = rows.some((r) => r.recordValue || r.personValue);
  const headings = ["comparison", "level", "weight", "tf adjustment", "counted", "running total"];
  if (withValues) headings.push("record's value", "person's value");
  return h(
    "table",
    { class: "numbers" },
    h("caption", {}, `The comparisons of ${name}, in the chart's order`),
    h("thead", {}, h("tr", {}, headings.map((t) => h("th", { scope: "col" }, t)))),
    h(
      "tbody",
      {},
      rows.map((r) =>
        h(
          "tr",
          { class: r.counted ? "counted" : "uncounted" },
          h("th", { scope: "row" }, r.type ?? ""),
          h("td", {}, r.level ?? ""),
          h("td", { class: "num" }, signed(r.weight)),
          h("td", { class: "num" }, signed(r.tfAdjustment)),
          h("td", {}, r.counted ? "yes" : "no"),
          h("td", { class: "num" }, plain(r.after)),
          withValues && h("td", {}, r.recordValue ?? ""),
          withValues && h("td", {}, r.personValue ?? ""),
        ),
      ),
    ),
    h(
      "tfoot",
      {},
      h("tr", {}, h("th", { scope: "row" }, "total"), h("td", { colspan: headings.length - 1 }, plain(total))),
    ),
  );
}

// A figure holding the chart of `score` (a CandidateDetail) and its table.
// `threshold` and `reviewThreshold` are drawn when they are numbers.
export function waterfall(score, { threshold, reviewThreshold, name } = {}) {
  const input = {
    comparisons: list(score?.comparisons),
    total: Number(score?.total ?? 0),
    threshold,
    reviewThreshold,
    name: name ?? `person ${score?.personId ?? "?"}`,
  };
  return h(
    "figure",
    { class: "waterfall-figure" },
    h("div", { class: "chart" }, chart(input)),
    h(
      "figcaption",
      {},
      "Each bar is one comparison, in log2 odds: green adds weight, red takes it away, grey dashed ",
      "does not count (its group counted a better one). The blue bar is the total; the dashed line ",
      "is the threshold, the dotted one the review threshold.",
    ),
    numbers(input),
  );
}
