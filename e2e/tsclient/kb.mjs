// Drives the kb example (examples/kb) with the TypeScript MCP SDK client on
// each of its three server paths (the built-in server, the official Go SDK
// and mcp-go), over stdio and Streamable HTTP: tools whose output schemas
// refer to $defs, a text block of the author's beside structured content,
// resources, templates, prompts, completions, subscriptions, list_changed
// and the article viewer, an MCP App whose page a tool names. Usage:
// node kb.mjs PATH_TO_KB_SERVER. Prints one line per check and a closing
// "N passed, M failed"; exits 1 on any failure.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { args, attempt, check, run, waitFor } from "../harness.mjs";
import { session, transports } from "./session.mjs";

const [server] = args("node kb.mjs PATH_TO_KB_SERVER");

// How each server path answers what the protocol leaves to it, as their
// package docs say: the code of a resource not found on this client's
// revision (2025-11-25), and of a prompt argument that does not parse.
const paths = {
  builtin: { notFound: -32002, badArgument: -32602 },
  gosdk: { notFound: -32602, badArgument: -32602 },
  mcpgo: { notFound: -32603, badArgument: -32603 },
};

// errorOf returns the error a call throws, or null.
async function errorOf(call) {
  try {
    await call();
    return null;
  } catch (e) {
    return e;
  }
}

async function exercise(label, path, client, notes) {
  const want = paths[path];
  // listTools compiles every output schema (a $ref it cannot resolve
  // throws), and callTool validates structured content against it.
  const { tools } = await client.listTools();
  check(`${label}: tools/list`, JSON.stringify(tools.map((t) => t.name).sort()) ===
    `["add_article","add_note","link_account","outline_article","read_article","search_articles","show_article","suggest_tags"]`, JSON.stringify(tools.map((t) => t.name)));
  let o = await client.callTool({ name: "outline_article", arguments: { id: 2 } });
  const tree = o.structuredContent?.result;
  check(`${label}: outline_article, a list of a recursive struct`, !o.isError && tree?.[0]?.title === "Backups" &&
    tree[0].sections?.[0]?.title === "Where" && tree[0].sections[0].sections?.[0]?.title === "Off site", JSON.stringify(o));
  o = await client.callTool({ name: "read_article", arguments: { id: 2 } });
  check(`${label}: read_article's text block is the article's Markdown`, !o.isError && o.content?.length === 1 &&
    o.content[0].text.startsWith("# Backups\n\nRun") && o.structuredContent?.title === "Backups" &&
    o.structuredContent?.body === o.content[0].text, JSON.stringify(o));
  const { prompts } = await client.listPrompts();
  check(`${label}: prompts/list`, JSON.stringify(prompts.map((p) => p.name).sort()) === `["compare","summarize"]` &&
    prompts.every((p) => p.description), JSON.stringify(prompts));
  const summarize = prompts.find((p) => p.name === "summarize");
  check(`${label}: summarize's arguments`, JSON.stringify(summarize?.arguments?.map((a) => [a.name, !!a.required])) === `[["article",true],["style",false]]`,
    JSON.stringify(summarize?.arguments));

  const { resources } = await client.listResources();
  check(`${label}: resources/list has the index`, resources.some((r) => r.uri === "kb://index" && r.mimeType === "application/json"), JSON.stringify(resources));
  const { resourceTemplates } = await client.listResourceTemplates();
  check(`${label}: resources/templates/list`,
    // go-sdk reads a skill's files through one template of its own, which
    // it lists (docs/adapters.md); the other paths list none for skills.
    JSON.stringify(resourceTemplates.map((t) => t.uriTemplate).sort()) === (path === "gosdk"
      ? `["kb://articles/{id}","kb://articles/{id}/{format}","skill://{+path}"]`
      : `["kb://articles/{id}","kb://articles/{id}/{format}"]`),
    JSON.stringify(resourceTemplates));

  let t;
  let r = await client.readResource({ uri: "kb://articles/2" });
  check(`${label}: read a template`, r.contents[0]?.uri === "kb://articles/2" && r.contents[0]?.mimeType === "text/markdown" &&
    r.contents[0]?.text.includes("Backups"), JSON.stringify(r));
  r = await client.readResource({ uri: "kb://articles/3/html" });
  check(`${label}: read a template with an enum variable`, r.contents[0]?.mimeType === "text/html" && r.contents[0]?.text.startsWith("<pre>"), JSON.stringify(r));
  r = await client.readResource({ uri: "kb://index" });
  check(`${label}: read JSON`, JSON.parse(r.contents[0]?.text ?? "null")?.length === 3, JSON.stringify(r));
  let e = await errorOf(() => client.readResource({ uri: "kb://articles/99" }));
  check(`${label}: a missing article is not found`, e?.code === want.notFound, String(e));
  e = await errorOf(() => client.readResource({ uri: "kb://articles/2/pdf" }));
  check(`${label}: a format that is no enum value is not found`, e?.code === want.notFound || (path !== "builtin" && e !== null), String(e));

  let p = await client.getPrompt({ name: "summarize", arguments: { article: "2", style: "detailed" } });
  check(`${label}: prompts/get with an embedded resource`, p.messages.length === 2 && p.messages[0].content.type === "resource" &&
    p.messages[0].content.resource.uri === "kb://articles/2" && p.messages[1].content.text.includes("detailed"), JSON.stringify(p));
  p = await client.getPrompt({ name: "compare", arguments: { first: "1", second: "3" } });
  check(`${label}: prompts/get with resource links`, p.description === "Compare Getting started with Restoring" &&
    p.messages[0].content.type === "resource_link" && p.messages[1].content.uri === "kb://articles/3", JSON.stringify(p));
  e = await errorOf(() => client.getPrompt({ name: "summarize", arguments: { article: "two" } }));
  check(`${label}: an argument that does not parse`, e?.code === want.badArgument && String(e).includes("article"), String(e));
  e = await errorOf(() => client.getPrompt({ name: "summarize", arguments: { style: "brief" } }));
  check(`${label}: a missing required argument`, e?.code === want.badArgument && String(e).includes("article"), String(e));
  e = await errorOf(() => client.getPrompt({ name: "summarize", arguments: { article: "1", style: "long" } }));
  check(`${label}: an argument outside its enum`, e?.code === want.badArgument && String(e).includes("style"), String(e));

  let c = await client.complete({ ref: { type: "ref/resource", uri: "kb://articles/{id}/{format}" }, argument: { name: "format", value: "h" } });
  check(`${label}: completion of an enum variable`, JSON.stringify(c.completion.values) === `["html"]`, JSON.stringify(c));
  c = await client.complete({ ref: { type: "ref/prompt", name: "summarize" }, argument: { name: "article", value: "3" } });
  check(`${label}: completion by a completer`, JSON.stringify(c.completion.values) === `["3"]`, JSON.stringify(c));
  c = await client.complete({ ref: { type: "ref/prompt", name: "summarize" }, argument: { name: "style", value: "d" } });
  check(`${label}: completion of an enum argument`, JSON.stringify(c.completion.values) === `["detailed"]`, JSON.stringify(c));
  c = await client.complete({ ref: { type: "ref/prompt", name: "compare" }, argument: { name: "unknown", value: "" } });
  check(`${label}: no completion is an empty list`, c.completion.values.length === 0, JSON.stringify(c));

  // The article viewer: the tool names its page in _meta.ui, and the page
  // is an MCP App's HTML.
  check(`${label}: MCP Apps declared`, client.getServerCapabilities()?.extensions?.["io.modelcontextprotocol/ui"] !== undefined,
    JSON.stringify(client.getServerCapabilities()));
  const show = tools.find((x) => x.name === "show_article");
  const page = show?._meta?.ui?.resourceUri;
  check(`${label}: show_article names its page`, page === "ui://kb/viewer", JSON.stringify(show));
  r = await client.readResource({ uri: page ?? "ui://kb/viewer" });
  const html = r.contents[0];
  check(`${label}: the page is an MCP App's HTML`, html?.mimeType === "text/html;profile=mcp-app" &&
    /^<!doctype html>/i.test(html?.text ?? "") && html.text.includes("ui/initialize") && html?._meta?.ui?.prefersBorder === true, JSON.stringify(r).slice(0, 300));
  t = await client.callTool({ name: "show_article", arguments: { id: 2 } });
  check(`${label}: show_article`, !t.isError && t.structuredContent?.title === "Backups" && t.content[0]?.type === "text", JSON.stringify(t));

  await client.subscribeResource({ uri: "kb://articles/1" });
  t = await client.callTool({ name: "add_note", arguments: { id: 1, note: "checked" } });
  check(`${label}: add_note`, !t.isError, JSON.stringify(t));
  check(`${label}: the subscribed article's update arrives`, await waitFor(() => notes.updated.includes("kb://articles/1"), 3000), JSON.stringify(notes));
  await client.callTool({ name: "add_note", arguments: { id: 2, note: "unwatched" } });
  await client.unsubscribeResource({ uri: "kb://articles/1" });
  await client.callTool({ name: "add_note", arguments: { id: 1, note: "after" } });
  await new Promise((r) => setTimeout(r, 300));
  check(`${label}: only subscribed updates, none after unsubscribing`, JSON.stringify(notes.updated) === `["kb://articles/1"]`, JSON.stringify(notes));

  t = await client.callTool({ name: "add_article", arguments: { title: "Monitoring", body: "# Monitoring\n\nWatch the logs." } });
  check(`${label}: add_article`, !t.isError && t.structuredContent?.uri === "kb://articles/4", JSON.stringify(t));
  check(`${label}: resources/list_changed arrives`, await waitFor(() => notes.listChanged > 0, 3000), JSON.stringify(notes));
  const after = await client.listResources();
  check(`${label}: the new article is listed`, after.resources.some((x) => x.uri === "kb://articles/4"), JSON.stringify(after));
}

// newClient is a client that declares URL elicitation and sampling with
// tools: it accepts every URL elicitation, and its model asks for the
// server's list_tags tool once, then answers with the tags it was given.
function newClient(notes) {
  const client = new Client({ name: "mcpgen-kb-e2e", version: "1.0.0" },
    { capabilities: { elicitation: { url: {} }, sampling: { tools: {} } } });
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => notes.updated.push(n.params.uri));
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => notes.listChanged++);
  client.setRequestHandler(ElicitRequestSchema, (req) => {
    notes.elicited.push(req.params);
    return { action: "accept" };
  });
  client.setRequestHandler(CreateMessageRequestSchema, (req) => {
    notes.sampled.push(req.params);
    const results = req.params.messages.flatMap((m) => [m.content].flat()).filter((c) => c.type === "tool_result");
    if (results.length === 0) {
      return { role: "assistant", model: "e2e", stopReason: "toolUse", content: [{ type: "tool_use", id: "use1", name: "list_tags", input: {} }] };
    }
    return { role: "assistant", model: "e2e", stopReason: "endTurn", content: { type: "text", text: `tags: ${results[0].content[0].text}` } };
  });
  return client;
}

// asking checks the tools that ask the client: URL elicitation and
// sampling with tools.
async function asking(label, client, notes) {
  let t = await client.callTool({ name: "link_account", arguments: {} });
  const asked = notes.elicited[0];
  check(`${label}: URL elicitation`, !t.isError && asked?.mode === "url" && asked?.url === "https://sync.example.com/consent" &&
    t.content[0]?.text === `accept (elicitation ${asked?.elicitationId})`, JSON.stringify({ t, asked }));
  t = await client.callTool({ name: "suggest_tags", arguments: { id: 3 } });
  const [first, second] = notes.sampled;
  check(`${label}: sampling with tools`, !t.isError && t.content[0]?.text === "tags: setup, operations" &&
    first?.tools?.[0]?.name === "list_tags" && second?.messages?.length === 3 &&
    [second.messages[1].content].flat()[0]?.type === "tool_use", JSON.stringify({ t, sampled: notes.sampled }));
}

await run(async () => {
  for (const path of Object.keys(paths)) {
    for (const transport of transports) {
      const label = `${path} ${transport}`;
      const notes = { updated: [], listChanged: 0, elicited: [], sampled: [] };
      await attempt(`${label}: session`, () =>
        session(transport, { command: server, args: ["-sdk", path], newClient: () => newClient(notes) }, async (client) => {
          await exercise(label, path, client, notes);
          await asking(label, client, notes);
        }));
    }
  }
});
