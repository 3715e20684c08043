// The dashboard benchmark's steps (see run.sh): make the big log, seed the jobs, measure in Chromium.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(new URL("../../ui/package.json", import.meta.url));
const { chromium } = require("playwright-core");
const [step, url, tokenFile, arg] = process.argv.slice(2);
const token = readFileSync(tokenFile, "utf8").trim();

async function call(method, path, body) {
  const response = await fetch(url + path, {
    method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

const RESOURCE = `sharedResourceConfig:
  resourceLabels: {cost_resource_group: bench}
  commonComputeConfig: {project: p, region: us-central1, tempAssetsBucket: gs://t, tempRegionalAssetsBucket: gs://t,
    permAssetsBucket: gs://p, tempAssetsBqDatasetName: t, embeddingBqDatasetName: e,
    gcpServiceAccountEmail: t@p.iam.gserviceaccount.com, dataflowRunner: DirectRunner}
trainerResourceConfig: {localTrainerConfig: {numWorkers: 1}}
`;
function job(name, program) {
  return {
    jobName: name,
    labels: { bench: "ui" },
    resourceConfig: RESOURCE,
    taskConfig: `taskMetadata: {nodeAnchorBasedLinkPredictionTaskMetadata: {supervisionEdgeTypes: []}}
featureFlags: {should_run_glt_backend: "True"}
sharedConfig: {trainedModelMetadata: {trainedModelUri: outputs/model.pt}}
trainerConfig:
  command: ${JSON.stringify(`python3 -u -c '${program}'`)}
`,
  };
}

if (step === "big-log") {
  const lines = Number(arg);
  const program = `import sys\nw = sys.stdout.write\nfor i in range(1, ${lines + 1}): w("\\x1b[32mstep\\x1b[0m %d loss=%.4f lr=0.001 some padding text to make a realistic line\\n" % (i, 1.0 / i))`;
  const { id } = await call("POST", "/jobs", job("big_log", `exec(${JSON.stringify(program)})`));
  for (;;) {
    const state = (await call("GET", `/jobs/${id}`)).state;
    if (["SUCCEEDED", "FAILED", "CANCELLED"].includes(state)) {
      const page = await call("GET", `/jobs/${id}/logs?after=0&limit=1`);
      console.error(`big job ${state}: ${page.lastSeq} log lines`);
      break;
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  console.log(id);
} else if (step === "seed") {
  const total = Number(arg);
  const started = Date.now();
  let next = 0;
  const body = job("seeded", "print(1)");
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < total) {
        const n = next++;
        await call("POST", "/jobs", { ...body, jobName: `seeded_${n}`, priority: n % 7 });
      }
    }),
  );
  console.log(`seeded ${total} jobs in ${((Date.now() - started) / 1000).toFixed(0)} s`);
} else if (step === "measure") {
  const bigJob = arg;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: ["--no-sandbox"] });
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.request.get(url + "/session");
  const xsrf = (await context.cookies()).find((c) => c.name === "XSRF-TOKEN").value;
  await context.request.post(url + "/session", { data: { token }, headers: { "X-XSRF-TOKEN": xsrf } });
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);

  // Time from navigation start to the first rendered row, each load in a fresh page load (cold app state).
  const firstPage = [];
  for (let i = 0; i < 5; i++) {
    await page.goto(url + "/ui/jobs");
    await page.locator(".grid-row").first().waitFor();
    firstPage.push(await page.evaluate(() => performance.now()));
  }
  firstPage.sort((a, b) => a - b);
  console.log(`jobs page, first rendered rows: p50 ${(firstPage[2] / 1000).toFixed(3)} s (loads: ${firstPage.map((t) => (t / 1000).toFixed(3)).join(", ")} s)`);

  await page.goto(url + `/ui/jobs/${bigJob}`);
  await page.getByTestId("log-status").filter({ hasText: /1,000,000 lines|ended/ }).waitFor();
  await page.locator(".log-line .text").first().waitFor();
  const openLog = await page.evaluate(() => performance.now());
  console.log(`big job's page with its log's last lines rendered: ${(openLog / 1000).toFixed(3)} s after navigation`);

  // Scroll from the start to the end in 200 steps, letting each step render, watching for long tasks.
  await page.evaluate(() => {
    window.longTasks = [];
    new PerformanceObserver((list) => list.getEntries().forEach((e) => window.longTasks.push(e.duration))).observe({ type: "longtask" });
  });
  await page.getByRole("button", { name: "⇤ Start" }).click();
  const scroll = await page.evaluate(async () => {
    const element = document.querySelector("[data-testid=log-lines]");
    const started = performance.now();
    const steps = 200;
    for (let i = 1; i <= steps; i++) {
      element.scrollTop = ((element.scrollHeight - element.clientHeight) * i) / steps;
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 30)));
    }
    // Wait until the last lines' text is there (their page fetched).
    while (!document.querySelector(".log-line:last-child .text")) await new Promise((r) => setTimeout(r, 20));
    return { seconds: (performance.now() - started) / 1000 };
  });
  const longTasks = await page.evaluate(() => window.longTasks);
  const worst = Math.max(0, ...longTasks);
  console.log(
    `scrolling the log start to end (200 steps): ${scroll.seconds.toFixed(1)} s, long tasks: ${longTasks.length}, ` +
      `longest ${worst.toFixed(0)} ms, over 200 ms: ${longTasks.filter((d) => d > 200).length}`,
  );
  await browser.close();
}
