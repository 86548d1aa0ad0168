// Erasure (ForgetPerson), for a token that may call it: the console asks
// GetAccess what the token may do and shows the button only then, as the
// service would refuse it to any other (permission_denied).

import { call } from "./api.js";
import { h, section } from "./dom.js";

// Whether the token set for this tab may call `method`; false when the
// service does not say (an older server, a refused token).
export async function mayCall(method) {
  try {
    const access = await call("GetAccess", {});
    return (access.methods ?? []).includes(method);
  } catch {
    return false;
  }
}

// The erase button of person `personId`; it erases the person and
// everything of it, then shows what is left (the reason and the history).
export function eraseSection(personId, ctx) {
  const erase = async () => {
    try {
      const reply = await call("ForgetPerson", { personId });
      ctx.announce(`Person ${personId} erased (ids ${(reply.erasedIds ?? []).join(", ")}).`);
      ctx.go(`#/person/${personId}`);
    } catch (e) {
      ctx.fail(`ForgetPerson of person ${personId}`, e);
    }
  };
  return section(
    "erase",
    "Erase",
    h("p", {}, "Erases the person and everything of it: records, identifiers, traits (GDPR Art. 17)."),
    h("button", { type: "button", class: "erase", onclick: erase }, `Erase person ${personId}`),
  );
}
