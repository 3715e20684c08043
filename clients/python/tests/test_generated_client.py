"""The generated client (trainyard_client) against a real server: what the README's five lines promise."""

from __future__ import annotations

import time
import uuid

from conftest import JOBS, Server

from trainyard_client import Job, JobsApi, JobSubmission, LogsApi

DEMO = JOBS / "link-prediction"
QUICK_TASK = (
    (DEMO / "task_config.yaml")
    .read_text()
    .replace("command: python -m trainyard_runtime.train", "command: python3 -c 'print(\"trained\")'")
)


def test_submit_answers_the_job_with_its_id_and_a_resend_answers_the_same_job(server: Server):
    jobs = JobsApi(server.client())
    submission = JobSubmission(
        job_name="generated_client",
        task_config=QUICK_TASK,
        resource_config=(DEMO / "resource_config.yaml").read_text(),
        labels={"via": "sdk"},
    )
    key = str(uuid.uuid4())

    created = jobs.submit_job_with_http_info(submission, idempotency_key=key)
    assert created.status_code == 201
    assert isinstance(created.data, Job)
    assert created.data.id is not None and created.data.job_name == "generated_client"
    assert created.headers["Location"].endswith(f"/jobs/{created.data.id}")

    resent = jobs.submit_job_with_http_info(submission, idempotency_key=key)
    assert resent.status_code == 200
    assert resent.data.id == created.data.id
    assert jobs.get_job(str(created.data.id)).labels == {"via": "sdk"}


def test_logs_page_typed_lines(server: Server):
    jobs = JobsApi(server.client())
    job = jobs.submit_job(
        JobSubmission(
            job_name="typed_lines", task_config=QUICK_TASK, resource_config=(DEMO / "resource_config.yaml").read_text()
        )
    )
    logs = LogsApi(server.client())
    deadline = time.monotonic() + 120
    while jobs.get_job(str(job.id)).state not in ("SUCCEEDED", "FAILED", "CANCELLED"):
        assert time.monotonic() < deadline, "the job did not end in 120 s"
        time.sleep(0.2)
    page = logs.get_job_logs(str(job.id))
    assert page.job_state == "SUCCEEDED"
    assert [line.text for line in page.lines] == ["trained"]
    assert page.lines[0].seq == 1 and page.last_seq == 1
