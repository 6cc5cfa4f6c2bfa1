// Drives the basics example server with the TypeScript MCP SDK client,
// once over stdio and once over Streamable HTTP: it lists the tools, calls
// them and checks what comes back. Usage: node client.mjs PATH_TO_SERVER.
// Prints one line per check and a closing "N passed, M failed"; exits 1 on
// any failure.
import { spawn } from "node:child_process";
import net from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const server = process.argv[2];
if (!server) {
  console.error("usage: node client.mjs PATH_TO_SEEDGUIDE_SERVER");
  process.exit(2);
}

let passed = 0;
let failed = 0;

function check(name, ok, detail) {
  if (ok) {
    passed++;
    console.log(`ok   ${name}`);
  } else {
    failed++;
    console.log(`FAIL ${name}: ${detail}`);
  }
}

function text(result) {
  return (result.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("\n");
}

const wantTools = ["greet_user", "calculate_sum", "set_status", "process_order", "bulk_price_update"];

// exercise runs every check against a connected client; label names the
// transport in the output.
async function exercise(label, client) {
  const info = client.getServerVersion();
  check(`${label}: server name`, info?.name === "basics", JSON.stringify(info));

  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  check(`${label}: tools/list names`, JSON.stringify(names) === JSON.stringify(wantTools), JSON.stringify(names));
  const bulk = tools.find((t) => t.name === "bulk_price_update");
  check(`${label}: bulk_price_update region enum`,
    JSON.stringify(bulk?.inputSchema?.properties?.region?.enum) === JSON.stringify(["emea", "amer", "apac"]),
    JSON.stringify(bulk?.inputSchema?.properties?.region));
  check(`${label}: bulk_price_update hints`,
    bulk?.annotations?.destructiveHint === true && bulk?.annotations?.openWorldHint === false,
    JSON.stringify(bulk?.annotations));

  let r = await client.callTool({ name: "greet_user", arguments: { name: "Ada" } });
  check(`${label}: greet_user`, !r.isError && text(r) === "Hello, Ada!", JSON.stringify(r));

  r = await client.callTool({ name: "calculate_sum", arguments: { first: "2.5", second: 4 } });
  check(`${label}: calculate_sum coerces "2.5"`, !r.isError && text(r) === "6.5", JSON.stringify(r));

  r = await client.callTool({
    name: "bulk_price_update",
    arguments: {
      region: "emea",
      rounding: "nearest_cent",
      changes: [
        { product_id: "p1", new_price: 9.99, effective_from: "2026-01-01T00:00:00Z" },
        { product_id: "p2", new_price: "12" },
      ],
    },
  });
  check(`${label}: bulk_price_update good call`, !r.isError && text(r) === "2", JSON.stringify(r));

  r = await client.callTool({
    name: "bulk_price_update",
    arguments: { region: "mars", changes: [{ product_id: "p1", new_price: "abc" }, { new_price: 1 }] },
  });
  const msg = text(r);
  check(`${label}: bad arguments are an isError result`,
    r.isError === true &&
      msg.includes('region: "mars" is not one of "emea", "amer", "apac"') &&
      msg.includes('changes[0].new_price: expected number, got "abc"') &&
      msg.includes("changes[1].product_id: required property is missing"),
    JSON.stringify(r));

  r = await client.callTool({ name: "process_order", arguments: { order_id: "o1", items: [{ product_id: "p1", quantity: 0 }] } });
  check(`${label}: handler error is an isError result`,
    r.isError === true && text(r).includes("quantity must be positive"), JSON.stringify(r));

  try {
    await client.callTool({ name: "no_such_tool", arguments: {} });
    check(`${label}: unknown tool is a protocol error`, false, "the call succeeded");
  } catch (e) {
    check(`${label}: unknown tool is a protocol error`, e?.code === -32602, String(e));
  }
}

async function viaStdio() {
  const client = new Client({ name: "mcpgen-e2e", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: server, args: [], stderr: "inherit" }));
  try {
    await exercise("stdio", client);
  } finally {
    await client.close();
  }
}

// freePort asks the system for a free loopback port.
function freePort() {
  return new Promise((resolve, reject) => {
    const l = net.createServer();
    l.on("error", reject);
    l.listen(0, "127.0.0.1", () => {
      const { port } = l.address();
      l.close(() => resolve(port));
    });
  });
}

// waitForPort resolves once something accepts connections on port.
async function waitForPort(port, child) {
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const ok = await new Promise((resolve) => {
      const s = net.connect(port, "127.0.0.1", () => { s.end(); resolve(true); });
      s.on("error", () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not listen on port ${port}`);
}

async function viaHTTP() {
  const port = await freePort();
  const child = spawn(server, ["-http", `127.0.0.1:${port}`], { stdio: ["ignore", "ignore", "inherit"] });
  try {
    await waitForPort(port, child);
    const client = new Client({ name: "mcpgen-e2e", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
    try {
      await exercise("http", client);
    } finally {
      await client.close();
    }
  } finally {
    child.kill("SIGINT");
  }
}

for (const [label, run] of [["stdio", viaStdio], ["http", viaHTTP]]) {
  try {
    await run();
  } catch (e) {
    check(`${label}: session`, false, e?.stack ?? String(e));
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
