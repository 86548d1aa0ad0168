// The search page: any identifier (type and value, as a record would send
// it) to the persons holding it (Lookup).

import { RpcError, call } from "./api.js";
import { empty, h, list, personLink, section } from "./dom.js";

// The identifier types of the built-in model, offered while typing; any
// other type the server's model knows works as well.
export const TYPES = [
  "email", "phone", "cookie", "device_id", "customer_id", "name", "birth_date", "city",
  "postal_code", "address", "passport", "drivers_license", "national_id", "tax_id",
];

export function typeList() {
  return h("datalist", { id: "identifier-types" }, TYPES.map((t) => h("option", { value: t })));
}

function form(params, ctx) {
  const type = h("input", { id: "search-type", name: "type", list: "identifier-types", required: true, value: params.get("type") ?? "email", autocomplete: "off" });
  const value = h("input", { id: "search-value", name: "value", required: true, value: params.get("value") ?? "", autocomplete: "off" });
  const region = h("input", { id: "search-region", name: "region", maxlength: 2, size: 3, value: params.get("region") ?? "", autocomplete: "off" });
  return h(
    "form",
    {
      id: "search-form",
      role: "search",
      onsubmit: (event) => {
        event.preventDefault();
        const query = new URLSearchParams({ type: type.value.trim(), value: value.value });
        if (region.value.trim()) query.set("region", region.value.trim().toUpperCase());
        const hash = `#/search?${query}`;
        if (location.hash === hash) ctx.refresh();
        else location.hash = hash;
      },
    },
    h("div", { class: "field" }, h("label", { for: "search-type" }, "Identifier type"), type),
    h("div", { class: "field wide" }, h("label", { for: "search-value" }, "Value"), value),
    h("div", { class: "field" }, h("label", { for: "search-region" }, "Region (phones)"), region),
    h("button", { type: "submit" }, "Search"),
  );
}

function summary(person) {
  const ids = list(person.identifiers);
  const shown = ids.slice(0, 4).map((i) => `${i.type} ${i.value}`).join(", ");
  const more = ids.length > 4 ? ` and ${ids.length - 4} more` : "";
  const records = list(person.records).length;
  return `${shown}${more}${records ? ` \u2014 ${records} record${records === 1 ? "" : "s"}` : ""}`;
}

async function results(params, ctx) {
  const identifier = { type: params.get("type"), value: params.get("value") };
  const what = `${identifier.type} \u201c${identifier.value}\u201d`;
  try {
    const reply = await call("Lookup", { identifier, defaultRegion: params.get("region") ?? "" });
    const persons = list(reply.persons).length ? list(reply.persons) : [reply.person].filter(Boolean);
    ctx.announce(`${persons.length} person${persons.length === 1 ? " holds" : "s hold"} ${what}.`);
    return section(
      "results",
      `Persons holding ${what}`,
      h("ul", { class: "results" }, persons.map((p) => h("li", {}, personLink(p.personId), " ", h("span", { class: "muted" }, summary(p))))),
    );
  } catch (e) {
    if (e instanceof RpcError && e.code === "not_found") {
      ctx.announce(`No person holds ${what}.`);
      return section("results", `Persons holding ${what}`, empty(`No person holds ${what}.`));
    }
    ctx.fail("Lookup", e);
    return section("results", `Persons holding ${what}`, h("p", { class: "error" }, e.message));
  }
}

export async function searchPage(params, ctx) {
  return [
    h("h1", { tabindex: -1 }, "Find a person"),
    h("p", {}, "By any identifier a record sent: the value is normalized as an upsert's would be."),
    typeList(),
    form(params, ctx),
    params.get("value") ? await results(params, ctx) : null,
  ];
}
