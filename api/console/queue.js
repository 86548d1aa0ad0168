// The landing page, the steward's work: the store's counts (Stats) and the
// open possible matches of the whole store, best score first
// (ListPossibleMatches), each pair with its two persons, the waterfall a
// click away and the two judgements; "more" pages on with the cursor.

import { judgeButtons } from "./actions.js";
import { call } from "./api.js";
import { empty, h, id, list, personLink, plain, section, time } from "./dom.js";

const PAGE = 50;

function counts(stats) {
  const row = (words, value) => [h("dt", {}, words), h("dd", {}, String(value ?? "0"))];
  return section(
    "counts",
    "The store",
    h(
      "dl",
      { class: "counts" },
      row("persons", stats.persons),
      row("records", stats.records),
      row("open possible matches", stats.openPairs),
      row("merges today (UTC)", stats.mergesToday),
      row("splits today (UTC)", stats.splitsToday),
    ),
  );
}

function pairs(reply, open, cursor, ctx) {
  const matches = list(reply.matches);
  const next = reply.nextCursor ?? "";
  const body =
    matches.length === 0
      ? empty(cursor ? "No more open possible matches." : "No open possible matches: nothing waits for a steward.")
      : h(
          "table",
          {},
          h("caption", {}, "Pairs a record scored in the review band for, best score first"),
          h("thead", {}, h("tr", {}, ["pair", "score", "found", "why", "judge"].map((t) => h("th", { scope: "col" }, t)))),
          h(
            "tbody",
            {},
            matches.map((m) => {
              const a = id(m.personA);
              const b = id(m.personB);
              return h(
                "tr",
                { "data-pair": `${a}-${b}` },
                h("th", { scope: "row" }, personLink(a), " and ", personLink(b)),
                h("td", { class: "num" }, plain(m.score)),
                h("td", {}, time(m.foundAt)),
                h("td", {}, h("a", { href: `#/pair/${a}/${b}` }, `waterfall of person ${a} and person ${b}`)),
                h("td", {}, judgeButtons(a, b, ctx, () => ctx.refresh())),
              );
            }),
          ),
        );
  const more = next ? h("p", {}, h("a", { href: `#/queue?cursor=${encodeURIComponent(next)}`, id: "more" }, "More")) : null;
  return section("queue", `Open possible matches (${open ?? "0"})`, body, more);
}

export async function queuePage(params, ctx) {
  const cursor = params.get("cursor") ?? "";
  const heading = h("h1", { tabindex: -1 }, "Review queue");
  const intro = h(
    "p",
    {},
    "Pairs of persons the model was unsure of: look at the waterfall, then keep them apart or merge them. Or ",
    h("a", { href: "#/search" }, "find a person"),
    " or ",
    h("a", { href: "#/try" }, "try a record"),
    ".",
  );
  try {
    const [stats, reply] = await Promise.all([call("Stats", {}), call("ListPossibleMatches", { cursor, limit: PAGE })]);
    return [heading, intro, counts(stats), pairs(reply, stats.openPairs, cursor, ctx)];
  } catch (e) {
    ctx.fail("The review queue", e);
    return [heading, intro];
  }
}
