// Decision pages: why two persons are (or are not) one. A pair's page
// scores them now (ExplainPair); a merge's page shows the breakdown the
// bridging record had against each person it matched (the history's
// "absorbed" event).

import { call } from "./api.js";
import { judgeButtons } from "./actions.js";
import { h, id, list, personLink, plain, time } from "./dom.js";
import { waterfall } from "./waterfall.js";

// What a candidate's flags say.
export function verdict(score) {
  const words = [];
  if (score.matched) words.push("matched");
  if (score.chosen) words.push("chosen");
  if (score.possible) words.push("possible match (review band)");
  const never = list(score.neverWith).map(id).filter(Boolean);
  if (never.length) words.push(`kept apart from ${never.map((n) => `person ${n}`).join(", ")}`);
  return words.length ? words.join(", ") : "not matched";
}

function pairSummary(reply) {
  const score = reply.score ?? {};
  const total = Number(score.total ?? 0);
  const threshold = Number(reply.threshold ?? 0);
  const review = Number(reply.reviewThreshold ?? 0);
  if (reply.judgement === "never") return "A steward keeps them apart (never-match): no record merges them.";
  if (score.matched) return `Total ${plain(total)} reaches the threshold ${plain(threshold)}: a record of one would join the other.`;
  if (total >= review) return `Total ${plain(total)} is in the review band (${plain(review)} to ${plain(threshold)}): a possible match for a steward.`;
  return `Total ${plain(total)} is below the review threshold ${plain(review)}: not the same person.`;
}

export async function pairPage(a, b, ctx) {
  const reply = await call("ExplainPair", { personA: a, personB: b });
  const pa = id(reply.personA) || a;
  const pb = id(reply.personB) || b;
  return [
    h("h1", { tabindex: -1 }, `Person ${pa} and person ${pb}`),
    h("p", {}, personLink(pb), "\u2019s values scored as a record of ", personLink(pa), " would be."),
    h("p", { class: "decision", id: "pair-decision" }, pairSummary(reply)),
    waterfall(reply.score, {
      threshold: Number(reply.threshold ?? 0),
      reviewThreshold: Number(reply.reviewThreshold ?? 0),
      name: `person ${pb} against person ${pa}`,
    }),
    h("h2", {}, "Judge this pair"),
    judgeButtons(pa, pb, ctx, (now) => ctx.go(`#/person/${now}`)),
  ];
}

// The thresholds of the model the server runs now (GetModel); {} when the
// server cannot say.
async function thresholds() {
  try {
    const model = await call("GetModel", {});
    return { threshold: Number(model.threshold ?? 0), reviewThreshold: Number(model.reviewThreshold ?? 0) };
  } catch {
    return {};
  }
}

export async function mergePage(survivor, absorbed) {
  const history = await call("GetPersonHistory", { personId: survivor });
  const event = list(history.events).find((e) => e.kind === "absorbed" && id(e.otherId) === String(absorbed));
  // The thresholds of the model that decided, kept with the merge; a merge
  // from before they were kept gets the current model's.
  const kept = event && Number(event.threshold ?? 0) > 0;
  const marks = kept
    ? { threshold: Number(event.threshold), reviewThreshold: Number(event.reviewThreshold ?? 0) }
    : await thresholds();
  const title = h("h1", { tabindex: -1 }, `Why person ${absorbed} was merged into person ${survivor}`);
  if (!event) return [title, h("p", { class: "note" }, `The history of person ${survivor} has no merge of person ${absorbed}.`)];
  const scores = list(event.scores);
  return [
    title,
    h("p", {}, "Merged at ", time(event.at), ". Back to ", personLink(survivor), "."),
    event.detail ? h("p", { class: "detail", id: "merge-detail" }, event.detail) : null,
    scores.length === 0
      ? h("p", { class: "empty" }, "No score breakdown was kept for this merge (a steward's or a reconcile's).")
      : scores.map((score) =>
          h(
            "section",
            { class: "score", "data-person": id(score.personId) },
            h("h2", {}, `Person ${id(score.personId)}: total ${plain(score.total)} \u2014 ${verdict(score)}`),
            waterfall(score, { ...marks, name: `person ${id(score.personId)} against the bridging record` }),
          ),
        ),
    marks.threshold === undefined
      ? h("p", { class: "muted" }, "The threshold lines are missing: this server does not say its model.")
      : h("p", { class: "muted" }, kept ? "Threshold lines: the model that decided the merge." : "Threshold lines: the model the server runs now."),
  ];
}
