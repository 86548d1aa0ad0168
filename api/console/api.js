// Calls of the idres service (Connect unary calls, proto3 JSON) with the
// bearer token the steward typed, which is kept for this tab only
// (sessionStorage) and sent on every call.

const TOKEN_KEY = "idres-console-token";

export function token() {
  return sessionStorage.getItem(TOKEN_KEY) ?? "";
}

export function setToken(value) {
  if (value) sessionStorage.setItem(TOKEN_KEY, value);
  else sessionStorage.removeItem(TOKEN_KEY);
}

// A call the service refused: its Connect code ("not_found", ...) and message.
export class RpcError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

// POST /idres.v1.IdentityService/<method> with `request`; the response
// message, or an RpcError. The path is relative to the page, so the console
// also works behind a proxy that serves idres under a prefix.
export async function call(method, request) {
  const headers = { "Content-Type": "application/json", "Connect-Protocol-Version": "1" };
  const bearer = token();
  if (bearer) headers.Authorization = `Bearer ${bearer}`;
  const url = new URL(`../idres.v1.IdentityService/${method}`, document.baseURI);
  let response;
  try {
    response = await fetch(url, { method: "POST", headers, body: JSON.stringify(request) });
  } catch (e) {
    throw new RpcError("unavailable", `the service did not answer (${e.message})`);
  }
  const text = await response.text();
  let body = null;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: a plain HTTP answer (404 for a method this server lacks).
  }
  if (response.ok && body) return body;
  if (response.status === 404 && !body) {
    throw new RpcError("unimplemented", `this server has no ${method} method`);
  }
  if (response.status === 401) {
    throw new RpcError("unauthenticated", "the service wants the bearer token (set it above)");
  }
  throw new RpcError(body?.code ?? `http_${response.status}`, body?.message ?? text.trim());
}
