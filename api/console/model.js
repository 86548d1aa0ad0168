// The model the server decides with (GetModel): its thresholds, the
// match-weights chart of its comparisons and levels, what each comparison
// is, and the blocking rules that find candidates. A model fitted by
// `idres train` and served with `idres serve --model` shows here beside the
// built-in one.

import { call } from "./api.js";
import { h, list, plain, section, table } from "./dom.js";
import { matchWeights } from "./weights.js";

// The levels whose weight is not the built-in model's (to two decimals).
function moved(comparisons) {
  return comparisons
    .flatMap((c) => list(c.levels))
    .filter((l) => typeof l.builtInWeight !== "number" || plain(l.weight) !== plain(l.builtInWeight)).length;
}

function summary(model, comparisons) {
  const changed = moved(comparisons);
  return h(
    "p",
    { id: "model-summary" },
    `${comparisons.length} comparisons, ${list(model.blockingRules).length} blocking rules. `,
    `A record joins a person from a total weight of ${plain(model.threshold)}; `,
    `from ${plain(model.reviewThreshold)} it is a possible match for review. `,
    changed === 0
      ? "Every level weighs what the built-in model says."
      : `${changed} ${changed === 1 ? "level weighs" : "levels weigh"} other than in the built-in model.`,
  );
}

function yes(flag) {
  return flag === true ? "yes" : "";
}

export async function modelPage() {
  const model = await call("GetModel", {});
  const comparisons = list(model.comparisons);
  return [
    h("h1", { tabindex: -1 }, "The model this server runs"),
    summary(model, comparisons),
    section("weights", "Match weights", matchWeights(comparisons)),
    section(
      "comparisons",
      "Comparisons",
      table(
        "What each identifier type is compared by; a group counts once (its best weight for, its worst against); a value held by more persons than the cap is generic",
        ["type", "comparison", "group", "strong", "exclusive", "generic cap", "entity"],
        comparisons.map((c) => [
          c.type ?? "",
          c.comparison ?? "",
          c.group ?? "",
          yes(c.strong),
          yes(c.exclusive),
          String(c.genericCap ?? "0"),
          c.entity ?? "",
        ]),
        { id: "model-comparisons" },
      ),
    ),
    section(
      "blocking",
      "Blocking rules",
      table(
        `The keys a record's candidates are found and locked by; a key held by more than ${model.keyCap ?? "?"} persons brings none`,
        ["rule", "parts"],
        list(model.blockingRules).map((r) => [r.name ?? "", list(r.parts).join(" + ")]),
        { id: "model-blocking" },
      ),
    ),
  ];
}
