// Drives the basics example server with the TypeScript MCP SDK client,
// once over stdio and once over Streamable HTTP: it lists the tools, calls
// them and checks what comes back. Usage: node client.mjs PATH_TO_SERVER.
// Prints one line per check and a closing "N passed, M failed"; exits 1 on
// any failure.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { args, attempt, check, run } from "../harness.mjs";
import { session, text, transports } from "./session.mjs";

const [server] = args("node client.mjs PATH_TO_BASICS_SERVER");

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

const newClient = () => new Client({ name: "mcpgen-e2e", version: "1.0.0" });

await run(async () => {
  for (const transport of transports) {
    await attempt(`${transport}: session`, () => session(transport, { command: server, newClient }, (client) => exercise(transport, client)));
  }
});
