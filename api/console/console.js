// The steward console: the bearer token form and the router. Each page is a
// function of the address after "#" that returns the page's elements; the
// page is swapped in whole once they are built, so what it shows always
// comes from one set of answers. <main aria-busy> says whether a page is
// still being built.

import { setToken, token } from "./api.js";
import { mergePage, pairPage } from "./decision.js";
import { h, replace } from "./dom.js";
import { modelPage } from "./model.js";
import { personPage } from "./person.js";
import { queuePage } from "./queue.js";
import { searchPage } from "./search.js";
import { tryPage } from "./try.js";

const main = document.getElementById("main");
const status = document.getElementById("status");
let shown = 0; // the latest page asked for; an older one's answers are dropped
let keepStatus = false; // the next page change comes from an action that said something

// Ids in an address are digits without leading zeros ("#/person/7").
const ROUTES = [
  [/^#\/person\/([1-9]\d*)$/, "person", (m, ctx) => personPage(m[1], ctx)],
  [/^#\/pair\/([1-9]\d*)\/([1-9]\d*)$/, "pair", (m, ctx) => pairPage(m[1], m[2], ctx)],
  [/^#\/merge\/([1-9]\d*)\/([1-9]\d*)$/, "merge", (m) => mergePage(m[1], m[2])],
  [/^#\/try$/, "try", (m, ctx) => tryPage(ctx)],
  [/^#\/model$/, "model", () => modelPage()],
  [/^#\/search(?:\?(.*))?$/, "search", (m, ctx) => searchPage(new URLSearchParams(m[1] ?? ""), ctx)],
  [/^#\/queue(?:\?(.*))?$/, "queue", (m, ctx) => queuePage(new URLSearchParams(m[1] ?? ""), ctx)],
];

const ctx = {
  // Says `message` (text or elements) in the live region.
  announce(message) {
    status.classList.remove("error");
    replace(status, message);
  },
  // Says that `what` failed, and why.
  fail(what, error) {
    status.classList.add("error");
    replace(status, `${what} failed: ${error.message}`);
  },
  refresh: () => show(),
  // Goes to `hash` after an action, keeping what the action said.
  go(hash) {
    if (location.hash === hash) return show();
    keepStatus = true;
    location.hash = hash;
  },
};

function route(hash) {
  for (const [pattern, name, page] of ROUTES) {
    const m = pattern.exec(hash);
    if (m) return { name, build: () => page(m, ctx) };
  }
  // The landing page: the steward's work.
  return { name: "queue", build: () => queuePage(new URLSearchParams(), ctx) };
}

function markNavigation(name) {
  for (const link of document.querySelectorAll("nav a[data-page]")) {
    if (link.dataset.page === name) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
}

async function show() {
  const generation = ++shown;
  const { name, build } = route(location.hash);
  main.setAttribute("aria-busy", "true");
  let content;
  try {
    content = await build();
  } catch (e) {
    content = [h("h1", { tabindex: -1 }, "Something went wrong"), h("p", { class: "error" }, e.message)];
  }
  if (generation !== shown) return;
  const focused = document.activeElement;
  const stayed = focused && main.contains(focused) && focused.id ? focused.id : null;
  main.dataset.page = name;
  main.dataset.shown = String(generation); // for a test that waits for the next page
  replace(main, content);
  markNavigation(name);
  main.setAttribute("aria-busy", "false");
  // Keep the place of a steward who acted on this page; a new page starts
  // at its heading.
  const again = stayed && document.getElementById(stayed);
  if (again) again.focus();
  else main.querySelector("h1")?.focus();
}

function tokenForm() {
  const form = document.getElementById("token-form");
  const input = document.getElementById("token");
  const state = document.getElementById("token-state");
  const say = () => {
    state.textContent = token() ? "token set for this tab" : "no token set";
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    setToken(input.value.trim());
    input.value = "";
    say();
    show();
  });
  document.getElementById("token-clear").addEventListener("click", () => {
    setToken("");
    say();
  });
  say();
}

tokenForm();
window.addEventListener("hashchange", () => {
  if (!keepStatus) ctx.announce("");
  keepStatus = false;
  show();
});
show();
