// Puts the kb example (examples/kb) behind a real OAuth 2.1 authorization
// server, oidc-provider, and drives it with the TypeScript MCP SDK
// client's own OAuth flow: 401, protected resource metadata, authorization
// server discovery, dynamic client registration, PKCE, the token with its
// resource indicator, then list and call; a step-up from the read scope to
// the write scope on a 403; and 401 for tokens that are expired, badly
// signed, of another issuer or for another resource. All of it on each of
// kb's three server paths: the built-in server, the official Go SDK and
// mcp-go. Usage: node oauth.mjs PATH_TO_KB_SERVER. Prints one line per
// check and a closing "N passed, M failed"; exits 1 on any failure.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { args, attempt, check as checkOne, run, waitFor } from "../harness.mjs";
import { AuthProvider, Browser, READ, WRITE, clientCredentials, headerOf, payloadOf, probe, startKB, startProvider } from "./as.mjs";

const [kbPath] = args("node oauth.mjs PATH_TO_KB_SERVER");

// Recorder is a fetch that remembers the status and challenge of every
// response the transport gets.
function recorder() {
  const seen = [];
  const f = async (url, init) => {
    const res = await fetch(url, init);
    seen.push({ url: String(url), status: res.status, challenge: res.headers.get("www-authenticate") });
    return res;
  };
  return { fetch: f, seen };
}

// sameParams reports whether a Bearer challenge (RFC 6750 §3) has exactly
// the parameters want, in any order, and the same scopes in any order.
function sameParams(challenge, want) {
  const m = /^Bearer (.*)$/.exec(challenge ?? "");
  if (!m) return false;
  const got = {};
  for (const [, name, value] of m[1].matchAll(/([a-z_]+)="((?:[^"\\]|\\.)*)"(?:, |$)/g)) {
    got[name] = value.replace(/\\(.)/g, "$1");
  }
  const norm = (params) => JSON.stringify(Object.entries(params)
    .map(([k, v]) => [k, k === "scope" ? v.split(" ").sort().join(" ") : v]).sort());
  return norm(got) === norm(want);
}

// initialize posts an initialize request with token (or none) as Bearer
// and returns the response's status and challenge.
const initialize = (url, token) => probe(url, token ? [["authorization", `Bearer ${token}`]] : []);

async function main(children) {
  const as = await startProvider();
  const other = await startProvider();
  children.push(as.server, other.server);
  for (const sdk of ["builtin", "gosdk", "mcpgo"]) {
    const kb = await startKB(kbPath, as.issuer, sdk);
    children.push(kb.child);
    await attempt(`${sdk}: the run`, () => exercise(sdk, kb, as, other));
    kb.child.kill("SIGTERM");
  }
}

// exercise runs every check against one kb server, with label before
// each check's name.
async function exercise(label, kb, as, other) {
  const check = (name, ok, detail) => checkOne(`${label}: ${name}`, ok, detail);
  const metadataURL = kb.metadata;

  // What a client finds before it has a token.
  const bare = await initialize(kb.resource);
  check("no token: 401 with the metadata URL and the scope, no error",
    bare.status === 401 && sameParams(bare.challenge, { resource_metadata: metadataURL, scope: READ }),
    `${bare.status} ${bare.challenge}`);
  const prm = await (await fetch(metadataURL)).json();
  check("protected resource metadata", prm.resource === kb.resource &&
    JSON.stringify(prm.authorization_servers) === JSON.stringify([as.issuer]) &&
    prm.scopes_supported?.includes(READ) && prm.scopes_supported?.includes(WRITE) &&
    JSON.stringify(prm.bearer_methods_supported) === `["header"]`, JSON.stringify(prm));

  // The SDK's own flow: 401 -> metadata -> discovery -> registration ->
  // PKCE -> token -> list and call.
  const browser = new Browser();
  const auth = new AuthProvider(browser, "mcpgen oauth e2e");
  const rec = recorder();
  const newTransport = () => new StreamableHTTPClientTransport(new URL(kb.resource), { authProvider: auth, fetch: rec.fetch });
  const unauthorized = newTransport();
  let first = null;
  try {
    await new Client({ name: "oauth-e2e", version: "1.0.0" }).connect(unauthorized);
  } catch (e) {
    first = e;
  }
  check("first connect asks for authorization", first instanceof UnauthorizedError && auth.code !== undefined,
    String(first?.stack ?? first));
  const authURL = auth.authorizations[0];
  check("registered dynamically", typeof auth.clientInformation()?.client_id === "string", JSON.stringify(auth.clientInformation()));
  check("authorization request: PKCE S256, the resource, the challenge's scope",
    authURL?.searchParams.get("code_challenge_method") === "S256" && authURL?.searchParams.get("resource") === kb.resource &&
    authURL?.searchParams.get("scope") === READ, String(authURL));

  await unauthorized.finishAuth(auth.code);
  const token = auth.tokens()?.access_token ?? "";
  const claims = token.split(".").length === 3 ? payloadOf(token) : {};
  check("token: a JWT typed at+jwt for this resource with the read scope only",
    headerOf(token).typ === "at+jwt" && claims.aud === kb.resource && claims.iss === as.issuer && claims.scope === READ && claims.sub === "alice",
    JSON.stringify({ header: token && headerOf(token), claims }));

  const transport = newTransport();
  const client = new Client({ name: "oauth-e2e", version: "1.0.0" });
  await client.connect(transport);
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name).sort();
  check("tools/list with the token", names.includes("search_articles") && names.includes("add_note"), JSON.stringify(names));
  const found = await client.callTool({ name: "search_articles", arguments: { query: "backup" } });
  check("call a read tool", !found.isError && found.structuredContent?.hits?.[0]?.id === 2, JSON.stringify(found));

  // Step-up: the write tool needs kb.write, which the token lacks.
  const before = rec.seen.length;
  let stepUp = null;
  try {
    await client.callTool({ name: "add_note", arguments: { id: 2, note: "checked" } });
  } catch (e) {
    stepUp = e;
  }
  const refused = rec.seen.slice(before).find((r) => r.status === 403);
  check("write tool with the read token: 403 insufficient_scope naming every scope the call needs",
    refused !== undefined && sameParams(refused.challenge, { error: "insufficient_scope", scope: `${READ} ${WRITE}`, resource_metadata: metadataURL }),
    JSON.stringify(rec.seen.slice(before)));
  const wider = auth.authorizations.at(-1);
  check("the client re-authorizes with the write scope",
    stepUp instanceof UnauthorizedError && auth.authorizations.length === 2 && wider.searchParams.get("scope")?.split(" ").includes(WRITE),
    `${stepUp} ${wider}`);
  await transport.finishAuth(auth.code);
  const widerClaims = payloadOf(auth.tokens().access_token);
  check("the new token has the write scope", widerClaims.scope?.split(" ").includes(WRITE), JSON.stringify(widerClaims));
  const added = await client.callTool({ name: "add_note", arguments: { id: 2, note: "checked" } });
  check("the retried call succeeds", !added.isError && JSON.stringify(added.content).includes("article 2 has 1 notes"), JSON.stringify(added));
  await client.close();

  // Tokens the server must refuse with 401, beside one it must accept.
  const robot = await clientCredentials(as.issuer, "robot", kb.resource, READ);
  const ok = await initialize(kb.resource, robot);
  check("a client_credentials token for this resource is accepted", ok.status === 200, `${ok.status} ${ok.challenge}`);
  const [h, p, s] = robot.split(".");
  const flippedSig = s.slice(0, 10) + (s[10] === "A" ? "B" : "A") + s.slice(11);
  // Each with the reason the server logs for it, so that each is refused
  // for what it is meant to show.
  const refusals = [
    ["an expired token", await clientCredentials(as.issuer, "stale-robot", kb.resource, READ), "token is expired"],
    ["a flipped signature", `${h}.${p}.${flippedSig}`, "signature is invalid"],
    ["a token of another authorization server with the same key", await clientCredentials(other.issuer, "robot", kb.resource, READ), "invalid issuer"],
    ["a token for another resource", await clientCredentials(as.issuer, "robot", kb.resource.replace("/mcp", "/other"), READ), "another audience"],
  ];
  check("the expired token is expired", payloadOf(refusals[0][1]).exp < Date.now() / 1000 - 3600, JSON.stringify(payloadOf(refusals[0][1])));
  for (const [name, tok, reason] of refusals) {
    const logged = kb.log().length;
    const r = await initialize(kb.resource, tok);
    const why = await waitFor(() => kb.log().slice(logged).includes(reason), 2000);
    check(`${name}: 401 invalid_token`,
      r.status === 401 && sameParams(r.challenge, { error: "invalid_token", scope: READ, resource_metadata: metadataURL }) && why,
      `${r.status} ${r.challenge}; logged ${JSON.stringify(kb.log().slice(logged))}, want "${reason}"`);
  }
  const query = await initialize(`${kb.resource}?access_token=${robot}`);
  check("a token in the query string is not taken",
    query.status === 401 && sameParams(query.challenge, { resource_metadata: metadataURL, scope: READ }),
    `${query.status} ${query.challenge}`);
  check("the server's log has no token", !kb.log().includes(robot) && !kb.log().includes(token), kb.log());
}

await run(main);
