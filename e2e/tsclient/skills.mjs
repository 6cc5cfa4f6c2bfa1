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
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { SkillsClient } from "@modelcontextprotocol/client/ext/skills";

const [kb, conformance] = process.argv.slice(2);
if (!kb || !conformance) {
  console.error("usage: node skills.mjs PATH_TO_KB PATH_TO_CONFORMANCE");
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

async function viaStdio(target, mode) {
  const client = newClient(mode);
  await client.connect(new StdioClientTransport({ command: target.cmd, args: target.args, stderr: "ignore" }));
  try {
    await exercise(`${target.label} stdio ${mode}`, target, client);
  } finally {
    await client.close();
  }
}

// listen starts the server on a free port and resolves with its URL,
// which it prints on stderr.
function listen(target) {
  const child = spawn(target.cmd, [...target.args, "-http", "127.0.0.1:0"], { stdio: ["ignore", "ignore", "pipe"] });
  return new Promise((resolve, reject) => {
    let err = "";
    child.stderr.on("data", (d) => {
      err += d;
      const m = err.match(/http:\/\/127\.0\.0\.1:\d+\/mcp/);
      if (m) resolve({ child, url: m[0] });
    });
    child.on("exit", (code) => reject(new Error(`server exited with ${code}: ${err}`)));
  });
}

async function viaHTTP(target, mode) {
  const { child, url } = await listen(target);
  try {
    const client = newClient(mode);
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      await exercise(`${target.label} http ${mode}`, target, client);
    } finally {
      await client.close();
    }
  } finally {
    child.kill("SIGINT");
  }
}

for (const target of targets) {
  for (const [transport, run] of [["stdio", viaStdio], ["http", viaHTTP]]) {
    for (const mode of ["legacy", "auto"]) {
      try {
        await run(target, mode);
      } catch (e) {
        check(`${target.label} ${transport} ${mode}: session`, false, e?.stack ?? String(e));
      }
    }
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
