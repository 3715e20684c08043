"""A real Trainyard server for the tests: the built jar (api/target/trainyard-server.jar) on its embedded
PostgreSQL, whose own agent runs trainers with the real runtime (runtime/.venv, as scripts/test.sh installs it),
started once for the whole session. The command line is run as the installed `trainyard` console script."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from trainyard_client import ApiClient, Configuration

REPOSITORY = Path(__file__).resolve().parents[3]
SERVER_JAR = REPOSITORY / "api" / "target" / "trainyard-server.jar"
TRAINYARD = Path(sys.executable).parent / "trainyard"
JOBS = Path(__file__).parent / "jobs"


@dataclass(frozen=True)
class Server:
    url: str
    token: str
    home: Path
    """HOME of the commands run: empty, so no config file of the machine's user is read."""

    def client(self) -> ApiClient:
        return ApiClient(Configuration(host=self.url, access_token=self.token))

    def environment(self, **overrides: str) -> dict[str, str]:
        environment = {key: value for key, value in os.environ.items() if not key.startswith("TRAINYARD_")}
        # Wide enough that Rich never wraps a table cell or a message.
        environment.update(HOME=str(self.home), COLUMNS="250", TRAINYARD_URL=self.url, TRAINYARD_TOKEN=self.token)
        environment.update(overrides)
        return environment

    def cli(self, *args: str | Path, timeout: float = 120, **environment: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(TRAINYARD), *map(str, args)],
            env=self.environment(**environment),
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    def start_cli(self, *args: str | Path, **environment: str) -> subprocess.Popen:
        return subprocess.Popen(
            [str(TRAINYARD), *map(str, args)],
            env=self.environment(**environment),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def java() -> str:
    """A JDK >= 21, chosen as every script of the project chooses it (the machine's default java is 17)."""
    home = subprocess.run(
        ["bash", "-c", "source scripts/select-jdk.sh >&2 && echo $JAVA_HOME"],
        cwd=REPOSITORY,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    return str(Path(home) / "bin" / "java")


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory):
    if not SERVER_JAR.exists():
        pytest.fail(f"{SERVER_JAR} is missing: build it first (mvn -pl api -am package)")
    folder = tmp_path_factory.mktemp("server")
    port = free_port()
    args = [
        java(),
        "-jar",
        str(SERVER_JAR),
        f"--server.port={port}",
        f"--trainyard.data-dir={folder / 'data'}",
        "--spring.main.banner-mode=off",
    ]
    # Started from the repository root the server's agent puts runtime/.venv/bin first on its trainers' PATH;
    # TRAINYARD_TEST_TRAINER_PATH names another runtime environment.
    if os.environ.get("TRAINYARD_TEST_TRAINER_PATH"):
        args.append(f"--trainyard.local.trainer-path={os.environ['TRAINYARD_TEST_TRAINER_PATH']}")
    log = (folder / "server.log").open("w")
    process = subprocess.Popen(args, cwd=REPOSITORY, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_healthy(url, process, folder / "server.log")
        home = folder / "home"
        home.mkdir()
        yield Server(url=url, token=(folder / "data" / "admin-token").read_text().strip(), home=home)
    finally:
        # SIGTERM: the server stops its embedded PostgreSQL and its trainers' agent before it exits.
        process.terminate()
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


def _wait_until_healthy(url: str, process: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"the server exited during its start:\n{log.read_text()[-5000:]}")
        try:
            if httpx.get(f"{url}/actuator/health", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.5)
    pytest.fail(f"the server did not start in 180 s:\n{log.read_text()[-5000:]}")
