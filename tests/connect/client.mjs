// A Connect client generated from api/idres/v1/identity.proto (protoc-gen-es)
// calling a running `idres serve` at the URL given as the first argument:
// Upsert, GetPerson and Lookup, in binary proto and in JSON. Exits non-zero
// on the first failed expectation.
import assert from "node:assert/strict";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { IdentityService, Outcome } from "./gen/idres/v1/identity_pb.js";

const baseUrl = process.argv[2];
assert.ok(baseUrl, "usage: node client.mjs http://127.0.0.1:PORT");

for (const useBinaryFormat of [true, false]) {
  const format = useBinaryFormat ? "proto" : "json";
  const transport = createConnectTransport({ baseUrl, httpVersion: "1.1", useBinaryFormat });
  const client = createClient(IdentityService, transport);
  const email = `node-${format}@example.com`;

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

  const again = await client.upsert({
    record: { identifiers: [{ type: "email", value: email }], traits: { plan: "team" } },
  });
  assert.equal(again.personId, created.personId, `${format}: same person`);
  assert.equal(again.outcome, Outcome.UPDATED, `${format}: updated`);

  const { person } = await client.getPerson({ personId: created.personId });
  assert.equal(person.personId, created.personId);
  assert.deepEqual(
    person.identifiers.map((i) => `${i.type}:${i.value}`),
    [`cookie:ck-${format}`, `email:${email}`],
  );
  assert.deepEqual(person.traits, { plan: "team", seats: 2, active: true });
  assert.ok(person.createdAt && person.createdAt.seconds > 0n, `${format}: createdAt`);

  const found = await client.lookup({ identifier: { type: "email", value: ` ${email} ` } });
  assert.equal(found.person.personId, created.personId, `${format}: lookup`);

  await assert.rejects(
    client.lookup({ identifier: { type: "email", value: `nobody-${format}@example.com` } }),
    (e) => e instanceof ConnectError && e.code === Code.NotFound,
    `${format}: not_found`,
  );
  await assert.rejects(
    client.upsert({ record: { identifiers: [{ type: "phone", value: "banana" }] } }),
    (e) => e instanceof ConnectError && e.code === Code.InvalidArgument,
    `${format}: invalid_argument`,
  );
  console.log(`connect client (${format}): Upsert, GetPerson, Lookup ok`);
}
