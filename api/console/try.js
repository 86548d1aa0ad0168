// Try a record: the what-if (Explain) of a record typed in, decided as an
// upsert would decide it now, with nothing written. It shows the decision,
// the identifiers as normalized and the ones rejected, the blocking keys
// (generic ones marked) and a waterfall per candidate person.

import { call } from "./api.js";
import { verdict } from "./decision.js";
import { h, id, list, personLink, plain, replace, table } from "./dom.js";
import { typeList } from "./search.js";
import { waterfall } from "./waterfall.js";

let rows = 0; // ids for the labels of each identifier row

function identifierRow(type = "email", value = "") {
  const n = ++rows;
  const row = h(
    "div",
    { class: "identifier-row" },
    h("div", { class: "field" }, h("label", { for: `try-type-${n}` }, "Type"), h("input", { id: `try-type-${n}`, name: "type", list: "identifier-types", value: type, autocomplete: "off" })),
    h("div", { class: "field wide" }, h("label", { for: `try-value-${n}` }, "Value"), h("input", { id: `try-value-${n}`, name: "value", value, autocomplete: "off" })),
  );
  row.append(h("button", { type: "button", class: "remove", "aria-label": `remove identifier ${n}`, onclick: () => row.remove() }, "Remove"));
  return row;
}

function decisionText(e) {
  if (e.error) return `The record would be refused: ${e.error}`;
  const merged = list(e.mergedPersonIds).map(id);
  switch (e.decision) {
    case "create":
      return "Decision: create a new person.";
    case "update":
      return `Decision: update person ${id(e.personId)}.`;
    case "merge":
      return `Decision: merge ${merged.map((m) => `person ${m}`).join(", ")} into person ${id(e.personId)}.`;
    default:
      return `Decision: ${e.decision || "none"}.`;
  }
}

function explanationView(e) {
  const candidates = list(e.candidates);
  const marks = { threshold: Number(e.threshold ?? 0), reviewThreshold: Number(e.reviewThreshold ?? 0) };
  const keys = list(e.keys).map((k) => [k.rule, k.value, k.generic ? h("strong", { class: "generic" }, "generic: brings no candidates") : ""]);
  return [
    h("p", { class: "decision", id: "try-decision" }, decisionText(e)),
    e.note ? h("p", { class: "note" }, e.note) : null,
    h("p", { class: "muted" }, `Threshold ${plain(marks.threshold)}, review threshold ${plain(marks.reviewThreshold)}.`),
    table("The identifiers as normalized", ["type", "value"], list(e.normalized).map((i) => [i.type, i.value]), { id: "try-normalized" }),
    list(e.rejected).length ? table("Rejected identifiers", ["type", "value", "why"], list(e.rejected).map((r) => [r.type, r.value, r.reason]), { id: "try-rejected" }) : null,
    list(e.generic).length ? table("Too common to count (generic)", ["type", "value"], list(e.generic).map((i) => [i.type, i.value]), { id: "try-generic" }) : null,
    table("The keys the record is found through and locks", ["rule", "value", "note"], keys, { id: "try-keys" }),
    h("h3", {}, `${candidates.length} candidate${candidates.length === 1 ? "" : "s"}`),
    candidates.length === 0
      ? h("p", { class: "empty" }, "No stored person was a candidate.")
      : candidates.map((c) =>
          h(
            "section",
            { class: "candidate", "data-person": id(c.personId) },
            h("h4", {}, personLink(id(c.personId)), `: total ${plain(c.total)} \u2014 ${verdict(c)}`),
            waterfall(c, { ...marks, name: `person ${id(c.personId)} against this record` }),
          ),
        ),
  ];
}

function recordOf(form) {
  const identifiers = [...form.querySelectorAll(".identifier-row")]
    .map((row) => ({ type: row.querySelector("[name=type]").value.trim(), value: row.querySelector("[name=value]").value }))
    .filter((i) => i.type && i.value);
  const field = (name) => form.querySelector(`[name=${name}]`).value.trim();
  return { identifiers, source: field("source"), recordId: field("recordId"), defaultRegion: field("region").toUpperCase() };
}

export async function tryPage(ctx) {
  const identifiers = h("div", { id: "try-identifiers" }, identifierRow());
  const out = h("section", { id: "explanation", "aria-labelledby": "explanation-heading", "aria-live": "polite", "aria-busy": "false" });
  const form = h(
    "form",
    {
      id: "try-form",
      onsubmit: async (event) => {
        event.preventDefault();
        out.setAttribute("aria-busy", "true");
        try {
          const { explanation } = await call("Explain", { record: recordOf(form) });
          replace(out, h("h2", { id: "explanation-heading" }, "What an upsert would do now"), explanationView(explanation ?? {}));
        } catch (e) {
          replace(out, h("h2", { id: "explanation-heading" }, "What an upsert would do now"), h("p", { class: "error" }, e.message));
          ctx.fail("Explain", e);
        }
        out.setAttribute("aria-busy", "false");
      },
    },
    h("fieldset", {}, h("legend", {}, "Identifiers"), identifiers, h("button", { type: "button", onclick: () => identifiers.append(identifierRow("", "")) }, "Add an identifier")),
    h(
      "div",
      { class: "row" },
      h("div", { class: "field" }, h("label", { for: "try-source" }, "Source"), h("input", { id: "try-source", name: "source", autocomplete: "off" })),
      h("div", { class: "field" }, h("label", { for: "try-record" }, "Record id"), h("input", { id: "try-record", name: "recordId", autocomplete: "off" })),
      h("div", { class: "field" }, h("label", { for: "try-region" }, "Region (phones)"), h("input", { id: "try-region", name: "region", maxlength: 2, size: 3, autocomplete: "off" })),
    ),
    h("button", { type: "submit" }, "Explain"),
  );
  return [
    h("h1", { tabindex: -1 }, "Try a record"),
    h("p", {}, "A what-if: the record is decided exactly as an upsert would decide it now, and nothing is written."),
    typeList(),
    form,
    out,
  ];
}
