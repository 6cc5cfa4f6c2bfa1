// Reads the Agent Skills of the kb and conformance examples with the
// TypeScript client 2.4.0 (@modelcontextprotocol/client) and its skills
// support (ext/skills), as a host does: it lists every skill, gets one,
// reads every file, each verified by the client against its entry's
// digest and size (and SKILL.md against the frontmatter), and checks the
// digests once more itself; it reads a directory. Over stdio and
// Streamable HTTP, negotiating the 2025 handshake and, with
// versionNegotiation auto, 2026-07-28; kb on the built-in server and on
// go-sdk, and on mcp-go, which serves no skills, that none are declared.
// Usage: node skills.mjs PATH_TO_KB PATH_TO_CONFORMANCE. Prints one line
// per check and "N passed, M failed"; exits 1 on any failure.
import { createHash } from "node:crypto";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { SkillsClient } from "@modelcontextprotocol/client/ext/skills";
import { args, attempt, check, run } from "../harness.mjs";
import { session, transports } from "./session.mjs";

const [kb, conformance] = args("node skills.mjs PATH_TO_KB PATH_TO_CONFORMANCE", 2);

// The servers: the skills each serves, by URI, none on mcp-go.
const targets = [
  { label: "kb builtin", cmd: kb, args: ["-sdk", "builtin"], skills: ["skill://using-kb/SKILL.md"] },
  { label: "kb gosdk", cmd: kb, args: ["-sdk", "gosdk"], skills: ["skill://using-kb/SKILL.md"] },
  { label: "kb mcpgo", cmd: kb, args: ["-sdk", "mcpgo"], skills: [] },
  {
    label: "conformance", cmd: conformance, args: [], skills: [
      "skill://acme/billing/refunds/SKILL.md", "skill://git-workflow/SKILL.md",
      "skill://pdf-processing/SKILL.md", "skill://pdf-processing/forms/fill-form/SKILL.md",
    ],
  },
];

const digest = (bytes) => "sha256:" + createHash("sha256").update(bytes).digest("hex");

async function exercise(label, target, client) {
  const skills = new SkillsClient(client);
  if (target.skills.length === 0) {
    check(`${label}: no skills declared`, !skills.supported, "the server declares the skills extension");
    return;
  }
  check(`${label}: the skills extension with directoryRead`, skills.supported && skills.directoryRead, `supported ${skills.supported}, directoryRead ${skills.directoryRead}`);
  const { skills: entries } = await skills.list();
  const uris = entries.map((e) => e.uri).sort();
  check(`${label}: skills/list lists every skill`, JSON.stringify(uris) === JSON.stringify(target.skills), JSON.stringify(uris));
  const { skill } = await skills.get(entries[0].uri);
  check(`${label}: skills/get`, skill.uri === entries[0].uri && JSON.stringify(skill.frontmatter) === JSON.stringify(entries[0].frontmatter), JSON.stringify(skill));
  let files = 0;
  let bad = [];
  for (const entry of entries) {
    for (const r of entry.resources) {
      const f = await skills.read(entry, r.uri); // throws SkillVerificationError on any mismatch
      files++;
      if (!f.verified || f.bytes.length !== r.size || digest(f.bytes) !== r.digest) {
        bad.push(`${r.uri}: ${f.bytes.length} bytes, ${digest(f.bytes)}; the entry says ${r.size}, ${r.digest}`);
      }
    }
  }
  check(`${label}: every file read and verified (${files})`, files > 0 && bad.length === 0, bad.join("; "));
  const root = entries[0].uri.slice(0, -"/SKILL.md".length);
  const { resources } = await skills.readDirectory(root);
  check(`${label}: resources/directory/read of ${root}`, resources.some((r) => r.uri === entries[0].uri), JSON.stringify(resources));
}

function newClient(mode) {
  const opts = mode === "auto" ? { versionNegotiation: { mode: "auto" } } : {};
  return new Client({ name: "mcpgen-skills-e2e", version: "1.0.0" }, opts);
}

// sdk2 is the transports of the 2.x client, which session takes.
const sdk2 = { StdioClientTransport, StreamableHTTPClientTransport };

await run(async () => {
  for (const target of targets) {
    for (const transport of transports) {
      for (const mode of ["legacy", "auto"]) {
        const label = `${target.label} ${transport} ${mode}`;
        const opts = { command: target.cmd, args: target.args, newClient: () => newClient(mode), sdk: sdk2, stderr: "ignore" };
        await attempt(`${label}: session`, () => session(transport, opts, (client) => exercise(label, target, client)));
      }
    }
  }
});
