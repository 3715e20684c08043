"""The chaos benchmark's driver (see run.sh): starts PostgreSQL 15, two replicas and a remote agent, submits
jobs with steady log output, kills and restarts parts at random, then waits for every job and counts."""

import argparse
import itertools
import json
import os
import random
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections import Counter, defaultdict

PG_BIN = "/usr/lib/postgresql/15/bin"
LINES = 300  # lines each attempt prints ...
LINE_PAUSE = 0.03  # ... one every 30 ms: about 9 s of steady output
TERMINAL = ("SUCCEEDED", "FAILED", "CANCELLED")

RESOURCE_CONFIG = """shared_resource_config:
  resource_labels:
    cost_resource_group: chaos
  common_compute_config:
    project: chaos
    region: us-central1
    temp_assets_bucket: gs://chaos-temp
    temp_regional_assets_bucket: gs://chaos-temp-regional
    perm_assets_bucket: gs://chaos-perm
    temp_assets_bq_dataset_name: chaos_temp
    embedding_bq_dataset_name: chaos_embeddings
    gcp_service_account_email: chaos@chaos.iam.gserviceaccount.com
    dataflow_runner: DirectRunner
trainer_resource_config:
  local_trainer_config:
    num_workers: 1
"""

# Each attempt records when it starts, every second while it runs, and when it ends, so attempts that ran at
# the same time can be found afterwards (a killed attempt's last record is when it was last seen alive).
TRAINER = f"""import os, sys, time
job, attempt = os.environ['TRAINYARD_JOB_ID'], os.environ['TRAINYARD_ATTEMPT']
def record(what):
    with open(sys.argv[1], 'a') as f:
        f.write('%s %s %s %d\\n' % (what, job, attempt, time.time_ns()))
record('start')
last = time.time()
for i in range(1, {LINES} + 1):
    print('line', i, flush=True)
    time.sleep({LINE_PAUSE})
    if time.time() - last >= 1:
        record('alive')
        last = time.time()
record('end')
"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def as_postgres(command):
    return (["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []) + command


class Chaos:
    def __init__(self, work, java):
        self.work, self.java = work, java
        self.pg_port = free_port()
        self.ports = {"replica-a": free_port(), "replica-b": free_port()}
        self.processes = {}
        self.token = None
        self.records = os.path.join(work, "records.txt")
        # Open for the whole run, for every PostgreSQL command; stop() closes it.
        self.log = open(os.path.join(work, "chaos.log"), "a")  # noqa: SIM115

    # --- parts -------------------------------------------------------------------------------------------
    def start_postgres(self):
        data = os.path.join(self.work, "pg")
        if not os.path.exists(data):
            subprocess.run(
                as_postgres([PG_BIN + "/initdb", "-D", data, "-U", "postgres", "-A", "trust", "--no-sync"]),
                check=True,
                stdout=self.log,
                stderr=self.log,
            )
            with open(os.path.join(data, "postgresql.conf"), "a") as conf:
                conf.write(
                    f"listen_addresses = '127.0.0.1'\nport = {self.pg_port}\nunix_socket_directories = '{self.work}'\n"
                    "max_connections = 200\n"
                )
        subprocess.run(
            as_postgres([PG_BIN + "/pg_ctl", "-D", data, "-l", os.path.join(self.work, "pg.log"), "-w", "start"]),
            check=True,
            stdout=self.log,
            stderr=self.log,
        )

    def crash_postgres(self):
        subprocess.run(
            as_postgres([PG_BIN + "/pg_ctl", "-D", os.path.join(self.work, "pg"), "-m", "immediate", "stop"]),
            stdout=self.log,
            stderr=self.log,
        )

    def start_replica(self, node):
        port = self.ports[node]
        log = os.path.join(self.work, node + ".log")
        # The replica writes to its own copy of the file descriptor; this one is closed once it is started.
        with open(log, "a") as out:
            self.processes[node] = subprocess.Popen(
                [
                    self.java,
                    "-Xmx512m",
                    "-jar",
                    os.path.join(self.work, "server.jar"),
                    f"--server.port={port}",
                    f"--spring.datasource.url=jdbc:postgresql://127.0.0.1:{self.pg_port}/postgres?user=postgres",
                    "--trainyard.data-dir=" + os.path.join(self.work, node),
                    "--trainyard.node-id=" + node,
                    "--trainyard.local.cpu-slots=2",
                    "--trainyard.security.rate-limits.submissions-per-second=1000",
                    # Longer than a replica takes to start again here, as the README advises for rolling restarts.
                    "--trainyard.agent.lease=45s",
                    # Unconfined trainers: they write their records to one file outside their work folders
                    # (see TRAINER).
                    "--trainyard.local.trainer-isolation=none",
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        deadline = time.time() + 180
        while time.time() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/actuator/health/liveness", timeout=2):
                    return
            except OSError:
                time.sleep(1)
        raise RuntimeError(node + " did not start: see " + log)

    def start_agent(self):
        servers = ",".join(f"http://127.0.0.1:{port}" for port in self.ports.values())
        with open(os.path.join(self.work, "agent.log"), "a") as out:
            self.processes["agent"] = subprocess.Popen(
                [
                    self.java,
                    "-Xmx256m",
                    "-jar",
                    os.path.join(self.work, "agent.jar"),
                    "--server=" + servers,
                    "--token=" + self.agent_token,
                    "--agent-id=remote-agent",
                    "--data-dir=" + os.path.join(self.work, "agent"),
                    "--cpu-slots=2",
                    "--trainer-isolation=none",
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
            )

    def kill(self, part, sig):
        process = self.processes[part]
        process.send_signal(sig)
        process.wait()

    # --- API, through whichever replica answers ----------------------------------------------------------
    def call(self, method, path, body=None, tries=60):
        for attempt in range(tries):
            port = list(self.ports.values())[attempt % 2]
            request = urllib.request.Request(
                f"http://127.0.0.1:{port}{path}",
                method=method,
                data=None if body is None else json.dumps(body).encode(),
                headers={"Authorization": "Bearer " + self.token, "Content-Type": "application/json"},
            )
            try:
                with urllib.request.urlopen(request, timeout=20) as answer:
                    return json.loads(answer.read() or b"null")
            except urllib.error.HTTPError as e:
                if e.code < 500:
                    raise RuntimeError(f"{method} {path}: {e.code} {e.read()[:300]}") from e
            except OSError:
                pass
            time.sleep(0.5)
        raise RuntimeError(f"no replica answered {method} {path}")

    def submit(self, number):
        command = f"python3 -u {os.path.join(self.work, 'trainer.py')} {self.records}"
        task = (
            "taskMetadata:\n  nodeAnchorBasedLinkPredictionTaskMetadata:\n    supervisionEdgeTypes: []\n"
            'featureFlags:\n  should_run_glt_backend: "True"\nsharedConfig:\n  trainedModelMetadata:\n'
            f"    trainedModelUri: outputs/model.pt\ntrainerConfig:\n  command: '{command}'\n"
        )
        body = {
            "jobName": f"chaos_{number}",
            "taskConfig": task,
            "resourceConfig": RESOURCE_CONFIG,
            "retryPolicy": {"maxAttempts": 5, "backoffSeconds": 1},
        }
        return self.call("POST", "/jobs", body, tries=1000)["id"]

    # --- the run -----------------------------------------------------------------------------------------
    def run(self, minutes):
        with open(os.path.join(self.work, "trainer.py"), "w") as f:
            f.write(TRAINER)
        self.start_postgres()
        self.start_replica("replica-a")
        with open(os.path.join(self.work, "replica-a", "admin-token")) as f:
            self.token = f.read().strip()
        self.start_replica("replica-b")
        self.agent_token = self.call("POST", "/agent-tokens", {"agentId": "remote-agent"})["token"]
        self.start_agent()

        ids, kills = [], Counter()
        end = time.time() + minutes * 60
        next_fault = time.time() + random.uniform(10, 20)
        while time.time() < end:
            ids.append(self.submit(len(ids)))
            if time.time() >= next_fault:
                kills[self.fault()] += 1
                next_fault = time.time() + random.uniform(10, 25)
            time.sleep(2)
        print("== faults: " + ", ".join(f"{what} {count}" for what, count in sorted(kills.items())), flush=True)
        print(f"== waiting for {len(ids)} jobs to end", flush=True)
        deadline = time.time() + 600
        jobs = {}
        while time.time() < deadline:
            jobs = {i: self.call("GET", "/jobs/" + i) for i in ids}
            if all(job["state"] in TERMINAL for job in jobs.values()):
                break
            time.sleep(5)
        self.report(ids, jobs)

    def fault(self):
        part = random.choice(["replica-a", "replica-b", "agent", "postgres"])
        pause = random.uniform(3, 10)
        if part == "postgres":
            what = "postgres crash"
            self.crash_postgres()
            time.sleep(pause)
            self.start_postgres()
        elif part == "agent":
            what = "agent SIGKILL"
            self.kill("agent", signal.SIGKILL)
            time.sleep(pause)
            self.start_agent()
        else:
            sig = random.choice([signal.SIGTERM, signal.SIGKILL])
            what = f"{part} {sig.name}"
            self.kill(part, sig)
            time.sleep(pause)
            self.start_replica(part)
        print(f"   {time.strftime('%H:%M:%S')} fault: {what}, back after {pause:.0f} s", flush=True)
        return what

    def report(self, ids, jobs):
        states = Counter(job["state"] for job in jobs.values())
        causes = Counter(job.get("failureCause") for job in jobs.values() if job["state"] == "FAILED")
        lost = duplicated = 0
        expected = [f"line {i}" for i in range(1, LINES + 1)]
        for job_id, job in jobs.items():
            if job["state"] != "SUCCEEDED":
                continue
            page = self.call("GET", f"/jobs/{job_id}/logs?limit=10000")
            texts = [line["text"] for line in page["lines"] if line["attempt"] == job["attempt"]]
            counts = Counter(texts)
            lost += sum(1 for text in expected if counts[text] == 0)
            duplicated += sum(count - 1 for count in counts.values() if count > 1)
        spans = defaultdict(lambda: [None, None])
        with open(self.records) as f:
            for line in f:
                what, job, attempt, at = line.split()
                span = spans[(job, int(attempt))]
                at = int(at)
                span[0] = at if what == "start" and span[0] is None else span[0]
                span[1] = at if span[1] is None or at > span[1] else span[1]
        by_job = defaultdict(list)
        for (job, _attempt), span in spans.items():
            by_job[job].append(span)
        overlapping = 0
        for job_spans in by_job.values():
            job_spans.sort(key=lambda span: span[0] or 0)
            overlapping += sum(
                1 for a, b in itertools.pairwise(job_spans) if b[0] is not None and a[1] is not None and b[0] < a[1]
            )
        print(f"== jobs submitted: {len(ids)}")
        print(
            f"== SUCCEEDED: {states['SUCCEEDED']}, FAILED: {states['FAILED']} "
            f"({', '.join(f'{cause} {count}' for cause, count in causes.items()) or 'none'}), "
            f"CANCELLED: {states['CANCELLED']}, not ended: {len(ids) - sum(states[s] for s in TERMINAL)}"
        )
        print(f"== attempts beyond the first: {sum(job['attempt'] - 1 for job in jobs.values())}")
        print(
            f"== log lines lost: {lost}, duplicated: {duplicated} "
            f"(of {states['SUCCEEDED'] * LINES} expected in SUCCEEDED jobs)"
        )
        print(f"== attempts that overlapped: {overlapping}")

    def stop(self):
        for process in self.processes.values():
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in self.processes.values():
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
        self.crash_postgres()
        # Trainers the agents left running (none when every job ended): this run's own, by their argument.
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    if self.records.encode() in f.read():
                        os.kill(int(pid), signal.SIGKILL)
            except OSError:
                pass
        self.log.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--work", required=True)
    parser.add_argument("--java", required=True)
    parser.add_argument("--minutes", type=float, default=10)
    args = parser.parse_args()
    chaos = Chaos(args.work, args.java)
    try:
        chaos.run(args.minutes)
    finally:
        chaos.stop()


if __name__ == "__main__":
    main()
