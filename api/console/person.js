// A person's page: its identifiers, records, traits with the record that
// wrote each, possible matches, judgements and history, and the steward's
// actions on it.

import { RpcError, call } from "./api.js";
import { empty, h, id, list, section, table, time } from "./dom.js";
import { eraseSection, mayCall } from "./erase.js";
import { historySection, judgementsSection } from "./history.js";
import { judgeSection, loadMatches, matchesSection } from "./matches.js";
import { recordsSection } from "./records.js";

function identifiersSection(person) {
  const rows = list(person.identifiers).map((i) => [
    i.type,
    h("a", { href: `#/search?${new URLSearchParams({ type: i.type, value: i.value })}` }, i.value),
  ]);
  return section(
    "identifiers",
    "Identifiers",
    table(`${rows.length} identifier${rows.length === 1 ? "" : "s"}, normalized`, ["type", "value"], rows),
  );
}

function traitsSection(person) {
  const traits = Object.entries(person.traits ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const sources = person.traitSources ?? {};
  const rows = traits.map(([key, value]) => {
    const by = sources[key];
    return [key, JSON.stringify(value), by ? `record \u201c${by.recordId}\u201d of ${by.source || "default"}` : ""];
  });
  return section(
    "traits",
    "Traits",
    rows.length === 0
      ? empty("No traits.")
      : table("Each trait and the record that wrote its value last", ["trait", "value", "written by"], rows),
  );
}

function heading(person, asked) {
  const redirected = id(person.redirectedFrom);
  return [
    h("h1", { tabindex: -1 }, `Person ${person.personId}`),
    redirected || asked !== String(person.personId)
      ? h("p", { class: "note" }, `Person ${redirected || asked} was merged into this person.`)
      : null,
    h("p", { class: "muted" }, "created ", time(person.createdAt), ", updated ", time(person.updatedAt)),
  ];
}

export async function personPage(asked, ctx) {
  const [person, history, erasable] = await Promise.allSettled([
    call("GetPerson", { personId: asked }),
    call("GetPersonHistory", { personId: asked }),
    mayCall("ForgetPerson"),
  ]);
  const events = history.status === "fulfilled" ? list(history.value.events) : [];
  if (person.status === "rejected") {
    const e = person.reason;
    if (!(e instanceof RpcError) || e.code !== "not_found") throw e;
    // Erased or emptied: what is left is the reason and the history.
    return [h("h1", { tabindex: -1 }, `Person ${asked}`), h("p", { class: "note" }, e.message), historySection(events, asked)];
  }
  const p = person.value.person;
  const personId = String(p.personId);
  const matches = await loadMatches(personId).catch((e) => e);
  return [
    heading(p, String(asked)),
    identifiersSection(p),
    recordsSection(p, ctx),
    traitsSection(p),
    matchesSection(personId, matches, ctx),
    judgementsSection(events, personId),
    judgeSection(personId, ctx),
    historySection(events, personId),
    erasable.value ? eraseSection(personId, ctx) : null,
  ];
}
