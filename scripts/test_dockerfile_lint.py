"""Tests of scripts/dockerfile_lint.py on small build contexts it makes, so a linter that stopped finding
anything fails here instead of passing every Dockerfile. Run by scripts/lint-dockerfiles.sh before it lints:
    python -m unittest discover -s scripts -p 'test_dockerfile_lint.py'
The apt checks ask this machine's apt, so they run only on a Debian machine with apt lists (CI's).
"""

import shutil
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import dockerfile_lint

HOST = dockerfile_lint.host_release()
HAS_APT = shutil.which("apt-cache") is not None and HOST is not None and HOST[0] == "debian"


class LintTest(unittest.TestCase):
    def setUp(self):
        self.root = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.root)

    def write(self, path, text=""):
        target = self.root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(textwrap.dedent(text))
        return target

    def lint(self, dockerfile, host=HOST):
        linter = dockerfile_lint.Linter(self.root, host)
        linter.lint_dockerfile(self.write("Dockerfile", dockerfile))
        linter.check_apt()
        return [f"{f.line}: {f.message}" for f in linter.findings]

    def assertFinding(self, findings, line, *words):
        for finding in findings:
            if finding.startswith(f"{line}: ") and all(w in finding for w in words):
                return
        self.fail(f"no finding at line {line} with {words} in {findings}")

    def test_the_image_that_could_not_be_built_is_caught(self):
        # The old top-level Dockerfile: python3.11 from apt on eclipse-temurin:21-jre, whose base moved to
        # Ubuntu 24.04 (Python 3.12 only).
        self.write("pom.xml")
        findings = self.lint("""\
            FROM maven:3.9-eclipse-temurin-21 AS build
            COPY pom.xml .
            FROM eclipse-temurin:21-jre
            RUN apt-get update && apt-get install -y --no-install-recommends python3.11 python3.11-venv curl
            """)
        self.assertFinding(findings, 1, "maven:3.9-eclipse-temurin-21", "floats across 3.9.x")
        self.assertFinding(findings, 3, "eclipse-temurin:21-jre", "floats across 21.x")
        self.assertFinding(findings, 4, "python3.11", "names no release in its tag")
        self.assertEqual(3, len(findings), findings)

    def test_unpinned_bases(self):
        findings = self.lint("""\
            FROM debian
            FROM python:latest
            FROM node:lts-bookworm
            FROM postgres:18
            FROM debian:bookworm-20260803-slim
            FROM python:3.11.16-slim-bookworm@sha256:0123
            COPY --from=eclipse-temurin:21 /opt/java/openjdk /opt/java/openjdk
            """)
        self.assertFinding(findings, 1, "no tag")
        self.assertFinding(findings, 2, "python:latest")
        self.assertFinding(findings, 3, "names no version")
        self.assertFinding(findings, 4, "postgres:18", "floats")
        self.assertFinding(findings, 7, "COPY --from image", "eclipse-temurin:21")
        self.assertEqual(5, len(findings), findings)

    @unittest.skipUnless(HAS_APT, "needs this machine's apt (Debian)")
    def test_apt_packages_are_checked_against_the_release(self):
        codename = HOST[1]
        findings = self.lint(f"""\
            FROM debian:{ {"bookworm": "12.15", "trixie": "13.1"}.get(codename, "12.15") }-slim
            RUN apt-get update \\
                && apt-get install -y --no-install-recommends \\
                   curl no-such-package-trainyard \\
                && rm -rf /var/lib/apt/lists/*
            """)
        self.assertFinding(findings, 4, "no-such-package-trainyard", f"no such package in Debian {codename}")
        self.assertEqual(1, len(findings), findings)

    @unittest.skipUnless(HAS_APT and HOST == ("debian", "bookworm"), "needs Debian 12's apt")
    def test_a_package_of_another_release_is_caught(self):
        findings = self.lint("""\
            FROM python:3.11.16-slim-bookworm
            RUN apt-get update && apt-get install -y python3.12 tini=0.0.1 tini
            """)
        self.assertFinding(findings, 2, "python3.12", "no such package in Debian bookworm")
        self.assertFinding(findings, 2, "tini=0.0.1", "no version 0.0.1")
        self.assertEqual(2, len(findings), findings)

    def test_apt_on_a_release_this_machine_cannot_answer_for(self):
        findings = self.lint(
            """\
            FROM ubuntu:24.04
            RUN apt-get install -y curl
            """,
            host=("debian", "bookworm"),
        )
        self.assertFinding(findings, 2, "ubuntu noble", "debian bookworm only")

    def test_copy_sources_and_dockerignore(self):
        self.write("app/main.py")
        self.write("runtime/.venv/bin/python")
        self.write(".dockerignore", "**/.venv\nbuild\n!build/keep.txt\n")
        self.write("build/keep.txt")
        findings = self.lint("""\
            FROM python:3.11.16-slim-bookworm
            COPY app /app
            COPY missing.txt /missing.txt
            COPY runtime/.venv /venv
            COPY build/other.txt build/keep.txt /build/
            COPY app/*.py /glob/
            COPY app/*.rs /glob/
            """)
        self.assertFinding(findings, 3, "missing.txt", "does not exist")
        self.assertFinding(findings, 4, "runtime/.venv", ".dockerignore")
        self.assertFinding(findings, 5, "build/other.txt", "does not exist")
        self.assertFinding(findings, 7, "app/*.rs", "does not exist")
        self.assertEqual(4, len(findings), findings)

    def test_files_run_steps_read_must_be_copied_first(self):
        self.write("runtime/requirements.txt", "torch\n")
        self.write("runtime/install.sh")
        findings = self.lint("""\
            FROM python:3.11.16-slim-bookworm
            WORKDIR /opt/app
            RUN pip install -r runtime/requirements.txt
            COPY runtime/requirements.txt runtime/requirements.txt
            RUN --mount=type=cache,target=/root/.cache/pip python3 -m pip install -r runtime/requirements.txt -c constraints.txt
            COPY runtime runtime
            RUN bash runtime/install.sh && bash runtime/missing.sh
            """)  # noqa: E501 (a Dockerfile fixture whose long RUN line is part of the case)
        self.assertFinding(findings, 3, "pip reads runtime/requirements.txt", "no COPY before")
        self.assertFinding(findings, 5, "constraints.txt", "no COPY before")
        self.assertFinding(findings, 7, "runtime/missing.sh", "does not exist in the build context")
        self.assertEqual(3, len(findings), findings)

    def test_maven_modules_and_jars(self):
        self.write(
            "pom.xml",
            """\
            <project xmlns="http://maven.apache.org/POM/4.0.0"><modules>
              <module>protocol</module><module>api</module><module>agent</module>
            </modules></project>
            """,
        )
        self.write("protocol/pom.xml", "<project/>")
        self.write("api/pom.xml", "<project><build><finalName>trainyard-server</finalName></build></project>")
        self.write("agent/pom.xml", "<outputFile>${project.build.directory}/trainyard-agent.jar</outputFile>")
        findings = self.lint("""\
            FROM maven:3.9.16-eclipse-temurin-21-noble AS build
            WORKDIR /src
            COPY pom.xml ./
            COPY protocol protocol
            COPY api api
            RUN mvn -B package
            FROM debian:12.15-slim
            COPY --from=build /src/api/target/trainyard-server.jar /srv/
            COPY --from=build /src/api/target/api.jar /srv/
            COPY --from=build /src/agent/target/trainyard-agent.jar /srv/
            """)
        self.assertFinding(findings, 6, "module agent", "not copied")
        self.assertFinding(findings, 9, "api/pom.xml names no api.jar")
        self.assertFinding(findings, 10, "no module with a pom.xml is copied to /src/agent")
        self.assertEqual(3, len(findings), findings)

    def test_compose(self):
        self.write("docker/server.Dockerfile")
        compose = self.write(
            "docker-compose.yml",
            """\
            services:
              postgres:
                image: postgres:18
              server:
                build:
                  context: .
                  dockerfile: docker/server.Dockerfile
              agent:
                build:
                  context: .
                  dockerfile: docker/missing.Dockerfile
              pinned:
                image: postgres:18.6-bookworm
            """,
        )
        linter = dockerfile_lint.Linter(self.root, HOST)
        linter.lint_compose(compose)
        findings = [f"{f.line}: {f.message}" for f in linter.findings]
        self.assertFinding(findings, 3, "service postgres", "postgres:18")
        self.assertFinding(findings, 11, "service agent", "docker/missing.Dockerfile does not exist")
        self.assertEqual(2, len(findings), findings)


if __name__ == "__main__":
    unittest.main()
