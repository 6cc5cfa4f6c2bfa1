// How the TypeScript client scripts of this directory reach a server:
// over stdio, or over Streamable HTTP on a free loopback port.
import { spawn } from "node:child_process";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { freePort, waitForPort } from "../harness.mjs";

// The transports every script runs over, in order.
export const transports = ["stdio", "http"];

// sdk1 is the 1.x SDK's transports, which session uses unless told.
const sdk1 = { StdioClientTransport, StreamableHTTPClientTransport };

// session connects a client of newClient to the server command over
// transport ("stdio", or "http", which starts command with -http), runs
// fn with the client, and closes both. sdk holds the transport classes
// of the client's package; stderr is what becomes of the server's.
export async function session(transport, { command, args = [], newClient, sdk = sdk1, stderr = "inherit" }, fn) {
  if (transport === "stdio") {
    return withClient(newClient(), new sdk.StdioClientTransport({ command, args, stderr }), fn);
  }
  const port = await freePort();
  const child = spawn(command, [...args, "-http", `127.0.0.1:${port}`], { stdio: ["ignore", "ignore", stderr] });
  try {
    await waitForPort(port, child);
    await withClient(newClient(), new sdk.StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)), fn);
  } finally {
    child.kill("SIGINT");
  }
}

async function withClient(client, transport, fn) {
  await client.connect(transport);
  try {
    await fn(client);
  } finally {
    await client.close();
  }
}

// text joins the text blocks of a tool's result.
export function text(result) {
  return (result.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("\n");
}
