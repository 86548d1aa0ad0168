// What may be the same person: the open possible matches of this person
// (ListPossibleMatches), each with its waterfall and the two judgements, and
// a form to judge or compare it with any other person id.

import { call } from "./api.js";
import { judge, judgeButtons } from "./actions.js";
import { empty, h, id, list, personLink, plain, section, time } from "./dom.js";

// The open possible matches of `personId`, or the reason there are none to
// show (a server without the method).
export async function loadMatches(personId) {
  const reply = await call("ListPossibleMatches", { personId: String(personId), limit: 100 });
  return list(reply.matches);
}

export function matchesSection(personId, matches, ctx) {
  const body = (() => {
    if (matches instanceof Error) return h("p", { class: "error" }, `Possible matches: ${matches.message}.`);
    if (matches.length === 0) return empty("No open possible matches.");
    return h(
      "table",
      {},
      h("caption", {}, "Persons a record scored in the review band for, best score first"),
      h("thead", {}, h("tr", {}, ["person", "score", "found", "why", "judge"].map((t) => h("th", { scope: "col" }, t)))),
      h(
        "tbody",
        {},
        matches.map((m) => {
          const other = id(m.personA) === String(personId) ? id(m.personB) : id(m.personA);
          return h(
            "tr",
            { "data-other": other },
            h("th", { scope: "row" }, personLink(other)),
            h("td", { class: "num" }, plain(m.score)),
            h("td", {}, time(m.foundAt)),
            h("td", {}, h("a", { href: `#/pair/${personId}/${other}` }, `waterfall of person ${other}`)),
            h("td", {}, judgeButtons(personId, other, ctx, (now) => ctx.go(`#/person/${now}`))),
          );
        }),
      ),
    );
  })();
  return section("matches", "Possible matches", body);
}

export function judgeSection(personId, ctx) {
  const other = h("input", { id: "judge-other", name: "other", inputmode: "numeric", pattern: "[0-9]+", required: true, autocomplete: "off", size: 10 });
  return section(
    "judge",
    "Compare or judge with another person",
    h(
      "form",
      {
        id: "judge-form",
        onsubmit: (event) => {
          event.preventDefault();
          const action = event.submitter?.value ?? "compare";
          const b = other.value.trim().replace(/^0+(?=\d)/, "");
          if (action === "compare") ctx.go(`#/pair/${personId}/${b}`);
          else judge(action, personId, b, ctx, (now) => ctx.go(`#/person/${now}`));
        },
      },
      h("div", { class: "field" }, h("label", { for: "judge-other" }, "Other person id"), other),
      h("button", { type: "submit", value: "compare" }, "Compare"),
      h("button", { type: "submit", value: "never", class: "never" }, "Never match"),
      h("button", { type: "submit", value: "always", class: "always" }, "Always match"),
    ),
  );
}
