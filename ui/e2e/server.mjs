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

/**
 * A real OIDC provider on loopback for the dashboard's single sign-on: NAV's mock-oauth2-server (the one the Java
 * tests use, run from the api module's test classpath, which the build writes to api/target/test-classpath.txt)
 * with its interactive login page, where the test types the user and the claims its ID token carries. Its issuer
 * is `<url>/corp`.
 */
export async function startOidcProvider() {
  const classpathFile = join(root, "api/target/test-classpath.txt");
  if (!existsSync(classpathFile)) throw new Error(`${classpathFile} is missing: build the api module first`);
  const port = await freePort();
  const java = join(await javaHome(), "bin/java");
  const provider = spawn(
    java,
    ["-cp", readFileSync(classpathFile, "utf8").trim(), "no.nav.security.mock.oauth2.StandaloneMockOAuth2ServerKt"],
    {
      env: {
        ...process.env,
        SERVER_HOSTNAME: "127.0.0.1",
        SERVER_PORT: String(port),
        JSON_CONFIG: '{"interactiveLogin": true}',
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let log = "";
  provider.stdout.on("data", (d) => (log += d));
  provider.stderr.on("data", (d) => (log += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (provider.exitCode !== null) throw new Error(`the OIDC provider exited:\n${log.slice(-4000)}`);
    try {
      if ((await fetch(`${url}/corp/.well-known/openid-configuration`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the OIDC provider did not start in 60 s:\n${log.slice(-4000)}`);
    await new Promise((r) => setTimeout(r, 300));
  }
  return {
    issuer: `${url}/corp`,
    stop: async () => {
      provider.kill("SIGTERM");
      await new Promise((r) => (provider.exitCode !== null ? r() : provider.on("exit", r)));
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
