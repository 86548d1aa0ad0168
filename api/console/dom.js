// Building the page's elements: every value the service returns goes into
// the page as text (textContent, attributes), never as HTML.

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(element, attributes, children) {
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

// An HTML element: h("a", {href: "#/try"}, "Try a record").
export function h(tag, attributes, ...children) {
  return fill(document.createElement(tag), attributes, children);
}

// An SVG element, as h.
export function svg(tag, attributes, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attributes, children);
}

// Replaces what `element` holds with `children`.
export function replace(element, ...children) {
  element.replaceChildren();
  return fill(element, {}, children);
}

// A weight (log2 odds) with its sign: "+9.10", "−2.35", "0.00".
export function signed(value) {
  const n = Number(value ?? 0);
  const text = Math.abs(n).toFixed(2);
  if (n > 0.004) return `+${text}`;
  if (n < -0.004) return `\u2212${text}`;
  return "0.00";
}

// A number as the service's score: "12.40".
export function plain(value) {
  return Number(value ?? 0).toFixed(2);
}

// An RFC 3339 time as a <time> element: "2026-01-02 03:04:05 UTC".
export function time(rfc3339) {
  if (!rfc3339) return "";
  const shown = String(rfc3339).replace("T", " ").replace(/\.\d+Z$|Z$/, " UTC");
  return h("time", { datetime: rfc3339 }, shown);
}

// A proto3 JSON int64 (a string, "0" when unset) as an id, or "" when unset.
export function id(value) {
  const text = String(value ?? "0");
  return text === "0" ? "" : text;
}

// A proto3 JSON list, [] when the field was left out.
export function list(value) {
  return Array.isArray(value) ? value : [];
}

// The link to a person's page.
export function personLink(personId) {
  return h("a", { href: `#/person/${personId}` }, `person ${personId}`);
}

// A table: a caption, column headings and rows of cells (text or nodes).
export function table(caption, headings, rows, attributes = {}) {
  return h(
    "table",
    attributes,
    h("caption", {}, caption),
    h("thead", {}, h("tr", {}, headings.map((name) => h("th", { scope: "col" }, name)))),
    h(
      "tbody",
      {},
      rows.map((cells) => h("tr", {}, cells.map((cell) => h("td", {}, cell)))),
    ),
  );
}

// A part of a page under its heading: section("history", "History", ...).
export function section(sectionId, title, ...children) {
  return h(
    "section",
    { id: sectionId, "aria-labelledby": `${sectionId}-heading` },
    h("h2", { id: `${sectionId}-heading` }, title),
    children,
  );
}

// The words saying there is nothing to show.
export function empty(words) {
  return h("p", { class: "empty" }, words);
}
