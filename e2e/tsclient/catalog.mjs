// Drives bench/cmd/catalog, 500 tools in tool search mode, with the
// TypeScript MCP SDK client on each of the three server paths (the
// built-in server, the official Go SDK and mcp-go), over stdio and
// Streamable HTTP: the listing of search mode, search_tools, call_tool,
// a call by name, and groups (SEP-2084), which only the built-in server
// serves. Usage: node catalog.mjs PATH_TO_CATALOG_SERVER. Prints one line
// per check and a closing "N passed, M failed"; exits 1 on any failure.
import { z } from "zod";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { args, attempt, check, run } from "../harness.mjs";
import { session, text, transports } from "./session.mjs";

const [server] = args("node catalog.mjs PATH_TO_CATALOG_SERVER");

const groupsKey = "io.modelcontextprotocol/groups";
const paths = ["builtin", "gosdk", "mcpgo"];
const GroupsResult = z.object({ groups: z.array(z.object({ name: z.string() }).passthrough()) }).passthrough();

async function exercise(label, path, client) {
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  check(`${label}: tools/list lists search_tools, call_tool and the pinned tool`,
    JSON.stringify(names) === `["search_tools","call_tool","compute_list_instances"]`, JSON.stringify(names));

  let r = await client.callTool({ name: "search_tools", arguments: { query: "restart the web server VM, it is frozen", limit: 3 } });
  const found = JSON.parse(text(r)).tools ?? [];
  check(`${label}: search_tools finds compute_reboot_instance first, with its schema`,
    !r.isError && found.length === 3 && found[0].name === "compute_reboot_instance" && found[0].inputSchema?.properties?.instance_id,
    JSON.stringify(found.map((t) => t.name)));

  r = await client.callTool({ name: "call_tool", arguments: { name: "compute_reboot_instance", arguments: { project: "p", instance_id: "i-1" } } });
  check(`${label}: call_tool calls the tool`, !r.isError && text(r) === "ok", JSON.stringify(r));
  r = await client.callTool({ name: "call_tool", arguments: { name: "compute_reboot_instance", arguments: { project: "p" } } });
  check(`${label}: call_tool passes the tool's argument errors`, r.isError && text(r).includes("instance_id"), JSON.stringify(r));
  r = await client.callTool({ name: "compute_stop_instance", arguments: { project: "p", instance_id: "i-1" } });
  check(`${label}: a tool not listed is called by name`, !r.isError && text(r) === "ok", JSON.stringify(r));

  const caps = client.getServerCapabilities() ?? {};
  const pinned = tools.find((t) => t.name === "compute_list_instances");
  if (path === "builtin") {
    // The client keeps a capability it does not know on some transports
    // and not on others, so the groups capability is checked by the Go
    // tests (runtime/mcptest TestGroups); groups/list is checked here.
    const g = await client.request({ method: "groups/list" }, GroupsResult);
    check(`${label}: groups/list`, g.groups.length === 19 && g.groups[0].name === "compute", JSON.stringify(g.groups.map((x) => x.name)));
    check(`${label}: a listed tool's groups`, JSON.stringify(pinned?._meta?.[groupsKey]) === `["compute"]`, JSON.stringify(pinned?._meta));
    check(`${label}: a found tool's groups`, JSON.stringify(found[0]._meta?.[groupsKey]) === `["compute"]`, JSON.stringify(found[0]._meta));
  } else {
    check(`${label}: no groups capability`, caps.groups === undefined, JSON.stringify(caps));
    let refused = false;
    try {
      await client.request({ method: "groups/list" }, GroupsResult);
    } catch {
      refused = true;
    }
    check(`${label}: groups/list is not served`, refused, "answered");
    check(`${label}: no groups in _meta`, pinned?._meta?.[groupsKey] === undefined && found[0]._meta?.[groupsKey] === undefined,
      JSON.stringify([pinned?._meta, found[0]._meta]));
  }
}

const newClient = () => new Client({ name: "mcpgen-catalog-e2e", version: "1.0.0" });

await run(async () => {
  for (const path of paths) {
    for (const transport of transports) {
      const label = `${path} ${transport}`;
      await attempt(`${label}: session`, () =>
        session(transport, { command: server, args: ["-sdk", path], newClient }, (client) => exercise(label, path, client)));
    }
  }
});
