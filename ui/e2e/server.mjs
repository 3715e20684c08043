// Starts a real Trainyard server for the end-to-end tests: the built jar, its embedded PostgreSQL in a fresh data
// folder, the local pool of this host running the real runtime (runtime/.venv). TRAINYARD_URL and
// TRAINYARD_TOKEN point the tests at a server already running instead.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, existsSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createServer } from "node:net";

const root = resolve(import.meta.dirname, "../..");

function freePort() {
  return new Promise((ok) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => ok(port));
    });
  });
}

function javaHome() {
  if (process.env.JAVA_HOME && !process.env.JAVA_HOME.includes("17")) return process.env.JAVA_HOME;
  const found = spawn("bash", ["-c", `source ${root}/scripts/select-jdk.sh >/dev/null && echo $JAVA_HOME`]);
  return new Promise((ok) => {
    let out = "";
    found.stdout.on("data", (d) => (out += d));
    found.on("exit", () => ok(out.trim()));
  });
}

export async function startServer(extraArguments = []) {
  if (process.env.TRAINYARD_URL) {
    return { url: process.env.TRAINYARD_URL, token: process.env.TRAINYARD_TOKEN, stop: async () => {} };
  }
  const jar = join(root, "api/target/trainyard-server.jar");
  if (!existsSync(jar)) throw new Error(`${jar} is missing: build it first (mvn -pl api -am package -DskipTests)`);
  const data = mkdtempSync(join(tmpdir(), "trainyard-e2e-"));
  const port = await freePort();
  const java = join(await javaHome(), "bin/java");
  const server = spawn(
    java,
    [
      "-jar",
      jar,
      `--server.port=${port}`,
      `--trainyard.data-dir=${data}/data`,
      `--trainyard.config-roots=${root}/examples`,
      ...extraArguments,
    ],
    { cwd: root, stdio: ["ignore", "pipe", "pipe"], detached: false },
  );
  let log = "";
  server.stdout.on("data", (d) => (log += d));
  server.stderr.on("data", (d) => (log += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the server exited:\n${log.slice(-4000)}`);
    try {
      if ((await fetch(`${url}/actuator/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the server did not start in 180 s:\n${log.slice(-4000)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  const token = readFileSync(join(data, "data/admin-token"), "utf8").trim();
  return {
    url,
    token,
    log: () => log,
    stop: async () => {
      server.kill("SIGTERM");
      await new Promise((r) => (server.exitCode !== null ? r() : server.on("exit", r)));
      rmSync(data, { recursive: true, force: true });
    },
  };
}

/** A call to the API with the admin's bearer token (for test set-up, not for what the browser does). */
export async function call(server, method, path, body) {
  const response = await fetch(server.url + path, {
    method,
    headers: { Authorization: `Bearer ${server.token}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}
