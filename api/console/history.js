// A person's history (GetPersonHistory), oldest first, and the judgements
// in it: each event says when, what, which record or person, and the
// token whose steward's action wrote it; a merge links to the waterfall of
// the record that bridged it.

import { empty, h, id, personLink, section, time } from "./dom.js";

function recordName(event) {
  return event.recordId ? `record \u201c${event.recordId}\u201d of ${event.source || "default"}` : "";
}

// What the event says, in words (and links).
function describe(event, personId) {
  const other = id(event.otherId);
  switch (event.kind) {
    case "created":
    case "erased":
      return [];
    case "record_added":
      return [`${recordName(event)} added`];
    case "record_replaced":
      return [`${recordName(event)} replaced`];
    case "record_deleted":
      return [`${recordName(event)} deleted`];
    case "absorbed":
      return [
        personLink(other), " merged into it ",
        h("a", { href: `#/merge/${personId}/${other}`, class: "why" }, `why: the waterfall of merging person ${other}`),
      ];
    case "merged":
      return ["merged into ", personLink(other)];
    case "split":
      return [personLink(other), " split off it"];
    case "judged_never":
      return ["never-match with ", personLink(other)];
    case "judged_always":
      return ["always-match with ", personLink(other)];
    default:
      return [event.kind, other ? [" ", personLink(other)] : null];
  }
}

export function historySection(events, personId) {
  return section(
    "history",
    "History",
    events.length === 0
      ? empty("No events.")
      : h(
          "ol",
          { class: "history" },
          events.map((e) =>
            h(
              "li",
              { "data-kind": e.kind },
              time(e.at), " ", h("strong", { class: "kind" }, e.kind), " ",
              h("span", { class: "what" }, describe(e, personId)),
              e.actor ? [" ", h("span", { class: "actor" }, `by ${e.actor}`)] : null,
              e.detail ? h("p", { class: "detail" }, e.detail) : null,
            ),
          ),
        ),
  );
}

// The persons a steward's never-match keeps apart from this one, from its
// history.
export function judgementsSection(events, personId) {
  const nevers = events.filter((e) => e.kind === "judged_never" && id(e.otherId));
  return section(
    "judgements",
    "Judgements",
    nevers.length === 0
      ? empty("No never-match judgements.")
      : h(
          "ul",
          {},
          nevers.map((e) =>
            h(
              "li",
              {},
              "never with ", personLink(id(e.otherId)), " since ", time(e.at), " \u2014 ",
              h("a", { href: `#/pair/${personId}/${id(e.otherId)}` }, "compare"),
            ),
          ),
        ),
  );
}
