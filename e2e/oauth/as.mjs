// What the OAuth end-to-end scripts (oauth.mjs, dpop.mjs) share: the
// authorization server, oidc-provider on a loopback port, whose
// interactions finish by themselves; its client_credentials tokens; the
// kb server behind it; and the client's side: the user agent that
// follows the redirects, the SDKs' OAuth provider and a raw initialize.
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import http from "node:http";
import Provider from "oidc-provider";
import { CookieJar } from "tough-cookie";
import { freePort } from "../harness.mjs";

// The scopes of kb's tools: every request needs kb.read (kb runs with
// -auth-scopes kb.read), and the tools that change the knowledge base
// need kb.write (their scope= annotation).
export const READ = "kb.read";
export const WRITE = "kb.write";

// The signing key of the authorization servers: the second one signs with
// the same key, so that only its issuer tells its tokens apart.
const signingKey = {
  ...crypto.generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" }),
  kid: "as-key", use: "sig", alg: "RS256",
};

// startProvider starts an authorization server on a free loopback port:
// dynamic client registration, PKCE (S256) required, DPoP (oidc-provider's
// default: a token request with a proof gets a token bound to its key,
// with cnf.jkt), resource indicators
// issuing RFC 9068 JWT access tokens whose audience is the resource asked
// for, and two confidential clients for the client_credentials grant:
// "robot", and "stale-robot", whose tokens are issued already expired.
// Its interactions finish by themselves: alice is logged in, and the
// consent grants exactly the scopes asked for.
export async function startProvider() {
  const server = http.createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${server.address().port}`;
  const provider = new Provider(issuer, {
    jwks: { keys: [signingKey] },
    cookies: { keys: [crypto.randomBytes(16).toString("hex")] },
    clients: ["robot", "stale-robot"].map((id) => ({
      client_id: id,
      client_secret: `${id}-secret`,
      grant_types: ["client_credentials"],
      redirect_uris: [],
      response_types: [],
    })),
    findAccount: async (ctx, sub) => ({ accountId: sub, claims: async () => ({ sub }) }),
    pkce: { required: () => true },
    ttl: { AccessToken: 600, ClientCredentials: 600, Grant: 3600, Interaction: 600, Session: 3600 },
    // Published, so that clients may register for them.
    scopes: ["openid", READ, WRITE],
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (ctx, client, oneOf) => oneOf?.[0],
        useGrantedResource: () => true,
        getResourceServerInfo: async (ctx, resource) => ({
          audience: resource,
          scope: `${READ} ${WRITE}`,
          accessTokenTTL: 600,
          accessTokenFormat: "jwt",
          jwt: { sign: { alg: "RS256" } },
        }),
      },
    },
    formats: {
      customizers: {
        jwt: async (ctx, token, jwt) => {
          if (token.clientId === "stale-robot") {
            jwt.payload.iat -= 7200;
            jwt.payload.exp = jwt.payload.iat + 600;
          }
        },
      },
    },
  });
  const callback = provider.callback();
  server.on("request", (req, res) => {
    const fail = (e) => {
      res.statusCode = 500;
      res.end(String(e));
    };
    if (req.url.startsWith("/interaction/")) {
      interact(provider, req, res).catch(fail);
    } else if (req.method === "POST" && req.url === "/reg") {
      register(req, res, callback).catch(fail);
    } else {
      callback(req, res);
    }
  });
  return { issuer, provider, server };
}

// register lets a client register without limiting the scopes it may
// ask for later: the SDK registers with the scope of its first
// authorization, and oidc-provider would refuse the wider scope of a
// step-up. oidc-provider takes a body read before it as req.body.
async function register(req, res, callback) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const metadata = JSON.parse(Buffer.concat(chunks).toString());
  delete metadata.scope;
  req.body = metadata;
  callback(req, res);
}

// interact finishes a login or consent interaction at once.
async function interact(provider, req, res) {
  const details = await provider.interactionDetails(req, res);
  const { prompt, params, session } = details;
  let result;
  if (prompt.name === "login") {
    result = { login: { accountId: "alice" } };
  } else {
    const grant = details.grantId
      ? await provider.Grant.find(details.grantId)
      : new provider.Grant({ accountId: session.accountId, clientId: params.client_id });
    if (prompt.details.missingOIDCScope) grant.addOIDCScope(prompt.details.missingOIDCScope.join(" "));
    if (prompt.details.missingOIDCClaims) grant.addOIDCClaims(prompt.details.missingOIDCClaims);
    for (const [resource, scopes] of Object.entries(prompt.details.missingResourceScopes ?? {})) {
      grant.addResourceScope(resource, scopes.join(" "));
    }
    result = { consent: { grantId: await grant.save() } };
  }
  await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: true });
}

// startKB starts the kb server at kbPath on a free port, on the server
// path sdk, protected by issuer, with the further flags extra. It
// returns the child, the resource, its metadata URL and the log so far.
export async function startKB(kbPath, issuer, sdk, extra = []) {
  const port = await freePort();
  const resource = `http://127.0.0.1:${port}/mcp`;
  const args = ["-sdk", sdk, "-http", `127.0.0.1:${port}`, "-auth-issuer", issuer, "-auth-resource", resource, "-auth-scopes", READ, ...extra];
  const child = spawn(kbPath, args, {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  await new Promise((resolve, reject) => {
    child.stderr.on("data", (d) => {
      log += d;
      if (log.includes("serving MCP on")) resolve();
    });
    child.on("exit", (code) => reject(new Error(`kb exited with ${code}: ${log}`)));
  });
  const metadata = `http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp`;
  return { child, resource, metadata, log: () => log };
}

// tokenResponse asks issuer for a client_credentials token of the
// confidential client id for resource, with the further headers given
// (a DPoP proof binds the token to its key), and returns the answer.
export async function tokenResponse(issuer, id, resource, scope, headers = {}) {
  const res = await fetch(`${issuer}/token`, {
    method: "POST",
    headers: {
      authorization: "Basic " + Buffer.from(`${id}:${id}-secret`).toString("base64"),
      "content-type": "application/x-www-form-urlencoded",
      ...headers,
    },
    body: new URLSearchParams({ grant_type: "client_credentials", resource, scope }),
  });
  const body = await res.json();
  if (!body.access_token) throw new Error(`client_credentials for ${id}: ${JSON.stringify(body)}`);
  return body;
}

// clientCredentials is the token of tokenResponse.
export async function clientCredentials(issuer, id, resource, scope, headers = {}) {
  return (await tokenResponse(issuer, id, resource, scope, headers)).access_token;
}

// probe posts an initialize request with the headers given, as pairs so
// that one name may come twice (node:http writes the values of an array
// as lines of their own). It returns the status, the challenge and any
// DPoP nonce.
export function probe(url, pairs = []) {
  const body = JSON.stringify({
    jsonrpc: "2.0", id: 1, method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "probe", version: "1" } },
  });
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  for (const [name, value] of pairs) headers[name] = name in headers ? [headers[name], value].flat() : value;
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: "POST", headers }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode, challenge: [res.headers["www-authenticate"]].flat().join(", "), nonce: res.headers["dpop-nonce"] }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

// Browser is the user agent of the authorization flow: it follows the
// authorization server's redirects with a cookie jar, as a browser would,
// until they reach the client's redirect URI.
export class Browser {
  jar = new CookieJar();

  async authorize(url, redirectUri) {
    let next = url.toString();
    for (let hops = 0; hops < 20; hops++) {
      if (next.startsWith(redirectUri)) {
        const u = new URL(next);
        if (!u.searchParams.get("code")) throw new Error(`authorization failed: ${u.search}`);
        this.callback = u.searchParams; // the code and, per RFC 9207, the issuer
        return u.searchParams.get("code");
      }
      const cookie = await this.jar.getCookieString(next);
      const res = await fetch(next, { redirect: "manual", headers: cookie ? { cookie } : {} });
      for (const c of res.headers.getSetCookie()) await this.jar.setCookie(c, next);
      const location = res.headers.get("location");
      if (!location) throw new Error(`authorization stopped at ${next}: ${res.status} ${await res.text()}`);
      next = new URL(location, next).toString();
    }
    throw new Error("authorization redirected too often");
  }
}

// AuthProvider is the TypeScript clients' OAuthClientProvider, named
// name at registration: it keeps what the SDK gives it in memory, notes
// each authorization URL, and authorizes in browser.
export class AuthProvider {
  constructor(browser, name) {
    this.browser = browser;
    this.redirectUrl = "http://127.0.0.1:1/callback";
    this.clientMetadata = {
      client_name: name,
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      application_type: "native",
    };
    this.authorizations = []; // the authorization URLs the SDK made
    this.code = undefined;
  }
  clientInformation() { return this._client; }
  saveClientInformation(info) { this._client = info; }
  tokens() { return this._tokens; }
  saveTokens(tokens) { this._tokens = tokens; }
  codeVerifier() { return this._verifier; }
  saveCodeVerifier(v) { this._verifier = v; }
  async redirectToAuthorization(url) {
    this.authorizations.push(new URL(url));
    this.code = await this.browser.authorize(url, this.redirectUrl);
  }
}

export function payloadOf(jwt) {
  return JSON.parse(Buffer.from(jwt.split(".")[1], "base64url").toString());
}

export function headerOf(jwt) {
  return JSON.parse(Buffer.from(jwt.split(".")[0], "base64url").toString());
}
