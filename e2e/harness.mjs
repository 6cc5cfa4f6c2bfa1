// What the end-to-end scripts of this directory share: the tally of
// their checks, one line a check ("ok   NAME" or "FAIL NAME: DETAIL")
// and a closing "N passed, M failed", after which a script exits 1 on
// any failure; the run that stops what a script started; and loopback
// ports. It imports no package, so that each script's own may differ.
import net from "node:net";

let passed = 0;
let failed = 0;

// check records one check and prints its line.
export function check(name, ok, detail) {
  if (ok) {
    passed++;
    console.log(`ok   ${name}`);
  } else {
    failed++;
    console.log(`FAIL ${name}: ${detail}`);
  }
}

// args returns the script's n arguments, or prints its usage and exits 2
// when one is missing.
export function args(usage, n = 1) {
  const got = process.argv.slice(2, 2 + n);
  if (got.length < n || got.some((a) => !a)) {
    console.error(`usage: ${usage}`);
    process.exit(2);
  }
  return got;
}

// attempt runs fn; a failure of it is the failed check name.
export async function attempt(name, fn) {
  try {
    await fn();
  } catch (e) {
    check(name, false, e?.stack ?? String(e));
  }
}

// run runs main with a list it may push child processes and servers on,
// a failure of it being the failed check "the run". It stops them all
// when main ends or on SIGTERM, then finishes.
export async function run(main) {
  const started = [];
  const stop = () => {
    for (const c of started) {
      if (c.kill) c.kill("SIGTERM");
      else c.close();
    }
  };
  process.on("SIGTERM", () => {
    stop();
    process.exit(1);
  });
  try {
    await attempt("the run", () => main(started));
  } finally {
    stop();
  }
  finish();
}

// finish prints the tally and exits, 1 on any failure.
export function finish() {
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

// waitFor resolves when pred holds, or after ms, with pred's answer.
export async function waitFor(pred, ms) {
  for (let waited = 0; waited < ms && !pred(); waited += 20) {
    await new Promise((r) => setTimeout(r, 20));
  }
  return pred();
}

// freePort returns a loopback port that was free a moment ago.
export async function freePort() {
  const srv = net.createServer();
  await new Promise((resolve, reject) => {
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", resolve);
  });
  const { port } = srv.address();
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

// waitForPort resolves once something accepts connections on port, and
// fails when child exits first or after ten seconds.
export async function waitForPort(port, child) {
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const ok = await new Promise((resolve) => {
      const s = net.connect(port, "127.0.0.1", () => {
        s.end();
        resolve(true);
      });
      s.on("error", () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not listen on port ${port}`);
}
