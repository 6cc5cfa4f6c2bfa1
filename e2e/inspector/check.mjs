// Drives the kb example (examples/kb) over stdio with the MCP Inspector's
// CLI mode, as a user checking a server from a terminal would:
// tools/list, prompts/list, resources/list, resources/templates/list and
// tools/call, each a run of `mcp-inspector --cli SERVER --method ...`.
// Usage: node check.mjs PATH_TO_KB_SERVER WORKDIR. Prints one line per
// check and a closing "N passed, M failed"; exits 1 on any failure.
//
// Each run starts in WORKDIR, a directory whose parent holds a
// package.json: an earlier note found that the Inspector's CLI fails
// unless the parent of its working directory has one (a packaging bug of
// the Inspector). 2.12.0 ran without it here, but running so keeps a
// version with that bug working.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { args, check, finish } from "../harness.mjs";

const [server, workdir] = args("node check.mjs PATH_TO_KB_SERVER WORKDIR", 2);
const here = path.dirname(fileURLToPath(import.meta.url));
const bin = path.join(here, "node_modules", ".bin");
const inspector = path.join(bin, "mcp-inspector");

// inspect runs the Inspector's CLI with this Node (22, from the node
// package; the Inspector needs it) first on PATH, and returns its JSON
// answer, or the failure as text.
function inspect(...args) {
  const run = spawnSync(process.execPath, [inspector, "--cli", server, ...args], {
    cwd: workdir,
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}` },
  });
  if (run.status !== 0) {
    return { error: `exit ${run.status}: ${run.stderr || run.stdout}`, status: run.status, output: run.stdout + run.stderr };
  }
  try {
    return JSON.parse(run.stdout);
  } catch (e) {
    return { error: `not JSON (${e.message}): ${run.stdout}` };
  }
}

const names = (list) => (list ?? []).map((x) => x.name).join(",");

const tools = inspect("--method", "tools/list");
check("tools/list names the eight tools", names(tools.tools) === "link_account,suggest_tags,search_articles,add_note,add_article,read_article,outline_article,show_article", tools.error ?? names(tools.tools));
const search = (tools.tools ?? []).find((t) => t.name === "search_articles");
check("search_articles has its input and output schemas",
  search?.inputSchema?.properties?.limit?.anyOf?.[0]?.maximum === 20 && search?.outputSchema?.properties?.hits?.type === "array",
  JSON.stringify(search));

const prompts = inspect("--method", "prompts/list");
check("prompts/list names summarize and compare", names(prompts.prompts) === "summarize,compare", prompts.error ?? names(prompts.prompts));

const resources = inspect("--method", "resources/list");
check("resources/list has kb://index", (resources.resources ?? []).some((r) => r.uri === "kb://index"), resources.error ?? JSON.stringify(resources));

const templates = inspect("--method", "resources/templates/list");
check("resources/templates/list has the two article templates",
  (templates.resourceTemplates ?? []).map((t) => t.uriTemplate).join(" ") === "kb://articles/{id} kb://articles/{id}/{format}",
  templates.error ?? JSON.stringify(templates));

const call = inspect("--method", "tools/call", "--tool-name", "search_articles", "--tool-arg", "query=backup", "limit=2");
check("tools/call search_articles finds the backups article",
  !call.isError && call.structuredContent?.hits?.[0]?.uri === "kb://articles/2",
  call.error ?? JSON.stringify(call));

// The CLI answers a result with isError: true by exit status 5 and an
// error object of its own instead of the result.
const bad = inspect("--method", "tools/call", "--tool-name", "add_note", "--tool-arg", "id=1");
check("tools/call with an argument missing is an isError result",
  bad.status === 5 && (bad.output ?? "").includes("tool_is_error"),
  bad.error ?? JSON.stringify(bad));

finish();
