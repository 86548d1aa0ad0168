// The match-weights chart (Splink's, as `idres train --chart` draws it):
// per comparison a heading, then a bar per level from zero, its weight in
// log2 odds: green to the right for, red to the left against. A diamond
// marks the built-in model's weight of the level, so what a trained model
// moved shows at a glance. A table beside it says the same in text.

import { h, list, signed, svg } from "./dom.js";
import { tickStep } from "./waterfall.js";

const WIDTH = 780;
const CHART_LEFT = 220; // the level labels stand left of it
const CHART_RIGHT = 640; // the weight labels right of the bars
const TOP = 12;
const HEADING = 26;
const ROW = 20;
const BAR = 14;

// The comparisons with a y for each heading and level.
function layout(comparisons) {
  let y = TOP;
  return comparisons.map((c) => {
    const headingY = y;
    y += HEADING;
    const levels = list(c.levels).map((l) => {
      const row = { ...l, weight: Number(l.weight ?? 0), y };
      y += ROW;
      return row;
    });
    return { ...c, headingY, levels, bottom: y };
  });
}

function builtIn(level) {
  return typeof level.builtInWeight === "number" ? level.builtInWeight : null;
}

function levelText(type, l) {
  const reference = builtIn(l);
  return `${type} \u00b7 ${l.name}: ${signed(l.weight)}` + (reference === null ? "" : ` (built-in ${signed(reference)})`);
}

function chart(comparisons) {
  const rows = layout(comparisons);
  const values = [0, ...rows.flatMap((c) => c.levels.flatMap((l) => [l.weight, builtIn(l) ?? 0]))];
  const pad = Math.max((Math.max(...values) - Math.min(...values)) * 0.04, 0.5);
  const lo = Math.min(...values) - pad;
  const hi = Math.max(...values) + pad;
  const x = (v) => CHART_LEFT + ((v - lo) / (hi - lo)) * (CHART_RIGHT - CHART_LEFT);
  const axisY = (rows.at(-1)?.bottom ?? TOP) + 4;
  const height = axisY + 30;

  const step = tickStep(hi - lo);
  const ticks = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi; t += step) {
    ticks.push(
      svg("line", { class: Math.abs(t) < step / 1e6 ? "zero" : "grid", x1: x(t), x2: x(t), y1: TOP, y2: axisY }),
      svg("text", { class: "tick", x: x(t), y: axisY + 16, "text-anchor": "middle" }, signed(t)),
    );
  }

  const groups = rows.map((c) =>
    svg(
      "g",
      { class: "comparison", "data-type": c.type ?? "" },
      svg("text", { class: "heading", x: 8, y: c.headingY + HEADING - 8 }, c.type ?? "?"),
      c.levels.map((l) => {
        const y = l.y + (ROW - BAR) / 2;
        const reference = builtIn(l);
        const d = BAR / 2;
        return svg(
          "g",
          { class: "row" },
          svg("text", { class: "label", x: CHART_LEFT - 8, y: y + BAR - 3, "text-anchor": "end" }, l.name ?? "?"),
          svg(
            "rect",
            {
              class: `bar ${l.weight < 0 ? "negative" : "positive"}`,
              x: x(Math.min(0, l.weight)),
              y,
              width: Math.max(Math.abs(x(l.weight) - x(0)), 1),
              height: BAR,
              "data-type": c.type ?? "",
              "data-level": l.name ?? "",
              "data-weight": l.weight,
            },
            svg("title", {}, levelText(c.type, l)),
          ),
          reference !== null &&
            svg("path", {
              class: "built-in",
              d: `M ${x(reference)} ${y - 1} l ${d} ${d + 1} l ${-d} ${d + 1} l ${-d} ${-d - 1} z`,
              "data-weight": reference,
            }),
          svg("text", { class: "value", x: x(Math.max(0, l.weight)) + 4, y: y + BAR - 3 }, signed(l.weight)),
        );
      }),
    ),
  );

  const levels = rows.reduce((n, c) => n + c.levels.length, 0);
  return svg(
    "svg",
    {
      class: "weights",
      viewBox: `0 0 ${WIDTH} ${height}`,
      width: WIDTH,
      height,
      role: "img",
      "aria-labelledby": "weights-title weights-desc",
    },
    svg("title", { id: "weights-title" }, "Match weights of the model"),
    svg(
      "desc",
      { id: "weights-desc" },
      `${rows.length} comparisons, ${levels} levels, each a bar of its weight in log2 odds; ` +
        "the table after the chart lists each level.",
    ),
    ticks,
    svg("line", { class: "axis", x1: CHART_LEFT, x2: CHART_RIGHT, y1: axisY, y2: axisY }),
    groups,
  );
}

function numbers(comparisons) {
  const headings = ["comparison", "level", "m", "u", "weight", "built-in weight"];
  return h(
    "table",
    { class: "numbers", id: "model-levels" },
    h("caption", {}, "Every level of every comparison, in the chart's order"),
    h("thead", {}, h("tr", {}, headings.map((t) => h("th", { scope: "col" }, t)))),
    h(
      "tbody",
      {},
      comparisons.flatMap((c) =>
        list(c.levels).map((l) =>
          h(
            "tr",
            {},
            h("th", { scope: "row" }, c.type ?? ""),
            h("td", {}, l.name ?? ""),
            h("td", { class: "num" }, Number(l.m ?? 0).toPrecision(4)),
            h("td", { class: "num" }, Number(l.u ?? 0).toPrecision(4)),
            h("td", { class: "num" }, signed(l.weight)),
            h("td", { class: "num" }, builtIn(l) === null ? "" : signed(builtIn(l))),
          ),
        ),
      ),
    ),
  );
}

// A figure holding the chart of `comparisons` (GetModel's) and its table.
export function matchWeights(comparisons) {
  return h(
    "figure",
    { class: "weights-figure" },
    h("div", { class: "chart" }, chart(comparisons)),
    h(
      "figcaption",
      {},
      "Each bar is a level's weight, log2(m/u): green to the right counts for a match, red to the left ",
      "against it. The diamond is the built-in model's weight of the level.",
    ),
    numbers(comparisons),
  );
}
