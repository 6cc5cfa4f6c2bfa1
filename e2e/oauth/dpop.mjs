// Puts the kb example behind oidc-provider issuing DPoP-bound tokens
// (RFC 9449, SEP-1932) and drives it on each of kb's three server paths:
// the TypeScript client's own OAuth flow with DPoP (@modelcontextprotocol/
// client, its DpopSession), then raw requests with the proofs the
// conformance suite's auth/dpop-server-validation scenario refuses, each
// of which must get 401 and a DPoP challenge with its error code. Valid
// proofs come from the npm dpop package; the broken ones are signed here
// with WebCrypto. Usage: node dpop.mjs PATH_TO_KB_SERVER. Prints one line
// per check and "N passed, M failed"; exits 1 on any failure.
import { generateKeyPair, generateProof } from "dpop";
import { Client, DpopSession, StreamableHTTPClientTransport, UnauthorizedError } from "@modelcontextprotocol/client";
import { args, attempt, check as checkOne, run } from "../harness.mjs";
import { AuthProvider, Browser, READ, clientCredentials, payloadOf, probe, startKB, startProvider, tokenResponse } from "./as.mjs";

const [kbPath] = args("node dpop.mjs PATH_TO_KB_SERVER");

const b64u = (b) => Buffer.from(b).toString("base64url");

// dpopChallenge reads the parameters of a DPoP challenge, or null when
// the header has none (RFC 9110 §11.6.1: a scheme at the start or after a
// comma).
function dpopChallenge(header) {
  const m = /(?:^|,\s*)DPoP (.*)$/.exec(header ?? "");
  if (!m) return null;
  const params = {};
  for (const [, name, value] of m[1].matchAll(/([a-z_]+)="((?:[^"\\]|\\.)*)"/g)) {
    params[name] = value.replace(/\\(.)/g, "$1");
  }
  return params;
}

// sign makes a compact JWS of header and claims with key: ES256 as
// WebCrypto writes it (R and S, as JWS wants), or HS256 with a secret,
// or no signature for alg none.
async function sign(header, claims, key) {
  const input = `${b64u(JSON.stringify(header))}.${b64u(JSON.stringify(claims))}`;
  let sig = "";
  if (header.alg === "ES256") {
    sig = b64u(await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, key, new TextEncoder().encode(input)));
  } else if (header.alg === "HS256") {
    const k = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    sig = b64u(await crypto.subtle.sign("HMAC", k, new TextEncoder().encode(input)));
  }
  return `${input}.${sig}`;
}

// Key is a DPoP key of the script's, extractable so that the private-key
// case can put its private JWK in a header.
async function newKey() {
  const kp = await generateKeyPair("ES256", { extractable: true });
  const { kty, crv, x, y } = await crypto.subtle.exportKey("jwk", kp.publicKey);
  const canon = JSON.stringify({ crv, kty, x, y }); // RFC 7638's order
  const jkt = b64u(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(canon)));
  return { kp, jwk: { kty, crv, x, y }, jkt };
}

// proofWith is a proof of key for method and htu with token, its header
// and claims changed by edit.
async function proofWith(key, method, htu, token, edit = () => {}) {
  const header = { typ: "dpop+jwt", alg: "ES256", jwk: key.jwk };
  const claims = {
    jti: crypto.randomUUID(), htm: method, htu, iat: Math.floor(Date.now() / 1000),
    ath: b64u(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token))),
  };
  const signWith = edit(header, claims);
  return sign(header, claims, signWith ?? key.kp.privateKey);
}

// boundToken gets a client_credentials token of robot for resource,
// bound to key by a proof at the token endpoint.
async function boundToken(issuer, key, resource) {
  return tokenResponse(issuer, "robot", resource, READ, { dpop: await generateProof(key.kp, `${issuer}/token`, "POST") });
}

// DPoPAuthProvider is AuthProvider with DPoP: it signs with one
// DpopSession and keeps the discovery state.
class DPoPAuthProvider extends AuthProvider {
  constructor(browser, session) {
    super(browser, "mcpgen dpop e2e");
    this.session = session;
  }
  saveDiscoveryState(state) { this._discovery = state; }
  discoveryState() { return this._discovery; }
  dpop() { return this.session; }
}

// client runs the TypeScript client's flow against kb: authorize with a
// DPoP proof at the token endpoint, then list and call with proofs.
async function client(check, kb) {
  const session = await DpopSession.create({ alg: "ES256" });
  const auth = new DPoPAuthProvider(new Browser(), session);
  const sent = [];
  const recFetch = async (url, init) => {
    const h = new Headers(init?.headers);
    if (String(url).startsWith(kb.resource)) sent.push({ authorization: h.get("authorization") ?? "", dpop: h.get("dpop") ?? "" });
    return fetch(url, init);
  };
  const transport = () => new StreamableHTTPClientTransport(new URL(kb.resource), { authProvider: auth, fetch: recFetch });
  const first = transport();
  let err = null;
  try {
    await new Client({ name: "dpop-e2e", version: "1.0.0" }).connect(first);
  } catch (e) {
    err = e;
  }
  check("TS client: the first connect asks for authorization", err instanceof UnauthorizedError && auth.code !== undefined, String(err?.stack ?? err));
  await first.finishAuth(auth.browser.callback);
  const tokens = auth.tokens() ?? {};
  const claims = tokens.access_token ? payloadOf(tokens.access_token) : {};
  check("TS client: a DPoP token bound to the session's key", tokens.token_type?.toLowerCase() === "dpop" &&
    claims.cnf?.jkt === session.thumbprint && claims.aud === kb.resource, JSON.stringify({ type: tokens.token_type, claims, jkt: session.thumbprint }));
  const c = new Client({ name: "dpop-e2e", version: "1.0.0" });
  await c.connect(transport());
  const { tools } = await c.listTools();
  check("TS client: tools/list with DPoP", tools.some((t) => t.name === "search_articles"), JSON.stringify(tools.map((t) => t.name)));
  const found = await c.callTool({ name: "search_articles", arguments: { query: "backup" } });
  check("TS client: a call with DPoP", !found.isError && found.structuredContent?.hits?.[0]?.id === 2, JSON.stringify(found));
  await c.close();
  const last = sent.at(-1) ?? {};
  check("TS client: requests carry the DPoP scheme and a proof", last.authorization.startsWith("DPoP ") && last.dpop.split(".").length === 3,
    JSON.stringify(last));
  return tokens.access_token;
}

// exercise runs the checks against one kb server taking DPoP (mode
// accepted or required), labelled label.
async function exercise(label, kb, as, mode) {
  const check = (name, ok, detail) => checkOne(`${label}: ${name}`, ok, detail);
  const metadataURL = kb.metadata;
  const prm = await (await fetch(metadataURL)).json();
  check("metadata names the proof algorithms and whether DPoP is required",
    prm.dpop_signing_alg_values_supported?.includes("ES256") && prm.dpop_bound_access_tokens_required === (mode === "required"), JSON.stringify(prm));

  const clientToken = await client(check, kb);

  const key = await newKey();
  const other = await newKey();
  const { access_token: token, token_type: type } = await boundToken(as.issuer, key, kb.resource);
  check("oidc-provider binds a client_credentials token to the proof's key",
    type === "DPoP" && payloadOf(token).cnf?.jkt === key.jkt, JSON.stringify({ type, claims: payloadOf(token) }));
  const htu = kb.resource;
  const good = await proofWith(key, "POST", htu, token);
  const ok = await probe(htu, [["authorization", `DPoP ${token}`], ["dpop", good]]);
  check("a valid DPoP request is accepted", ok.status === 200, `${ok.status} ${ok.challenge}`);

  const now = Math.floor(Date.now() / 1000);
  const unbound = await clientCredentials(as.issuer, "robot", kb.resource, READ);
  const wrongAudience = (await boundToken(as.issuer, key, kb.resource.replace("/mcp", "/other"))).access_token;
  const foreign = (await boundToken(as.issuer, other, kb.resource)).access_token;
  const privateJWK = await crypto.subtle.exportKey("jwk", key.kp.privateKey);
  const cases = [
    ["alg none", `DPoP ${token}`, [await proofWith(key, "POST", htu, token, (h) => { h.alg = "none"; })], "invalid_dpop_proof"],
    ["alg HS256", `DPoP ${token}`, [await proofWith(key, "POST", htu, token, (h) => { h.alg = "HS256"; return new TextEncoder().encode("0123456789abcdef0123456789abcdef"); })], "invalid_dpop_proof"],
    ["a private jwk", `DPoP ${token}`, [await proofWith(key, "POST", htu, token, (h) => { h.jwk = privateJWK; })], "invalid_dpop_proof"],
    ["typ jwt", `DPoP ${token}`, [await proofWith(key, "POST", htu, token, (h) => { h.typ = "jwt"; })], "invalid_dpop_proof"],
    ["htm GET", `DPoP ${token}`, [await proofWith(key, "GET", htu, token)], "invalid_dpop_proof"],
    ["htu of another server", `DPoP ${token}`, [await proofWith(key, "POST", "https://wrong.example.com/mcp", token)], "invalid_dpop_proof"],
    ["a wrong ath", `DPoP ${token}`, [await proofWith(key, "POST", htu, token, (h, c) => { c.ath = "not-the-right-hash"; })], "invalid_dpop_proof"],
    ["no ath", `DPoP ${token}`, [await proofWith(key, "POST", htu, token, (h, c) => { delete c.ath; })], "invalid_dpop_proof"],
    ["a reused jti", `DPoP ${token}`, [good], "invalid_dpop_proof"],
    ["iat 303 s past", `DPoP ${token}`, [await proofWith(key, "POST", htu, token, (h, c) => { c.iat = now - 303; })], "invalid_dpop_proof"],
    ["iat 303 s future", `DPoP ${token}`, [await proofWith(key, "POST", htu, token, (h, c) => { c.iat = now + 303; })], "invalid_dpop_proof"],
    ["no proof", `DPoP ${token}`, [], "invalid_dpop_proof"],
    ["two DPoP headers", `DPoP ${token}`, [await proofWith(key, "POST", htu, token), await proofWith(key, "POST", htu, token)], "invalid_dpop_proof"],
    ["the bound token as Bearer", `Bearer ${token}`, [await proofWith(key, "POST", htu, token)], "invalid_token"],
    ["a proof by another key than cnf.jkt", `DPoP ${foreign}`, [await proofWith(key, "POST", htu, foreign)], "invalid_token"],
    ["a bound token for another resource", `DPoP ${wrongAudience}`, [await proofWith(key, "POST", htu, wrongAudience)], "invalid_token"],
    ["not a JWT", `DPoP ${token}`, ["this-is-not-a-jwt"], "invalid_dpop_proof"],
  ];
  for (const [name, authz, proofs, code] of cases) {
    const r = await probe(htu, [["authorization", authz], ...proofs.map((p) => ["dpop", p])]);
    const ch = dpopChallenge(r.challenge);
    check(`${name}: 401, DPoP error="${code}"`, r.status === 401 && ch?.error === code && ch?.algs?.includes("ES256") &&
      ch?.resource_metadata === metadataURL, `${r.status} ${r.challenge}`);
  }
  const bearer = await probe(htu, [["authorization", `Bearer ${unbound}`]]);
  if (mode === "required") {
    check("a bearer token where DPoP is required: 401 DPoP invalid_token", bearer.status === 401 && dpopChallenge(bearer.challenge)?.error === "invalid_token",
      `${bearer.status} ${bearer.challenge}`);
  } else {
    check("a bearer token bound to no key is accepted beside DPoP", bearer.status === 200, `${bearer.status} ${bearer.challenge}`);
  }
  const log = kb.log();
  check("the server's log has no token", ![token, foreign, unbound, clientToken].some((t) => t && log.includes(t)), log);
}

async function main(children) {
  const as = await startProvider();
  children.push(as.server);
  const runs = [["builtin", "accepted"], ["gosdk", "accepted"], ["mcpgo", "accepted"], ["builtin", "required"]];
  for (const [sdk, mode] of runs) {
    const kb = await startKB(kbPath, as.issuer, sdk, ["-auth-dpop", mode]);
    children.push(kb.child);
    await attempt(`${sdk} (DPoP ${mode}): the run`, () => exercise(`${sdk} (DPoP ${mode})`, kb, as, mode));
    kb.child.kill("SIGTERM");
  }
}

await run(main);
