// A steward's judgements between two persons, as buttons: never-match keeps
// them apart for good, always-match merges them.

import { call } from "./api.js";
import { h, personLink } from "./dom.js";

// Calls NeverMatch or AlwaysMatch for `a` and `b`, says what happened, and
// goes on with `after(personId)`: the person they are now (always) or `a`.
export async function judge(kind, a, b, ctx, after) {
  const method = kind === "never" ? "NeverMatch" : "AlwaysMatch";
  try {
    const reply = await call(method, { personA: String(a), personB: String(b) });
    if (kind === "never") {
      ctx.announce(`Never-match stored: person ${a} and person ${b} are kept apart.`);
      after(String(a));
    } else {
      ctx.announce(h("span", {}, `Always-match: they are now `, personLink(reply.personId), "."));
      after(String(reply.personId));
    }
  } catch (e) {
    ctx.fail(`${method} of person ${a} and person ${b}`, e);
  }
}

// The two buttons for the pair `a`, `b`.
export function judgeButtons(a, b, ctx, after) {
  const button = (kind, words) =>
    h(
      "button",
      {
        type: "button",
        class: kind,
        "aria-label": `${words} person ${a} and person ${b}`,
        onclick: () => judge(kind, a, b, ctx, after),
      },
      words,
    );
  return h("span", { class: "buttons" }, button("never", "Never match"), button("always", "Always match"));
}
