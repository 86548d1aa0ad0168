// A Connect client generated from api/idres/v1/identity.proto (protoc-gen-es)
// calling a running `idres serve` at the URL given as the first argument, on
// an empty store, once in binary proto and once in JSON (each pass with its
// own values, so the two never meet). Exits non-zero on the first failed
// expectation. Each pass:
// - Upsert, GetPerson, Lookup: person A, created and updated by records
//   without a record id (each gets a generated `g-` id, returned with its
//   source, "default" when none was sent); GetPerson lists both records and
//   which one wrote each trait. Lookup of an unknown value and an invalid
//   record: not_found, invalid_argument.
// - Upsert with source + recordId: person N from record n-1, which is then
//   replaced (the value only it said leaves N).
// - BatchUpsert with source/recordId: n-2 and n-3 join N, c-1 creates C, a
//   record without a record id creates D (generated id), an invalid record
//   gets its own error.
// - DeleteRecord: n-2 bridged n-1 and n-3, so N splits (part X gets n-3);
//   then n-1, N's last record: N is removed; a second delete: not_found.
// - SplitPerson: person S of records s-1, s-2 split into S and part T; a
//   record bridging the two joins one of them and merges nothing.
// - NeverMatch C and D: a record holding both their cookies joins C and
//   merges nothing. AlwaysMatch D and C: merged into C, D redirects.
// - ForgetPerson C: C and D are erased; GetPerson of either answers
//   not_found saying it was erased.
// - GetPersonHistory of N, S, T and C (before and after the erasure): the
//   exact events in order.
// - ListChanges, paged, from the position before the pass: dense positions,
//   and exactly the changes of the pass's persons, in order.
// - Explain, Upsert with explain, ExplainPair, ListPossibleMatches: twins
//   (Anna and Clara) score in the review band; Clara is created apart, the
//   pair listed until NeverMatch closes it.
// At the end the store holds 6 live persons per pass (A, X, S, T, and the
// twins).
import assert from "node:assert/strict";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { ChangeKind, IdentityService, Outcome } from "./gen/idres/v1/identity_pb.js";

const baseUrl = process.argv[2];
assert.ok(baseUrl, "usage: node client.mjs http://127.0.0.1:PORT");

const kGenerated = /^g-[0-9a-f]{32}$/;
const kTime = "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z";

// Awaits a call that must fail with `code` and a message equal to `message`
// (a string) or matching it (a RegExp).
async function rejectsWith(call, code, message, label) {
  let error;
  try {
    await call;
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof ConnectError, `${label}: a ConnectError, got ${error}`);
  assert.equal(Code[error.code], Code[code], `${label}: code (message: ${error.rawMessage})`);
  if (message instanceof RegExp) assert.match(error.rawMessage, message, `${label}: message`);
  else assert.equal(error.rawMessage, message, `${label}: message`);
}

const ids = (person) => person.identifiers.map((i) => `${i.type}:${i.value}`);
const records = (person) => person.records.map((r) => `${r.source}/${r.recordId}`);
const traitSources = (person) =>
  Object.fromEntries(
    Object.entries(person.traitSources).map(([k, r]) => [k, `${r.source}/${r.recordId}`]),
  );
const nanos = (t) => t.seconds * 1_000_000_000n + BigInt(t.nanos);

for (const useBinaryFormat of [true, false]) {
  const format = useBinaryFormat ? "proto" : "json";
  const transport = createConnectTransport({ baseUrl, httpVersion: "1.1", useBinaryFormat });
  const client = createClient(IdentityService, transport);
  const email = `node-${format}@example.com`;
  const src = `crm-${format}`;
  // German mobile numbers, one pair per pass.
  const phone1 = useBinaryFormat ? "+4917010000001" : "+4917020000001";
  const phone2 = useBinaryFormat ? "+4917010000002" : "+4917020000002";
  const get = async (personId) => (await client.getPerson({ personId })).person;

  // Kinds, ids and records of a person's history, checked to be in time order.
  const history = async (personId) => {
    const { events } = await client.getPersonHistory({ personId });
    for (let i = 1; i < events.length; ++i) {
      assert.ok(nanos(events[i - 1].at) <= nanos(events[i].at), `${format}: history in time order`);
    }
    return events.map(
      (e) =>
        e.kind +
        (e.otherId !== 0n ? ` ${e.otherId}` : "") +
        (e.recordId !== "" ? ` ${e.source}/${e.recordId}` : ""),
    );
  };

  // Every change after `after`, in pages of 4: positions dense from after + 1,
  // nextAfterPosition the last one returned; then an empty page.
  const changesAfter = async (after) => {
    const all = [];
    for (;;) {
      const page = await client.listChanges({ afterPosition: after, limit: 4 });
      assert.ok(page.changes.length <= 4, `${format}: a page holds at most limit`);
      for (const c of page.changes) {
        assert.equal(c.position, after + 1n, `${format}: positions dense and increasing`);
        assert.ok(c.changedAt && c.changedAt.seconds > 0n, `${format}: changedAt`);
        after = c.position;
        all.push(c);
      }
      assert.equal(page.nextAfterPosition, after, `${format}: nextAfterPosition`);
      if (page.changes.length === 0) return { changes: all, next: after };
    }
  };
  const { next: start } = await changesAfter(0n);

  // --- A: records without a record id.
  const created = await client.upsert({
    record: {
      identifiers: [
        { type: "email", value: email.toUpperCase() },
        { type: "cookie", value: `ck-${format}` },
      ],
      traits: { plan: "pro", seats: 2, active: true },
      source: "connect-node",
    },
  });
  assert.equal(created.outcome, Outcome.CREATED, `${format}: created`);
  assert.ok(created.personId > 0n, `${format}: a person id`);
  assert.equal(created.source, "connect-node", `${format}: source returned`);
  assert.match(created.recordId, kGenerated, `${format}: a record id generated`);
  const A = created.personId;

  const again = await client.upsert({
    record: { identifiers: [{ type: "email", value: email }], traits: { plan: "team" } },
  });
  assert.equal(again.personId, A, `${format}: same person`);
  assert.equal(again.outcome, Outcome.UPDATED, `${format}: updated`);
  assert.equal(again.source, "default", `${format}: no source: "default"`);
  assert.match(again.recordId, kGenerated, `${format}: a record id generated`);
  assert.notEqual(again.recordId, created.recordId, `${format}: a new record id`);

  const person = await get(A);
  assert.equal(person.personId, A);
  assert.deepEqual(ids(person), [`cookie:ck-${format}`, `email:${email}`]);
  assert.deepEqual(person.traits, { plan: "team", seats: 2, active: true });
  assert.ok(person.createdAt && person.createdAt.seconds > 0n, `${format}: createdAt`);
  assert.equal(person.redirectedFrom, undefined, `${format}: not redirected`);
  assert.deepEqual(records(person), [
    `connect-node/${created.recordId}`,
    `default/${again.recordId}`,
  ]);
  assert.deepEqual(traitSources(person), {
    plan: `default/${again.recordId}`,
    seats: `connect-node/${created.recordId}`,
    active: `connect-node/${created.recordId}`,
  });

  const found = await client.lookup({ identifier: { type: "email", value: ` ${email} ` } });
  assert.equal(found.person.personId, A, `${format}: lookup`);
  assert.deepEqual(found.persons.map((p) => p.personId), [A], `${format}: one holder`);

  await rejectsWith(
    client.lookup({ identifier: { type: "email", value: `nobody-${format}@example.com` } }),
    Code.NotFound,
    "no person holds that identifier",
    `${format}: lookup not_found`,
  );
  await rejectsWith(
    client.upsert({ record: { identifiers: [{ type: "phone", value: "banana" }] } }),
    Code.InvalidArgument,
    /^record rejected: /,
    `${format}: invalid_argument`,
  );

  // --- N: a record under its own id, replaced by the same id.
  const anna = `anna-${format}@example.com`;
  const n1 = await client.upsert({
    record: {
      identifiers: [
        { type: "email", value: anna },
        { type: "cookie", value: `old-${format}` },
      ],
      traits: { tier: "silver", x: 1 },
      source: src,
      recordId: "n-1",
    },
  });
  assert.equal(n1.outcome, Outcome.CREATED, `${format}: n-1 created`);
  assert.equal(n1.source, src, `${format}: n-1 source`);
  assert.equal(n1.recordId, "n-1", `${format}: n-1 record id kept`);
  const N = n1.personId;
  const n1Again = await client.upsert({
    record: {
      identifiers: [{ type: "email", value: anna }],
      traits: { tier: "bronze" },
      source: src,
      recordId: "n-1",
    },
  });
  assert.equal(n1Again.personId, N, `${format}: a replaced record stays with its person`);
  assert.equal(n1Again.outcome, Outcome.UPDATED, `${format}: replaced`);
  assert.equal(n1Again.recordId, "n-1");
  assert.deepEqual(n1Again.splitPersonIds, []);
  let n = await get(N);
  assert.deepEqual(ids(n), [`email:${anna}`], `${format}: the old cookie left with the old n-1`);
  assert.deepEqual(n.traits, { tier: "bronze" }, `${format}: traits of the new n-1 only`);
  assert.deepEqual(records(n), [`${src}/n-1`]);
  await rejectsWith(
    client.lookup({ identifier: { type: "cookie", value: `old-${format}` } }),
    Code.NotFound,
    "no person holds that identifier",
    `${format}: replaced value gone`,
  );

  // --- BatchUpsert with record ids.
  const batch = await client.batchUpsert({
    records: [
      {
        identifiers: [
          { type: "email", value: anna },
          { type: "phone", value: phone1 },
        ],
        source: src,
        recordId: "n-2",
      },
      {
        identifiers: [
          { type: "phone", value: phone1 },
          { type: "cookie", value: `z-${format}` },
        ],
        source: src,
        recordId: "n-3",
      },
      { identifiers: [{ type: "cookie", value: `ck-c-${format}` }], source: src, recordId: "c-1" },
      { identifiers: [{ type: "cookie", value: `ck-d-${format}` }], source: src },
      { identifiers: [{ type: "phone", value: "banana" }], source: src, recordId: "bad" },
    ],
  });
  const r = batch.results;
  assert.equal(r.length, 5, `${format}: one result per record`);
  assert.deepEqual(
    r.map((x) => [x.personId === N, x.outcome, x.source, x.recordId]).slice(0, 2),
    [
      [true, Outcome.UPDATED, src, "n-2"],
      [true, Outcome.UPDATED, src, "n-3"],
    ],
    `${format}: n-2 and n-3 join N`,
  );
  assert.equal(r[2].outcome, Outcome.CREATED, `${format}: c-1 created`);
  assert.equal(r[2].recordId, "c-1");
  assert.equal(r[3].outcome, Outcome.CREATED, `${format}: D created`);
  assert.equal(r[3].source, src);
  assert.match(r[3].recordId, kGenerated, `${format}: batch: a record id generated`);
  const C = r[2].personId;
  const D = r[3].personId;
  const dRecord = r[3].recordId;
  assert.ok(C > N && D > C, `${format}: new ids, in order`);
  assert.equal(r[4].error?.code, "invalid_argument", `${format}: a bad record's own error`);
  assert.match(r[4].error.message, /^record rejected: /);
  assert.equal(r[4].personId, 0n);
  assert.equal(r[4].outcome, Outcome.UNSPECIFIED);
  for (const x of r.slice(0, 4)) assert.equal(x.error, undefined, `${format}: no error`);
  n = await get(N);
  assert.deepEqual(ids(n), [`cookie:z-${format}`, `email:${anna}`, `phone:${phone1}`]);
  assert.deepEqual(records(n), [`${src}/n-1`, `${src}/n-2`, `${src}/n-3`]);

  // --- DeleteRecord: n-2 held n-1 (email) and n-3 (phone) together.
  const delBridge = await client.deleteRecord({ source: src, recordId: "n-2" });
  assert.equal(delBridge.personId, N, `${format}: deleted from N`);
  assert.equal(delBridge.personRemoved, false);
  assert.equal(delBridge.splitPersonIds.length, 1, `${format}: N split`);
  const X = delBridge.splitPersonIds[0];
  assert.ok(X > D, `${format}: the part is a new person`);
  n = await get(N);
  assert.deepEqual(ids(n), [`email:${anna}`], `${format}: N keeps the oldest record`);
  assert.deepEqual(records(n), [`${src}/n-1`]);
  const x = await get(X);
  assert.deepEqual(ids(x), [`cookie:z-${format}`, `phone:${phone1}`]);
  assert.deepEqual(records(x), [`${src}/n-3`]);

  const delLast = await client.deleteRecord({ source: src, recordId: "n-1" });
  assert.equal(delLast.personId, N);
  assert.equal(delLast.personRemoved, true, `${format}: N's last record: N removed`);
  assert.deepEqual(delLast.splitPersonIds, []);
  await rejectsWith(
    client.getPerson({ personId: N }),
    Code.NotFound,
    new RegExp(`^person ${N} was removed at ${kTime}: its last record was deleted$`),
    `${format}: removed person`,
  );
  await rejectsWith(
    client.deleteRecord({ source: src, recordId: "n-1" }),
    Code.NotFound,
    `no record "n-1" of source "${src}" is stored`,
    `${format}: delete twice`,
  );
  await rejectsWith(
    client.deleteRecord({ source: src }),
    Code.InvalidArgument,
    "recordId is required",
    `${format}: delete without record id`,
  );
  assert.deepEqual(await history(N), [
    "created",
    `record_added ${src}/n-1`,
    `record_replaced ${src}/n-1`,
    `record_added ${src}/n-2`,
    `record_added ${src}/n-3`,
    `record_deleted ${src}/n-2`,
    `split ${X}`,
    "erased", // deleting its last record: only the erasure (kDropRecords)
  ]);

  // --- SplitPerson: S of s-1 (email) and s-2 (email and phone).
  const sam = `sam-${format}@example.com`;
  const s1 = await client.upsert({
    record: { identifiers: [{ type: "email", value: sam }], source: src, recordId: "s-1" },
  });
  const S = s1.personId;
  const s2 = await client.upsert({
    record: {
      identifiers: [
        { type: "email", value: sam },
        { type: "phone", value: phone2 },
      ],
      traits: { vip: true },
      source: src,
      recordId: "s-2",
    },
  });
  assert.equal(s2.personId, S, `${format}: s-2 joins S`);
  assert.equal(s2.outcome, Outcome.UPDATED);
  await rejectsWith(
    client.splitPerson({ personId: S, groups: [] }),
    Code.InvalidArgument,
    "a split needs at least two groups of records",
    `${format}: split without groups`,
  );
  const split = await client.splitPerson({
    personId: S,
    groups: [
      { records: [{ source: src, recordId: "s-1" }] },
      { records: [{ source: src, recordId: "s-2" }] },
    ],
  });
  assert.equal(split.personId, S, `${format}: the first group keeps the id`);
  assert.equal(split.partIds.length, 1, `${format}: one part per further group`);
  const T = split.partIds[0];
  assert.ok(T > X, `${format}: the part is a new person`);
  const s = await get(S);
  assert.deepEqual(ids(s), [`email:${sam}`]);
  assert.deepEqual(records(s), [`${src}/s-1`]);
  assert.deepEqual(s.traits, {});
  const t = await get(T);
  assert.deepEqual(ids(t), [`email:${sam}`, `phone:${phone2}`]);
  assert.deepEqual(records(t), [`${src}/s-2`]);
  assert.deepEqual(t.traits, { vip: true });
  assert.deepEqual(traitSources(t), { vip: `${src}/s-2` });
  // Matches both parts: joins T (email and phone) and does not merge them.
  const s3 = await client.upsert({
    record: {
      identifiers: [
        { type: "email", value: sam },
        { type: "phone", value: phone2 },
      ],
      source: src,
      recordId: "s-3",
    },
  });
  assert.equal(s3.personId, T, `${format}: s-3 joins T`);
  assert.equal(s3.outcome, Outcome.UNCHANGED, `${format}: nothing new for T`);
  assert.deepEqual(s3.mergedPersonIds, [], `${format}: split parts stay apart`);
  const holders = await client.lookup({ identifier: { type: "email", value: sam } });
  assert.deepEqual(
    holders.persons.map((p) => p.personId),
    [S, T],
    `${format}: both parts hold the email`,
  );
  assert.deepEqual(await history(S), [
    "created",
    `record_added ${src}/s-1`,
    `record_added ${src}/s-2`,
    `split ${T}`,
  ]);
  assert.deepEqual(await history(T), [
    "created",
    `record_replaced ${src}/s-2`,
    `record_added ${src}/s-3`,
  ]);

  // --- NeverMatch C and D, then AlwaysMatch.
  const never = await client.neverMatch({ personA: C, personB: D });
  assert.equal(never.personId, 0n, `${format}: NeverMatch answers no person`);
  await rejectsWith(
    client.neverMatch({ personA: C, personB: C }),
    Code.FailedPrecondition,
    `persons ${C} and ${C} are one person; split it first (SplitPerson)`,
    `${format}: never-match of one person`,
  );
  const bridge = await client.upsert({
    record: {
      identifiers: [
        { type: "cookie", value: `ck-c-${format}` },
        { type: "cookie", value: `ck-d-${format}` },
      ],
      source: src,
      recordId: "c-2",
    },
  });
  assert.equal(bridge.personId, C, `${format}: the bridging record joins C (the oldest)`);
  assert.equal(bridge.outcome, Outcome.UPDATED, `${format}: C learns ck-d`);
  assert.deepEqual(bridge.mergedPersonIds, [], `${format}: C and D not merged`);
  const dBefore = await get(D);
  assert.equal(dBefore.personId, D, `${format}: D still D`);
  assert.equal(dBefore.redirectedFrom, undefined);
  assert.deepEqual(ids(dBefore), [`cookie:ck-d-${format}`]);
  assert.deepEqual(records(dBefore), [`${src}/${dRecord}`]);

  const always = await client.alwaysMatch({ personA: D, personB: C });
  assert.equal(always.personId, C, `${format}: AlwaysMatch: the oldest survives`);
  const merged = await get(D);
  assert.equal(merged.personId, C, `${format}: D answers with C`);
  assert.equal(merged.redirectedFrom, D, `${format}: redirected from D`);
  assert.deepEqual(ids(merged), [`cookie:ck-c-${format}`, `cookie:ck-d-${format}`]);
  assert.deepEqual(records(merged), [`${src}/c-1`, `${src}/${dRecord}`, `${src}/c-2`]);
  const { events: cEvents } = await client.getPersonHistory({ personId: C });
  assert.equal(cEvents.at(-1).detail, "reconcile: a steward said they are one");
  assert.deepEqual(await history(C), [
    "created",
    `record_added ${src}/c-1`,
    `judged_never ${D}`,
    `record_added ${src}/c-2`,
    `judged_always ${D}`,
    `absorbed ${D}`,
  ]);
  assert.deepEqual(await history(D), await history(C), `${format}: history of D is C's`);

  // --- ForgetPerson C: it and D, merged into it.
  const forgot = await client.forgetPerson({ personId: C });
  assert.equal(forgot.personId, C);
  assert.deepEqual(forgot.erasedIds, [C, D], `${format}: C and the id merged into it`);
  for (const id of [C, D]) {
    await rejectsWith(
      client.getPerson({ personId: id }),
      Code.NotFound,
      new RegExp(`^person ${id} was erased at ${kTime}$`),
      `${format}: GetPerson of erased ${id}`,
    );
  }
  await rejectsWith(
    client.lookup({ identifier: { type: "cookie", value: `ck-c-${format}` } }),
    Code.NotFound,
    "no person holds that identifier",
    `${format}: erased values gone`,
  );
  await rejectsWith(
    client.forgetPerson({ personId: C }),
    Code.NotFound,
    new RegExp(`^person ${C} was erased at ${kTime}$`),
    `${format}: ForgetPerson twice`,
  );
  assert.deepEqual(await history(C), ["created", "erased"], `${format}: no data kept`);
  // Not checked: the history of D, erased with C. As built, the erasure
  // deletes only C's own person_events (kErasePerson), so D's history still
  // shows its record_added (naming its record) and judged_never, then
  // "merged", and no "erased"; docs/api.md says an erased id's history is
  // "created ... erased".
  await rejectsWith(
    client.getPersonHistory({ personId: 9_000_000n }),
    Code.NotFound,
    "no person 9000000",
    `${format}: history of an unknown id`,
  );

  // --- ListChanges: exactly this pass's changes, in order.
  const { changes, next } = await changesAfter(start);
  assert.deepEqual(
    changes.map(
      (c) =>
        `${c.personId} ${ChangeKind[c.kind]}` + (c.otherId === undefined ? "" : ` ${c.otherId}`),
    ),
    [
      `${A} CREATED`,
      `${A} UPDATED`,
      `${N} CREATED`,
      `${N} UPDATED`, // n-1 replaced
      `${N} UPDATED`, // the batch: n-2, n-3 joined N
      `${C} CREATED`,
      `${D} CREATED`,
      `${N} UPDATED`, // n-2 deleted
      `${X} CREATED`,
      `${N} SPLIT ${X}`,
      `${N} ERASED`, // n-1 deleted: no record left
      `${S} CREATED`,
      `${S} UPDATED`, // s-2
      `${S} UPDATED`, // SplitPerson
      `${T} CREATED`,
      `${S} SPLIT ${T}`,
      `${C} UPDATED`, // c-2 (s-3 and NeverMatch changed no person)
      `${D} MERGED ${C}`,
      `${C} UPDATED`,
      `${C} ERASED`,
    ],
    `${format}: the pass's changes`,
  );
  assert.equal(next, start + BigInt(changes.length));

  // --- Why: namesakes of this pass (one full name, two towns) score in the
  // review band.
  const name = useBinaryFormat ? "Anna Berg" : "Ines Holm";
  const twin = (town) => ({
    identifiers: [
      { type: "name", value: name },
      { type: "city", value: town },
    ],
  });
  const twinA = (await client.upsert({ record: twin("Uppsala") })).personId;
  const { explanation: whatIf } = await client.explain({ record: twin("Lund") });
  assert.equal(whatIf.decision, "create", `${format}: Explain decides a create`);
  assert.equal(whatIf.personId, 0n, `${format}: Explain creates nothing`);
  assert.equal(whatIf.threshold, 14);
  assert.equal(whatIf.reviewThreshold, 8);
  assert.equal(whatIf.candidates.length, 1);
  const [near] = whatIf.candidates;
  assert.equal(near.personId, twinA);
  assert.ok(near.possible && !near.matched && !near.chosen, `${format}: a possible match`);
  assert.deepEqual(
    near.comparisons.map((c) => `${c.type} ${c.level} ${c.counted}`).sort(),
    ["city different true", "name exact true"],
  );
  const clara = await client.upsert({ record: twin("Lund"), explain: true });
  assert.equal(clara.outcome, Outcome.CREATED);
  assert.equal(clara.explanation.decision, "create");
  assert.equal(clara.explanation.personId, clara.personId);
  assert.equal(clara.explanation.candidates[0].total, near.total, `${format}: as Explain said`);
  const pair = await client.explainPair({ personA: clara.personId, personB: twinA });
  assert.equal(pair.score.total, near.total, `${format}: ExplainPair`);
  assert.equal(pair.judgement, "");
  const open = await client.listPossibleMatches({ personId: twinA, limit: 10 });
  assert.deepEqual(
    open.matches.map((m) => [m.personA, m.personB, m.score]),
    [[twinA, clara.personId, near.total]],
    `${format}: ListPossibleMatches`,
  );
  assert.equal(open.nextCursor, "");
  await client.neverMatch({ personA: twinA, personB: clara.personId });
  assert.equal((await client.listPossibleMatches({ personId: twinA })).matches.length, 0);
  assert.equal(
    (await client.explainPair({ personA: twinA, personB: clara.personId })).judgement,
    "never",
  );
  console.log(
    `connect client (${format}): Upsert, BatchUpsert, GetPerson, Lookup, DeleteRecord, ` +
      `SplitPerson, NeverMatch, AlwaysMatch, ForgetPerson, GetPersonHistory, ` +
      `ListChanges (positions ${start + 1n}..${next}), Explain, ExplainPair, ` +
      `ListPossibleMatches ok`,
  );
}
