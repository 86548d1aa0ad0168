// Drives the steward console of a running `idres serve` in Debian's headless
// chromium, as a steward would, on the store tests/console/console_pgtest.cc
// seeds. Usage: node console_test.mjs <base url> <steward token> <admin token> <screenshot dir>
// Every check is on what the page shows; every wait is for an element, not
// for time. Exits non-zero on the first failed check.
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import puppeteer from "puppeteer-core";

const [base, token, adminToken, shots] = process.argv.slice(2);
assert.ok(
  base && token && adminToken && shots,
  "usage: node console_test.mjs <base url> <steward token> <admin token> <screenshot dir>",
);
await mkdir(shots, { recursive: true });

// Bounds, not timings: a machine busy with the rest of the suite may take
// long to start chromium or to answer, and no check depends on how long.
// Every click goes through a locator (page.locator(...).click()): it waits
// until the element is visible and has stopped moving, so a click is not
// lost to a layout that changes under it (as after a full-page screenshot
// on a busy machine).
const BOUND_MS = 120_000;
const browser = await puppeteer.launch({
  executablePath: "/usr/bin/chromium",
  headless: true,
  timeout: BOUND_MS,
  protocolTimeout: BOUND_MS,
  // As root chromium needs --no-sandbox; this machine's network is closed,
  // so nothing of chromium's own may try to go out.
  args: [
    "--no-sandbox", "--headless=new", "--disable-gpu", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage",
  ],
});
const origin = new URL(base).origin;
const outside = []; // requests to anywhere but the server
const problems = []; // script errors and failed loads on the page
const refused = []; // the answers of 400 and more the page got: "401 /path"

const page = await browser.newPage();
page.setDefaultTimeout(BOUND_MS);
try {
  await page.setViewport({ width: 1100, height: 900 });
  page.on("request", (r) => {
    if (!r.url().startsWith(origin) && !r.url().startsWith("data:")) outside.push(r.url());
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("console", (m) => {
    // A refused call is logged as a failed load too: `refused` lists those.
    if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) {
      problems.push(`console: ${m.text()}`);
    }
  });
  page.on("response", (r) => {
    if (r.status() >= 400) refused.push(`${r.status()} ${new URL(r.url()).pathname}`);
  });
  page.on("requestfailed", (r) => problems.push(`failed: ${r.url()}`));

  // The page shown after `action` (a later one than before it), once built.
  const next = async (action, name) => {
    const before = await page.$eval("main", (m) => Number(m.dataset.shown ?? 0)).catch(() => 0);
    await action();
    await page.waitForFunction(
      (b, n) => {
        const m = document.querySelector("main");
        return Number(m.dataset.shown ?? 0) > b && m.getAttribute("aria-busy") === "false" && m.dataset.page === n;
      },
      {},
      before,
      name,
    );
  };
  const text = (selector) => page.$eval(selector, (e) => e.textContent.trim());
  const cells = (selector) =>
    page.$$eval(`${selector} tbody tr`, (rows) => rows.map((r) => [...r.cells].map((c) => c.textContent.trim())));
  const statusSays = (words) =>
    page.waitForFunction((w) => document.getElementById("status").textContent.trim() === w, {}, words);
  const shot = (name) => page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
  // Every input of the page has a label a screen reader says.
  const labelled = async () => {
    const bare = await page.$$eval("input", (inputs) =>
      inputs.filter((i) => i.labels.length === 0 && !i.getAttribute("aria-label")).map((i) => i.outerHTML),
    );
    assert.deepEqual(bare, [], "inputs without a label");
  };

  // The console is served without the token, under a strict CSP.
  const response = await page.goto(`${base}/console/`);
  assert.equal(response.status(), 200);
  assert.equal(response.headers()["content-security-policy"], "default-src 'self'; frame-ancestors 'none'");
  // It opens on the review queue, which without the token the service
  // refuses to fill.
  await page.waitForSelector('main[data-page="queue"][aria-busy="false"]');
  assert.equal(await text("main h1"), "Review queue");
  assert.equal(await text("#token-state"), "no token set");
  await statusSays("The review queue failed: the service wants the bearer token (set it above)");
  await labelled();

  // Search by keyboard: the page starts at its heading, Tab goes to the
  // form. Without the token the service refuses the call.
  await next(() => page.locator('nav a[data-page="search"]').click(), "search");
  assert.equal(await page.evaluate(() => document.activeElement.textContent), "Find a person");
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement.id), "search-type");
  await page.keyboard.press("Tab");
  await page.keyboard.type("ANNA@example.com");
  await next(() => page.keyboard.press("Enter"), "search");
  await statusSays("Lookup failed: the service wants the bearer token (set it above)");

  // With the token the same search finds Anna.
  await page.type("#token", token);
  await next(() => page.locator("#token-form button[type=submit]").click(), "search");
  assert.equal(await text("#token-state"), "token set for this tab");
  await statusSays("1 person holds email \u201cANNA@example.com\u201d.");
  assert.deepEqual(
    await page.$$eval("#results li a", (links) => links.map((a) => [a.textContent, a.getAttribute("href")])),
    [["person 1", "#/person/1"]],
  );
  await shot("search");

  // Open the person from the keyboard.
  await page.focus("#results li a");
  await next(() => page.keyboard.press("Enter"), "person");
  assert.equal(await text("main h1"), "Person 1");
  assert.deepEqual(await cells("#identifiers"), [
    ["birth_date", "1985-03-14"],
    ["cookie", "ck-anna"],
    ["email", "anna@example.com"],
    ["name", "anna schmidt"],
    ["phone", "+491701234567"],
    ["postal_code", "10115"],
  ]);
  assert.deepEqual(
    (await cells("#records")).map((row) => row.slice(0, 2)),
    [["crm", "c-1"], ["web", "w-7"], ["shop", "s-3"]],
  );
  assert.deepEqual(await cells("#traits"), [
    ["newsletter", "true", "record \u201cw-7\u201d of web"],
    ["plan", '"team"', "record \u201cs-3\u201d of shop"],
  ]);
  const history = () =>
    page.$$eval("#history li", (items) =>
      items.map((li) => `${li.dataset.kind}: ${li.querySelector(".what").textContent.trim()}`),
    );
  assert.deepEqual(await history(), [
    "created: ",
    "record_added: record \u201cc-1\u201d of crm added",
    "absorbed: person 2 merged into it why: the waterfall of merging person 2",
    "record_added: record \u201cs-3\u201d of shop added",
  ]);
  assert.equal(await text("#matches"), "Possible matchesNo open possible matches.");
  // A steward may not erase: no button for it.
  assert.equal(await page.$("#erase"), null);
  await labelled();
  await shot("person");

  // The merge's waterfall: the bridging record against each person it matched.
  await next(() => page.locator('#history li[data-kind="absorbed"] a.why').click(), "merge");
  assert.equal(await text("main h1"), "Why person 2 was merged into person 1");
  assert.equal(
    await text("#merge-detail"),
    "bridged by an upsert of record 's-3' of source 'shop': person 1 email exact +13.0, name exact +13.5 = 26.4; " +
      "person 2 name exact +13.5, phone exact +12.8 = 26.3",
  );
  // What each chart on the page shows: its bars (kind and label), total and lines.
  const charts = () =>
    page.$$eval("main svg.waterfall", (svgs) =>
      svgs.map((svg) => ({
        bars: [...svg.querySelectorAll("rect.bar")].map((r) => `${r.classList[1]} ${r.textContent}`),
        total: svg.querySelector("text.total-value").textContent,
        lines: [...svg.querySelectorAll("text.threshold-label, text.review-label")].map((t) => t.textContent),
      })),
    );
  assert.deepEqual(await page.$$eval("main section.score h2", (hs) => hs.map((x) => x.textContent)), [
    "Person 1: total 26.45 \u2014 matched, chosen",
    "Person 2: total 26.25 \u2014 matched, chosen",
  ]);
  // One bar per comparison; the postal code does not count (contact counted the email).
  const lines = ["threshold 14.00", "review 8.00"];
  assert.deepEqual(await charts(), [
    {
      bars: [
        "positive email \u00b7 exact: +12.97",
        "positive name \u00b7 exact: +13.48",
        "uncounted postal_code \u00b7 exact: +9.64 not counted",
      ],
      total: "26.45",
      lines,
    },
    { bars: ["positive name \u00b7 exact: +13.48", "positive phone \u00b7 exact: +12.77"], total: "26.25", lines },
  ]);
  await shot("decision");
  await next(() => page.locator('main a[href="#/person/1"]').click(), "person");

  // A steward's split: the web form's record moves to a new person (5).
  await page.locator("#move-1").click();
  await next(() => page.locator("#split-form button[type=submit]").click(), "person");
  await statusSays("Person 1 split: the checked records are now person 5.");
  assert.deepEqual(
    (await cells("#records")).map((row) => row.slice(0, 2)),
    [["crm", "c-1"], ["shop", "s-3"]],
  );
  // ... and an always-match joins them again, typed into the judge form.
  await page.type("#judge-other", "5");
  await next(() => page.locator("#judge-form button[value=always]").click(), "person");
  await statusSays("Always-match: they are now person 1.");
  assert.deepEqual(
    (await cells("#records")).map((row) => row.slice(0, 2)),
    [["crm", "c-1"], ["web", "w-7"], ["shop", "s-3"]],
  );
  assert.deepEqual((await history()).slice(4), [
    "split: person 5 split off it",
    "judged_always: always-match with person 5",
    "absorbed: person 5 merged into it why: the waterfall of merging person 5",
  ]);
  // The steward's actions name the steward's token; the merge that followed names nobody.
  assert.deepEqual(
    await page.$$eval("#history li", (items) =>
      items.filter((li) => li.querySelector(".actor")).map((li) => `${li.dataset.kind} ${li.querySelector(".actor").textContent}`),
    ),
    ["split by steward", "judged_always by steward"],
  );

  // The review queue: the namesakes' pair waits for a steward, with the
  // store's counts beside it.
  await next(() => page.locator('nav a[data-page="queue"]').click(), "queue");
  assert.equal(await text("main h1"), "Review queue");
  assert.deepEqual(
    (await cells("#queue")).map((row) => row.filter((_, i) => i !== 2)),
    [["person 3 and person 4", "10.17", "waterfall of person 3 and person 4", "Never matchAlways match"]],
  );
  assert.deepEqual(await page.$$eval("#counts dt", (terms) => terms.map((t) => t.textContent)), [
    "persons",
    "records",
    "open possible matches",
    "merges today (UTC)",
    "splits today (UTC)",
  ]);
  // The store-wide count, not the page's: the one pair.
  assert.equal((await page.$$eval("#counts dd", (values) => values.map((v) => v.textContent)))[2], "1");
  await labelled();
  await shot("queue");

  // The namesakes: search by name, then a never-match keeps them apart.
  await next(() => page.locator('nav a[data-page="search"]').click(), "search");
  await page.$eval("#search-type", (i) => (i.value = ""));
  await page.type("#search-type", "name");
  await page.type("#search-value", "Lena Weber");
  await next(() => page.locator("#search-form button[type=submit]").click(), "search");
  await statusSays("2 persons hold name \u201cLena Weber\u201d.");
  await next(() => page.locator("#results li:first-child a").click(), "person");
  assert.equal(await text("main h1"), "Person 3");
  assert.deepEqual(
    (await cells("#matches")).map((row) => row.filter((_, i) => i !== 2)),
    [["person 4", "10.17", "waterfall of person 4", "Never matchAlways match"]],
  );
  await next(() => page.locator('#matches a[href="#/pair/3/4"]').click(), "pair");
  assert.equal(await text("main h1"), "Person 3 and person 4");
  assert.equal(
    await text("#pair-decision"),
    "Total 10.17 is in the review band (8.00 to 14.00): a possible match for a steward.",
  );
  assert.deepEqual(await charts(), [
    {
      bars: ["negative city \u00b7 different: \u22123.31", "positive name \u00b7 exact: +13.48"],
      total: "10.17",
      lines,
    },
  ]);
  await labelled();
  await shot("pair");
  await next(() => page.locator("main button.never").click(), "person");
  await statusSays("Never-match stored: person 3 and person 4 are kept apart.");
  assert.equal(await text("#matches"), "Possible matchesNo open possible matches.");
  assert.deepEqual(
    await page.$$eval("#judgements li", (items) => items.map((li) => li.textContent.replace(/since .* UTC/, "since T"))),
    ["never with person 4 since T \u2014 compare"],
  );

  // A what-if on the try page: a record with Anna's email and her name.
  await next(() => page.locator('nav a[data-page="try"]').click(), "try");
  await page.type("#try-identifiers .identifier-row input[name=value]", "anna@example.com");
  await page.locator("#try-form button[type=button]:not(.remove)").click();
  await page.type("#try-identifiers .identifier-row:nth-child(2) input[name=type]", "name");
  await page.type("#try-identifiers .identifier-row:nth-child(2) input[name=value]", "Anna Schmidt");
  await page.type("#try-source", "shop");
  await page.locator("#try-form button[type=submit]").click();
  await page.waitForSelector('#explanation[aria-busy="false"] #try-decision');
  assert.equal(await text("#try-decision"), "Decision: update person 1.");
  assert.deepEqual(await cells("#try-normalized"), [["email", "anna@example.com"], ["name", "anna schmidt"]]);
  // The strong email, and the blocking keys of the local part, of each
  // nickname group Anna's given name is in with her surname, of her given
  // name with the surname's first three letters, of her name's words
  // sorted, and of her surname with her initial.
  assert.deepEqual(await cells("#try-keys"), [
    ["strong", "email anna@example.com", ""],
    ["email_local", "anna", ""],
    ...["anna", "annette", "annie", "bryanna", "hannah", "savannah"].map((g) => [
      "given_class_surname",
      `${g} schmidt`,
      "",
    ]),
    ["given_surname_prefix", "anna sch", ""],
    ["name_sorted", "anna schmidt", ""],
    ["surname_given_initial", "schmidt a", ""],
  ]);
  assert.deepEqual(
    await page.$$eval("#explanation section.candidate h4", (hs) => hs.map((x) => x.textContent)),
    ["person 1: total 26.45 \u2014 matched, chosen"],
  );
  assert.deepEqual(await charts(), [
    { bars: ["positive email \u00b7 exact: +12.97", "positive name \u00b7 exact: +13.48"], total: "26.45", lines },
  ]);
  await labelled();
  await shot("try");

  // The model the server runs: its own file, the built-in model with
  // birth_date one_off moved to +6.00 (console_pgtest.cc).
  await next(() => page.locator('nav a[data-page="model"]').click(), "model");
  assert.equal(await text("main h1"), "The model this server runs");
  const [threshold, review] = lines.map((l) => l.split(" ")[1]);
  assert.match(
    await text("#model-summary"),
    new RegExp(
      `^\\d+ comparisons, \\d+ blocking rules\\. A record joins a person from a total weight of ${threshold}; ` +
        `from ${review} it is a possible match for review\\. 1 level weighs other than in the built-in model\\.$`,
    ),
  );
  // A bar per level, in the table's order, each with the built-in weight's
  // diamond; the moved level says both.
  const levelRows = await cells("#model-levels");
  const bars = await page.$$eval("svg.weights rect.bar", (rs) =>
    rs.map((r) => ({ row: `${r.dataset.type} ${r.dataset.level}`, title: r.textContent, weight: Number(r.dataset.weight) })),
  );
  assert.deepEqual(bars.map((b) => b.row), levelRows.map((r) => `${r[0]} ${r[1]}`));
  assert.ok(bars.length > 20, `${bars.length} levels`);
  assert.equal(await page.$$eval("svg.weights path.built-in", (ps) => ps.length), bars.length);
  const oneOff = bars.find((b) => b.row === "birth_date one_off");
  assert.match(oneOff.title, /^birth_date \u00b7 one_off: \+6\.00 \(built-in \+\d+\.\d\d\)$/);
  assert.notEqual(levelRows.find((r) => r[1] === "one_off" && r[0] === "birth_date")[5], "+6.00");
  // For to the right of zero, against to the left.
  const sides = await page.$eval("svg.weights", (chart) => {
    const zero = Number(chart.querySelector("line.zero").getAttribute("x1"));
    return [...chart.querySelectorAll("rect.bar")].map((r) => {
      const left = Number(r.getAttribute("x"));
      const right = left + Number(r.getAttribute("width"));
      return r.classList.contains("negative") ? Math.abs(right - zero) < 0.01 : Math.abs(left - zero) < 0.01;
    });
  });
  assert.ok(sides.every(Boolean), "every bar starts at zero");
  assert.ok(bars.some((b) => b.weight < 0) && bars.some((b) => b.weight > 0));
  assert.ok((await cells("#model-blocking")).some((r) => r[0] === "email_local" && r[1] === "email.local"));
  await labelled();
  await shot("model");
  // With an admin's token the person page has the erase button.
  await page.type("#token", adminToken);
  await next(() => page.locator("#token-form button[type=submit]").click(), "model");
  await next(() => page.evaluate(() => (location.hash = "#/person/1")), "person");
  assert.equal(await text("#erase button"), "Erase person 1");
  await labelled();

  if (outside.length) assert.fail(`requests outside the server: ${outside.join(", ")}`);
  assert.deepEqual(problems, []);
  // The refusals were the landing page's calls and the search, made before
  // the token was set.
  assert.deepEqual(refused.sort(), [
    "401 /idres.v1.IdentityService/ListPossibleMatches",
    "401 /idres.v1.IdentityService/Lookup",
    "401 /idres.v1.IdentityService/Stats",
  ]);
  console.log("console test: ok");
} catch (e) {
  // What the page showed when a check failed, for whoever reads the log.
  console.error(`failed at ${page.url()}; the page said: ${await page.$eval("body", (b) => b.innerText).catch(() => "?")}`);
  console.error(problems.join("\n"));
  await page.screenshot({ path: `${shots}/failure.png`, fullPage: true }).catch(() => {});
  throw e;
} finally {
  await browser.close();
}
