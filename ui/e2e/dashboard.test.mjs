// End-to-end: the dashboard in Debian's Chromium (driven by playwright-core) against a real server on its
// embedded PostgreSQL, whose local pool runs the real runtime. Screenshots of the main pages go to
// ui/target/screenshots/, or to docs/ (the README's) with TRAINYARD_UPDATE_SCREENSHOTS=1: a test run leaves the
// tracked files as they were.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { chromium } from "playwright-core";
import { call, startOidcProvider, startServer } from "./server.mjs";

const root = resolve(import.meta.dirname, "../..");
// The demo job trains in about 11 s on two idle cores; a loaded machine takes many times longer.
const DEMO_TIMEOUT_MS = Number(process.env.TRAINYARD_E2E_DEMO_TIMEOUT_S ?? 1800) * 1000;
const screenshots =
  process.env.TRAINYARD_UPDATE_SCREENSHOTS === "1" ? resolve(root, "docs") : resolve(root, "ui/target/screenshots");
const screenshot = (name) => resolve(screenshots, name);
let server;
let provider;
let browser;
let page;
let demoId;
// What the browser reported against the pages' Content-Security-Policy, and scripts that failed: none expected.
const policyViolations = [];
const pageErrors = [];

before(async () => {
  // One CPU slot: a second job must wait in the queue while the first runs.
  // A sample of each job's CPU and memory every second: the demo job's few seconds make a chart.
  // An OIDC provider for single sign-on, whose group ml-ranking makes an editor of the project ranking.
  provider = await startOidcProvider();
  server = await startServer([
    "--trainyard.local.cpu-slots=1",
    "--trainyard.local.system-metrics-interval=1s",
    `--trainyard.security.oidc.login.issuer-uri=${provider.issuer}`,
    "--trainyard.security.oidc.login.client-id=trainyard-dashboard",
    "--trainyard.security.oidc.user-claim=email",
    "--trainyard.security.oidc.group-roles.ml-ranking=ranking:editor",
  ]);
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: ["--no-sandbox"],
  });
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.setDefaultTimeout(30_000);
  // Chromium logs each blocked load or inline script as a console error; the event also catches what it does not log.
  await page.addInitScript(() =>
    document.addEventListener("securitypolicyviolation", (e) =>
      console.error(`Content Security Policy violation: ${e.effectiveDirective} blocked ${e.blockedURI || "inline"}`),
    ),
  );
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy/i.test(message.text())) {
      policyViolations.push(`${page.url()}: ${message.text()}`);
    }
  });
  page.on("pageerror", (error) => pageErrors.push(`${page.url()}: ${error.message}`));
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await provider?.stop();
});

/** A job whose trainer sleeps, so it stays RUNNING (or QUEUED behind another) until cancelled. */
function sleeper(name) {
  return {
    jobName: name,
    taskConfig: `taskMetadata:
  nodeAnchorBasedLinkPredictionTaskMetadata:
    supervisionEdgeTypes: []
featureFlags:
  should_run_glt_backend: "True"
sharedConfig:
  trainedModelMetadata:
    trainedModelUri: outputs/model.pt
trainerConfig:
  command: "python3 -u -c 'import time; print(\\"sleeping\\"); time.sleep(600)'"
`,
    resourceConfig: RESOURCE_CONFIG,
  };
}

const RESOURCE_CONFIG = `sharedResourceConfig:
  resourceLabels:
    cost_resource_group: trainyard-e2e
  commonComputeConfig:
    project: local-project
    region: us-central1
    tempAssetsBucket: gs://local-temp
    tempRegionalAssetsBucket: gs://local-temp-regional
    permAssetsBucket: gs://local-perm
    tempAssetsBqDatasetName: e2e_temp
    embeddingBqDatasetName: e2e_embeddings
    gcpServiceAccountEmail: trainer@local-project.iam.gserviceaccount.com
    dataflowRunner: DirectRunner
trainerResourceConfig:
  localTrainerConfig:
    numWorkers: 1
`;

test("signs in with a token; the session cookie is HttpOnly, so page scripts never see a credential", async () => {
  const dashboard = await page.goto(server.url + "/");
  assert.match(dashboard.headers()["content-security-policy"], /script-src 'self';/);
  await page.getByLabel("API token").fill(server.token);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("link", { name: "Submit" }).waitFor();
  assert.equal(await page.evaluate(() => document.cookie.includes("TRAINYARD_SESSION")), false);
  assert.equal(await page.evaluate(() => JSON.stringify(localStorage).includes("ty_")), false);
  const cookies = await page.context().cookies();
  const session = cookies.find((c) => c.name === "TRAINYARD_SESSION");
  assert.ok(session?.httpOnly);
  assert.equal(session.sameSite, "Strict");
});

test("signs in through the organisation's OIDC provider: the same HttpOnly session, roles from the groups", async () => {
  await call(server, "POST", "/projects", { name: "ranking" });
  // A browser of its own (no session yet), which reaches nothing but this machine: the provider's page names a CDN.
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) => route.abort());
  const person = await context.newPage();
  await person.goto(server.url + "/");
  await person.getByRole("link", { name: "Sign in with single sign-on" }).click();
  // The provider's own login page, reached with a PKCE challenge.
  assert.match(person.url(), /^http:\/\/127\.0\.0\.1:\d+\/corp\/authorize\?.*code_challenge_method=S256/);
  await person.locator('input[name="username"]').fill("alice");
  await person.locator('textarea[name="claims"]').fill('{"email": "alice@example.com", "groups": ["ml-ranking"]}');
  await person.getByRole("button", { name: "Sign-in" }).click();
  await person.getByRole("link", { name: "Submit" }).waitFor();
  assert.equal(await person.locator("header .user").textContent(), "oidc:alice@example.comSign out");
  const session = (await context.cookies()).find((c) => c.name === "TRAINYARD_SESSION");
  assert.ok(session?.httpOnly);
  assert.equal(session.sameSite, "Strict");
  const roles = await person.evaluate(async () => (await (await fetch("/session")).json()).roles);
  assert.deepEqual(roles, { ranking: "EDITOR" });
  await context.close();
});

test("a bad config shows the field error at the line of the field", async () => {
  await page.getByRole("link", { name: "Submit" }).click();
  await page.getByLabel("Job name").fill("bad_config");
  await page
    .getByLabel("Upload resourceConfig")
    .setInputFiles(resolve(root, "examples/link-prediction/resource_config.yaml"));
  const bad =
    "graphMetadata:\n  nodeTypes: [user]\ntrainerConfig:\n  command: python -m trainyard_runtime.train\n  trainerArgs:\n    lr: '0.1'\n";
  await page
    .getByLabel("Upload taskConfig")
    .setInputFiles({ name: "task_config.yaml", mimeType: "text/yaml", buffer: Buffer.from(bad) });
  await page.getByRole("button", { name: "Submit", exact: true }).click();
  const error = page.locator(".line-errors li", { hasText: "taskConfig.trainerConfig" }).first();
  await error.waitFor();
  assert.match(await error.textContent(), /^line 3: taskConfig\.trainerConfig/);
  await page.locator(".cm-lintRange-error").first().waitFor();
  await page.screenshot({ path: screenshot("dashboard-submit-error.png") });
});

test("submits the demo job from the Submit page, follows its live log, searches it and sees it succeed", async () => {
  await page.getByRole("link", { name: "Submit" }).click();
  await page.getByLabel("Job name").fill("demo_link_prediction");
  await page.getByLabel("Labels").fill("purpose=demo");
  // The backends offered are the server's (GET /backends); the demo leaves the choice to its resource config.
  await page
    .getByLabel("Backend")
    .locator("option", { hasText: /^local$/ })
    .waitFor({ state: "attached" });
  await page.getByLabel("Upload taskConfig").setInputFiles(resolve(root, "examples/link-prediction/task_config.yaml"));
  await page
    .getByLabel("Upload resourceConfig")
    .setInputFiles(resolve(root, "examples/link-prediction/resource_config.yaml"));
  await page.getByRole("button", { name: "Preview launch plan" }).click();
  assert.match(await page.getByTestId("launch-plan").textContent(), /trainyard_runtime\.train/);
  await page.getByRole("button", { name: "Submit", exact: true }).dblclick();
  await page.waitForURL(/\/ui\/jobs\/[0-9a-f-]{36}$/);
  const id = page.url().split("/").at(-1);
  demoId = id;

  // The log follows live: lines arrive while the job runs.
  await page
    .getByTestId("log-status")
    .filter({ hasText: /[1-9][\d,]* lines · live/ })
    .waitFor({ timeout: 180_000 });
  await page.getByTestId("log-status").filter({ hasText: "ended SUCCEEDED" }).waitFor({ timeout: DEMO_TIMEOUT_MS });
  await page.locator(".chip", { hasText: "SUCCEEDED" }).first().waitFor();
  // An ended job can be run again, not cancelled.
  await page.getByRole("button", { name: "Retry", exact: true }).waitFor();
  assert.equal(await page.getByRole("button", { name: "Cancel", exact: true }).count(), 0);
  // The placement's fields as the server sends them, whatever the backend: the agent's node, without the kind tag.
  const placement = await page.locator('.summary dt:text-is("Placement") + dd').textContent();
  assert.match(placement, /(^| · )node \S+/);
  assert.doesNotMatch(placement, /\bkind\b/);

  await page.getByLabel("Search the log").fill("epoch");
  await page.getByRole("button", { name: "Next match" }).click();
  await page.locator(".log-line.current mark").first().waitFor();
  assert.match(await page.locator(".search-note").textContent(), /^line \d+/);
  await page.screenshot({ path: screenshot("dashboard-job-log.png") });

  // A double click submitted once: the Idempotency-Key was the same.
  const jobs = await call(server, "GET", "/jobs?namePrefix=demo_link_prediction");
  assert.equal(jobs.jobs.length, 1);
  assert.equal(jobs.jobs[0].id, id);
});

test("the demo job's Metrics tab charts its scalars by step or time, train/loss among them", async () => {
  await page.getByRole("tab", { name: "Metrics" }).click();
  const loss = page.locator('[data-testid="metric-chart"][data-tag="train/loss"]');
  await loss.locator("canvas").first().waitFor();
  await loss.locator(".u-legend", { hasText: "attempt 1" }).waitFor();
  assert.match(await loss.locator(".chart-note").textContent(), /^[1-9][\d,]* points/);
  assert.ok(
    (await page.getByTestId("metric-chart").count()) > 3,
    "a chart per tag: loss, learning rate, rates, validation, test",
  );
  // The test metrics are written once: their numbers, not a chart of one dot.
  const testMetric = page.locator('[data-testid="metric-chart"][data-tag^="test/"]').first();
  await testMetric.getByTestId("metric-values").waitFor();
  assert.equal(await testMetric.locator("canvas").count(), 0);
  await page.getByText("The job succeeded.").waitFor();
  await page.getByLabel("Time since start").check();
  await loss.locator(".u-legend", { hasText: "seconds" }).waitFor();
  await page.getByLabel("Step", { exact: true }).check();
  await loss.scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshot("dashboard-job-metrics.png") });
});

test("the demo job's System tab charts what it used of the host, summed up on the job page", async () => {
  await page.getByRole("tab", { name: "System" }).click();
  const cpu = page.locator('[data-testid="metric-chart"][data-tag="rank0/cpu_percent"]');
  await cpu.locator("canvas").first().waitFor();
  assert.match(
    await cpu.locator("figcaption").textContent(),
    /^Worker 0 · CPU \(100 % is one core\) avg [\d.,]+ % · peak [\d.,]+ %$/,
  );
  const memory = page.locator('[data-testid="metric-chart"][data-tag="rank0/rss_bytes"]');
  assert.match(
    await memory.locator("figcaption").textContent(),
    /^Worker 0 · resident memory avg [\d.]+ GiB · peak [\d.]+ GiB$/,
  );
  assert.match(await page.getByTestId("job-usage").textContent(), /^CPU \d+ % avg, \d+\.\d GiB peak RSS$/);
  assert.equal(
    await page.getByTestId("usage-summary").textContent(),
    await page.getByTestId("job-usage").textContent(),
  );
  await page.screenshot({ path: screenshot("dashboard-job-system.png") });
});

test("compares two jobs picked on the Jobs page: their train/loss curves on one chart, and TensorBoard's comparison linked", async () => {
  // A shorter run of the demo with another learning rate, submitted through the API.
  const task = readFileSync(resolve(root, "examples/link-prediction/task_config.yaml"), "utf8")
    .replace('num_max_train_batches: "300"', 'num_max_train_batches: "60"')
    .replace('learning_rate: "0.005"', 'learning_rate: "0.02"');
  const resource = readFileSync(resolve(root, "examples/link-prediction/resource_config.yaml"), "utf8");
  const short = await call(server, "POST", "/jobs", {
    jobName: "demo_short_run",
    taskConfig: task,
    resourceConfig: resource,
  });
  let state;
  await waitFor(
    async () =>
      ["SUCCEEDED", "FAILED", "CANCELLED"].includes((state = (await call(server, "GET", `/jobs/${short.id}`)).state)),
    DEMO_TIMEOUT_MS,
  );
  assert.equal(state, "SUCCEEDED");

  await page.getByRole("link", { name: "Jobs", exact: true }).click();
  await page.getByLabel("Select demo_link_prediction", { exact: true }).check();
  await page.getByLabel("Select demo_short_run", { exact: true }).check();
  await page.getByRole("button", { name: "Compare 2 selected" }).click();
  await page.waitForURL(/\/ui\/compare\?jobs=/);
  assert.deepEqual(new URL(page.url()).searchParams.get("jobs").split(",").sort(), [demoId, short.id].sort());

  const loss = page.locator('[data-testid="metric-chart"][data-tag="train/loss"]');
  await loss.locator("canvas").first().waitFor();
  await loss.locator(".u-legend", { hasText: "demo_link_prediction" }).filter({ hasText: "demo_short_run" }).waitFor();
  const tensorBoard = page.getByRole("link", { name: "Open in TensorBoard" });
  assert.match(
    await tensorBoard.getAttribute("href"),
    new RegExp(`^/tensorboard\\?jobs=${page.url().split("jobs=")[1]}$`),
  );
  await waitFor(async () => (await page.locator(".chart-note", { hasText: "loading" }).count()) === 0, 60_000);
  await loss.scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshot("dashboard-compare.png") });
});

test("shows the pool and the queue, cancels a running job, and bulk-cancels a queued one", async () => {
  const running = await call(server, "POST", "/jobs", sleeper("sleeper_running"));
  await waitFor(async () => (await call(server, "GET", `/jobs/${running.id}`)).state === "RUNNING");
  const queued = await call(server, "POST", "/jobs", sleeper("sleeper_queued"));

  await page.getByRole("link", { name: "Pool" }).click();
  await page.locator(".agent .chip", { hasText: "ACTIVE" }).first().waitFor();
  await page.locator(".agent", { hasText: "sleeper_running" }).waitFor();
  await page.screenshot({ path: screenshot("dashboard-pool.png") });

  await page.getByRole("link", { name: "Queue" }).click();
  const queuedRow = page.getByTestId("queued-job").filter({ hasText: "sleeper_queued" });
  await queuedRow.waitFor();
  assert.match(await queuedRow.locator(".reason").textContent(), /needs 1 CPU slot\(s\) on one host/);
  await page.screenshot({ path: screenshot("dashboard-queue.png") });

  await page.getByRole("link", { name: "Jobs", exact: true }).click();
  await page.locator(".grid-row", { hasText: "sleeper_queued" }).waitFor();
  await page.screenshot({ path: screenshot("dashboard-jobs.png") });
  // At 1,400 and 1,024 px the columns fit the page, and the times are whole.
  for (const width of [1400, 1024]) {
    await page.setViewportSize({ width, height: 900 });
    const row = page.locator(".grid-row", { hasText: "sleeper_queued" });
    const right = await row
      .locator(".cell")
      .last()
      .evaluate((cell) => cell.getBoundingClientRect().right);
    assert.ok(right <= width, `the last column ends at ${right} px, past the page's ${width} px`);
    const cutTimes = await page
      .locator(".grid-row .cell time")
      .evaluateAll(
        (times) => times.filter((time) => time.parentElement.scrollWidth > time.parentElement.clientWidth).length,
      );
    assert.equal(cutTimes, 0, `${cutTimes} time(s) cut at ${width} px`);
  }
  await page.setViewportSize({ width: 1400, height: 900 });

  await page.getByRole("link", { name: "sleeper_running" }).click();
  await page.getByRole("button", { name: "Cancel", exact: true }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Confirm" }).click();
  await page.locator(".job-head .chip", { hasText: "CANCELLED" }).waitFor({ timeout: 60_000 });

  await page.getByRole("link", { name: "Jobs", exact: true }).click();
  await page.getByLabel("Select sleeper_queued").check();
  await page.getByRole("button", { name: "Cancel 1 selected" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Confirm" }).click();
  await page
    .locator(".grid-row", { hasText: "sleeper_queued" })
    .locator(".chip", { hasText: "CANCELLED" })
    .waitFor({ timeout: 60_000 });
  assert.match((await call(server, "GET", `/jobs/${queued.id}`)).state, /CANCELL/);
});

test("TensorBoard's pages, proxied, run under TensorBoard's own policy rather than the dashboard's", async () => {
  // Everything TensorBoard's page asks for is found (its fonts among them).
  const notFound = [];
  page.on("response", (response) => {
    if (response.status() === 404) notFound.push(new URL(response.url()).pathname);
  });
  const tensorBoard = await page.goto(`${server.url}/jobs/${demoId}/tensorboard/`, { timeout: 180_000 });
  assert.equal(tensorBoard.status(), 200);
  const policy = tensorBoard.headers()["content-security-policy"];
  assert.match(policy, /script-src 'self' 'unsafe-eval'/);
  assert.doesNotMatch(policy, /frame-ancestors 'none'/);
  // TensorBoard's app ran: it lists the demo's run and draws its cards (the first group, test/…, is open).
  await page.getByText("demo_link_prediction/attempt-1").first().waitFor({ timeout: 120_000 });
  await page.getByText("test/loss").first().waitFor();
  await page.waitForLoadState("networkidle");
  assert.deepEqual(notFound, []);
});

test("every page visited ran without a Content-Security-Policy violation or a script error", () => {
  assert.deepEqual(policyViolations, []);
  assert.deepEqual(pageErrors, []);
});

async function waitFor(condition, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 500));
  }
}
