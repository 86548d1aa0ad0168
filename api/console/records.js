// A person's records (what each source said), with the steward's split:
// check the records that move to a new person, and SplitPerson makes it.

import { call } from "./api.js";
import { h, list, personLink, section, time } from "./dom.js";

function ref(record) {
  return { source: record.source ?? "", recordId: record.recordId ?? "" };
}

async function split(personId, records, boxes, ctx) {
  const moving = records.filter((_, i) => boxes[i].checked).map(ref);
  const staying = records.filter((_, i) => !boxes[i].checked).map(ref);
  if (moving.length === 0 || staying.length === 0) {
    ctx.announce("Check the records that move to the new person, and leave at least one unchecked.");
    return;
  }
  try {
    const reply = await call("SplitPerson", {
      personId: String(personId),
      groups: [{ records: staying }, { records: moving }],
    });
    const parts = list(reply.partIds);
    ctx.announce(h("span", {}, `Person ${personId} split: the checked records are now `, parts.map((p) => personLink(p)), "."));
    ctx.refresh();
  } catch (e) {
    ctx.fail(`SplitPerson of person ${personId}`, e);
  }
}

export function recordsSection(person, ctx) {
  const records = list(person.records);
  const boxes = records.map((r, i) =>
    h("input", {
      type: "checkbox",
      id: `move-${i}`,
      "aria-label": `move record ${r.recordId} of ${r.source} to a new person`,
    }),
  );
  return section(
    "records",
    "Records",
    h(
      "form",
      {
        id: "split-form",
        onsubmit: (event) => {
          event.preventDefault();
          split(person.personId, records, boxes, ctx);
        },
      },
      h(
        "table",
        {},
        h("caption", {}, `The ${records.length} record${records.length === 1 ? "" : "s"} person ${person.personId} is made of, oldest first`),
        h("thead", {}, h("tr", {}, ["source", "record id", "created", "updated", "split off"].map((t) => h("th", { scope: "col" }, t)))),
        h(
          "tbody",
          {},
          records.map((r, i) =>
            h("tr", {}, h("td", {}, r.source ?? ""), h("th", { scope: "row" }, r.recordId ?? ""), h("td", {}, time(r.createdAt)), h("td", {}, time(r.updatedAt)), h("td", {}, boxes[i])),
          ),
        ),
      ),
      records.length > 1
        ? h("p", {}, h("button", { type: "submit" }, "Split the checked records off into a new person"))
        : null,
    ),
  );
}
