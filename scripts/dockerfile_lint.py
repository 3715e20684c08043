#!/usr/bin/env python3
"""Checks the project's Dockerfiles and docker-compose.yml for what breaks or silently changes an image
build, without a Docker engine (these machines have none, so the images are never built here):

- every base image (FROM, COPY --from=IMAGE, compose `image:`) is pinned: a tag that names the full
  version, never `latest`, untagged or a floating major;
- every package an `apt-get install` names exists in the base's Debian release, asked of this machine's
  apt (`apt-cache policy`), which answers for the release this machine runs (Debian 12 bookworm). A stage
  whose base names another release, or none, may install no apt packages: nothing here could check them;
- every COPY/ADD source exists in the build context (the repository root) and is not left out of it by
  .dockerignore;
- every file a RUN step reads from the context (`pip install -r/-c FILE`, `bash FILE`) was copied into the
  image before it;
- a stage that runs Maven has every module of the root pom.xml copied in, and the jars later stages copy
  out of it are ones the modules' poms name;
- compose services that are built name a Dockerfile and context that exist.

With --hadolint PATH it also runs hadolint (rules configured in .hadolint.yaml). Prints each finding as
FILE:LINE: message and exits 1 when there is any.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import posixpath
import re
import shlex
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass, field
from pathlib import Path

DEBIAN_CODENAMES = {"10": "buster", "11": "bullseye", "12": "bookworm", "13": "trixie", "14": "forky"}
UBUNTU_CODENAMES = {"20.04": "focal", "22.04": "jammy", "24.04": "noble", "25.04": "plucky", "25.10": "questing"}
ALPINE = re.compile(r"^alpine(\d+\.\d+)?$")
# How many version parts a tag needs before it names one release, per image; 2 for any other image.
# python 3.11 floats across 3.11.x, maven 3.9 across 3.9.x, eclipse-temurin 21 across 21.0.x; PostgreSQL
# and Debian number their releases major.minor (18.6, 12.15).
VERSION_PARTS = {
    "python": 3,
    "maven": 3,
    "eclipse-temurin": 3,
    "node": 3,
    "golang": 3,
    "gradle": 3,
    "postgres": 2,
    "debian": 2,
    "ubuntu": 2,
}
SKIP_DIRS = {".git", ".tools", "node_modules", "target", ".venv", "__pycache__"}


@dataclass
class Finding:
    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


@dataclass
class ImageRef:
    text: str
    name: str  # the repository's last path part: python, eclipse-temurin, ...
    tag: str | None
    digest: str | None


def parse_image(text: str) -> ImageRef:
    rest, _, digest = text.partition("@")
    last = rest.rsplit("/", 1)[-1]
    tag = last.split(":", 1)[1] if ":" in last else None
    name = last.split(":", 1)[0]
    return ImageRef(text, name, tag, digest or None)


def pin_problem(ref: ImageRef) -> str | None:
    """Why the reference is not pinned to one release, or None when it is."""
    if ref.digest:
        return None
    if not ref.tag:
        return f"{ref.text} has no tag, which means :latest: name the exact version"
    if ref.tag == "latest" or ref.tag.startswith("latest-"):
        return f"{ref.text} floats with every release: name the exact version"
    version = re.match(r"\d+(?:\.\d+)*", ref.tag)
    if not version:
        if re.search(r"(?:^|-)\d{8}(?:-|$)", ref.tag):  # date-stamped snapshots such as bookworm-20260803-slim
            return None
        return f"{ref.text} names no version: the tag moves with every release"
    if re.match(r"\d+u\d+", ref.tag):  # Java 8's 8u412-b08
        return None
    parts = version.group(0).count(".") + 1
    needed = VERSION_PARTS.get(ref.name, 2)
    if parts < needed:
        return (
            f"{ref.text} floats across {version.group(0)}.x: name the full version "
            f"({needed} parts, e.g. {'.'.join(['N'] * needed)})"
        )
    return None


def distribution(ref: ImageRef) -> tuple[str, str] | None:
    """(distribution, release) the image's tag names, e.g. ('debian', 'bookworm'), or None if it names none."""
    tag = ref.tag or ""
    for token in re.split(r"[-_]", tag):
        if token in DEBIAN_CODENAMES.values():
            return "debian", token
        if token in UBUNTU_CODENAMES.values():
            return "ubuntu", token
        if ALPINE.match(token):
            return "alpine", token
        if token.startswith("ubi"):
            return "ubi", token
    version = re.match(r"(\d+)(?:\.\d+)*", tag)
    if ref.name == "debian" and version and version.group(1) in DEBIAN_CODENAMES:
        return "debian", DEBIAN_CODENAMES[version.group(1)]
    if ref.name == "ubuntu" and version:
        major_minor = re.match(r"\d+\.\d+", tag)
        if major_minor and major_minor.group(0) in UBUNTU_CODENAMES:
            return "ubuntu", UBUNTU_CODENAMES[major_minor.group(0)]
    return None


def host_release() -> tuple[str, str] | None:
    try:
        with open("/etc/os-release") as handle:
            fields = dict(line.rstrip("\n").split("=", 1) for line in handle if "=" in line)
    except OSError:
        return None
    codename = fields.get("VERSION_CODENAME", "").strip('"')
    return (fields.get("ID", "").strip('"'), codename) if codename else None


class DockerIgnore:
    """.dockerignore as Docker reads it: patterns relative to the context, `**` for any depth, `!` to take a
    path back in."""

    def __init__(self, root: Path):
        self.rules: list[tuple[str, bool, re.Pattern[str]]] = []
        path = root / ".dockerignore"
        if path.is_file():
            for line in path.read_text().splitlines():
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                keep = line.startswith("!")
                pattern = posixpath.normpath(line.lstrip("!").strip().lstrip("/"))
                self.rules.append((line, keep, re.compile(self._regex(pattern))))

    @staticmethod
    def _regex(pattern: str) -> str:
        out, i = "", 0
        while i < len(pattern):
            if pattern.startswith("**/", i):
                out, i = out + "(?:.*/)?", i + 3
            elif pattern.startswith("**", i):
                out, i = out + ".*", i + 2
            elif pattern[i] == "*":
                out, i = out + "[^/]*", i + 1
            elif pattern[i] == "?":
                out, i = out + "[^/]", i + 1
            else:
                out, i = out + re.escape(pattern[i]), i + 1
        return "^" + out + "$"

    def excludes(self, path: str) -> str | None:
        """The .dockerignore pattern that leaves `path` out of the context, or None. As in Docker, a pattern
        matches a path when it matches the path or one of its parent folders, and the last match decides."""
        parts = posixpath.normpath(path).split("/")
        prefixes = ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]
        decided = None
        for pattern, keep, regex in self.rules:
            if any(regex.match(prefix) for prefix in prefixes):
                decided = None if keep else pattern
        return decided


@dataclass
class Copy:
    source: str  # relative to the context
    dest: str  # absolute in the image
    source_is_dir: bool
    dest_is_dir: bool


@dataclass
class Stage:
    name: str | None
    index: int
    ref: ImageRef | None  # None when built on an earlier stage or scratch
    release: tuple[str, str] | None
    workdir: str = "/"
    copies: list[Copy] = field(default_factory=list)
    maven_line: int | None = None


class Linter:
    def __init__(self, root: Path, host: tuple[str, str] | None):
        self.root = root
        self.host = host
        self.ignore = DockerIgnore(root)
        self.findings: list[Finding] = []
        self._apt_wanted: list[tuple[str, int, str]] = []  # (file, line, package)

    def add(self, path: str, line: int, message: str) -> None:
        self.findings.append(Finding(path, line, message))

    # --- Dockerfiles ---

    def lint_dockerfile(self, path: Path) -> None:
        from dockerfile_parse import DockerfileParser

        rel = self._display(path)
        lines = path.read_text().splitlines()
        parser = DockerfileParser(path=str(path))
        global_args: dict[str, str] = {}
        stages: list[Stage] = []
        for item in parser.structure:
            instruction, value, line = item["instruction"], item["value"], item["startline"] + 1
            stage = stages[-1] if stages else None
            if instruction == "ARG" and stage is None:
                name, _, default = value.partition("=")
                global_args[name.strip()] = default.strip().strip('"')
            elif instruction == "FROM":
                stages.append(self._from(rel, line, value, global_args, stages))
            elif stage is None:
                continue
            elif instruction == "WORKDIR":
                stage.workdir = posixpath.normpath(posixpath.join(stage.workdir, value.strip().strip('"')))
            elif instruction in ("COPY", "ADD"):
                self._copy(rel, line, instruction, value, stage, stages)
            elif instruction == "RUN":
                self._run(rel, line, item["endline"] + 1, lines, value, stage)

    def _from(self, rel: str, line: int, value: str, args: dict[str, str], stages: list[Stage]) -> Stage:
        words = [w for w in value.split() if not w.startswith("--platform")]
        image = _substitute(words[0], args) if words else ""
        name = words[2] if len(words) >= 3 and words[1].lower() == "as" else None
        earlier = self._stage(image, stages)
        if earlier is not None:
            return Stage(name, len(stages), None, earlier.release, earlier.workdir, list(earlier.copies))
        if "$" in image:
            self.add(rel, line, f"FROM {words[0]} uses a build argument without a default: its base can't be checked")
            return Stage(name, len(stages), None, None)
        if image == "scratch":
            return Stage(name, len(stages), None, None)
        ref = parse_image(image)
        problem = pin_problem(ref)
        if problem:
            self.add(rel, line, f"base image {problem}")
        return Stage(name, len(stages), ref, distribution(ref))

    @staticmethod
    def _stage(word: str, stages: list[Stage]) -> Stage | None:
        for stage in stages:
            if stage.name and stage.name.lower() == word.lower():
                return stage
        if word.isdigit() and int(word) < len(stages):
            return stages[int(word)]
        return None

    def _copy(self, rel: str, line: int, instruction: str, value: str, stage: Stage, stages: list[Stage]) -> None:
        flags, args = _flags(value)
        if len(args) < 2:
            self.add(rel, line, f"{instruction} needs a source and a destination")
            return
        sources, dest = args[:-1], args[-1]
        dest_abs = posixpath.normpath(posixpath.join(stage.workdir, dest))
        dest_is_dir = dest.endswith("/") or len(sources) > 1
        origin = flags.get("from")
        if origin is not None:
            earlier = self._stage(origin, stages)
            if earlier is None:
                problem = pin_problem(parse_image(origin))
                if problem:
                    self.add(rel, line, f"{instruction} --from image {problem}")
            elif earlier.maven_line is not None:
                for source in sources:
                    self._maven_output(rel, line, earlier, source)
            return
        for source in sources:
            if re.match(r"^[a-z]+://", source):
                self.add(rel, line, f"ADD {source} downloads at build time: its content is pinned by nothing")
                continue
            clean = posixpath.normpath(source.lstrip("/"))
            matches = (
                sorted(glob.glob(str(self.root / clean)))
                if any(c in clean for c in "*?[")
                else ([str(self.root / clean)] if (self.root / clean).exists() else [])
            )
            if clean.startswith(".."):
                self.add(rel, line, f"{instruction} source {source} is outside the build context")
                continue
            if not matches:
                self.add(
                    rel,
                    line,
                    f"{instruction} source {source} does not exist in the build context ({self._display(self.root)})",
                )
                continue
            for match in matches:
                relative = os.path.relpath(match, self.root).replace(os.sep, "/")
                left_out = self.ignore.excludes(relative)
                if left_out:
                    self.add(
                        rel,
                        line,
                        f"{instruction} source {relative} is left out of the build context by "
                        f".dockerignore (pattern {left_out})",
                    )
                    continue
                is_dir = os.path.isdir(match)
                stage.copies.append(Copy(relative, dest_abs, is_dir, dest_is_dir or is_dir))

    def _run(self, rel: str, line: int, end: int, lines: list[str], value: str, stage: Stage) -> None:
        _, rest = _flags(value, keep_rest=True)
        command = rest if isinstance(rest, str) else " ".join(rest)
        for segment in re.split(r"&&|\|\||;|\|", command):
            try:
                words = shlex.split(segment)
            except ValueError:
                words = segment.split()
            if not words:
                continue
            while words and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[0]):  # VAR=value command
                words = words[1:]
            if not words:
                continue
            program = posixpath.basename(words[0])
            if program in ("apt-get", "apt") and "install" in words:
                self._apt(rel, line, end, lines, words[words.index("install") + 1 :], stage)
            if re.fullmatch(r"pip[0-9.]*", program) or words[1:3] == ["-m", "pip"]:
                for i, word in enumerate(words):
                    if word in ("-r", "--requirement", "-c", "--constraint") and i + 1 < len(words):
                        self._context_file(rel, line, stage, words[i + 1], "pip reads")
                    elif word.startswith(("--requirement=", "--constraint=")):
                        self._context_file(rel, line, stage, word.split("=", 1)[1], "pip reads")
            if program in ("bash", "sh") and len(words) > 1 and not words[1].startswith("-"):
                self._context_file(rel, line, stage, words[1], f"{program} runs")
            if program in ("mvn", "mvnw") or words[0].endswith("/mvnw"):
                stage.maven_line = line
                self._maven_modules(rel, line, stage)

    def _apt(self, rel: str, line: int, end: int, lines: list[str], words: list[str], stage: Stage) -> None:
        packages = [w for w in words if not w.startswith("-")]
        if not packages:
            return
        if stage.release is None or stage.release != self.host:
            base = stage.ref.text if stage.ref else "its base"
            named = f"{stage.release[0]} {stage.release[1]}" if stage.release else "no release in its tag"
            here = f"{self.host[0]} {self.host[1]}" if self.host else "no Debian release"
            self.add(
                rel,
                line,
                f"apt-get install {' '.join(packages)}: {base} names {named}, and this machine's "
                f"apt answers for {here} only, so nothing here checks these packages exist: "
                f"install them on a base that names {here}",
            )
            return
        for package in packages:
            if "$" in package:
                self.add(rel, line, f"apt-get install {package}: a variable can't be checked")
                continue
            at = next(
                (
                    n + 1
                    for n in range(line - 1, min(end, len(lines)))
                    if re.search(r"(?<![\w.+-])" + re.escape(package) + r"(?![\w.+-])", lines[n])
                ),
                line,
            )
            self._apt_wanted.append((rel, at, package))

    def check_apt(self) -> None:
        """One `apt-cache policy` for every package the Dockerfiles install."""
        if not self._apt_wanted:
            return
        names = sorted({re.split(r"[=/]", p)[0] for _, _, p in self._apt_wanted})
        try:
            output = subprocess.run(["apt-cache", "policy", *names], check=True, capture_output=True, text=True).stdout
        except (OSError, subprocess.CalledProcessError) as e:
            for rel, line, package in self._apt_wanted:
                self.add(rel, line, f"apt-get install {package}: apt-cache could not be asked ({e})")
            return
        codename = self.host[1]
        suites = re.compile(r"\s" + re.escape(codename) + r"(?:-updates|-security)?/")
        found: dict[str, list[str]] = {}
        current = None
        for out_line in output.splitlines():
            if out_line and not out_line.startswith(" ") and out_line.endswith(":"):
                current = out_line[:-1].split(":")[0]
                found[current] = []
            elif current:
                found[current].append(out_line)
        for rel, line, package in self._apt_wanted:
            name, _, version = package.partition("=")
            name = name.split("/")[0]
            block = found.get(name)
            if block is None:
                self.add(rel, line, f"apt-get install {name}: no such package in Debian {codename}")
                continue
            candidate = next(
                (b.split(":", 1)[1].strip() for b in block if b.strip().startswith("Candidate:")), "(none)"
            )
            if candidate == "(none)":
                self.add(
                    rel,
                    line,
                    f"apt-get install {name}: Debian {codename} has no installable version "
                    f"(a virtual package? name the real one)",
                )
            elif not any(suites.search(b) for b in block):
                self.add(
                    rel,
                    line,
                    f"apt-get install {name}: not in Debian {codename}'s own archive "
                    f"(only from another source on this machine)",
                )
            elif version and not any(re.match(r"\s+(?:\*\*\* )?" + re.escape(version) + r"\s", b) for b in block):
                self.add(rel, line, f"apt-get install {package}: Debian {codename} has no version {version}")

    def _context_file(self, rel: str, line: int, stage: Stage, path: str, verb: str) -> None:
        if "$" in path:
            return
        image_path = posixpath.normpath(posixpath.join(stage.workdir, path))
        source = self._resolve(stage, image_path)
        if source is None:
            self.add(rel, line, f"{verb} {path} ({image_path}), which no COPY before this step puts in the image")
        elif not (self.root / source).exists():
            self.add(rel, line, f"{verb} {path}, copied from {source}, which does not exist in the build context")

    @staticmethod
    def _resolve(stage: Stage, image_path: str) -> str | None:
        """The context path a COPY put at `image_path` (the latest COPY wins), or None."""
        for copy in reversed(stage.copies):
            if copy.source_is_dir:
                if image_path == copy.dest or image_path.startswith(copy.dest.rstrip("/") + "/"):
                    rest = image_path[len(copy.dest.rstrip("/")) :].lstrip("/")
                    return posixpath.join(copy.source, rest) if rest else copy.source
            elif copy.dest_is_dir:
                if image_path == posixpath.join(copy.dest, posixpath.basename(copy.source)):
                    return copy.source
            elif image_path == copy.dest:
                return copy.source
        return None

    def _maven_modules(self, rel: str, line: int, stage: Stage) -> None:
        pom = self._resolve(stage, posixpath.join(stage.workdir, "pom.xml"))
        if pom is None:
            self.add(rel, line, f"Maven runs in {stage.workdir}, where no COPY put a pom.xml")
            return
        for module in _pom_modules(self.root / pom):
            target = posixpath.normpath(posixpath.join(stage.workdir, module))
            source = self._resolve(stage, target)
            if source is None:
                self.add(
                    rel,
                    line,
                    f"pom.xml lists module {module}, which is not copied into this stage: "
                    f"Maven stops on the missing module",
                )
            elif not (self.root / source / "pom.xml").is_file():
                self.add(rel, line, f"pom.xml lists module {module}, but {source}/pom.xml does not exist")

    def _maven_output(self, rel: str, line: int, stage: Stage, source: str) -> None:
        path = posixpath.normpath(posixpath.join(stage.workdir, source))
        match = re.match(r"^(.*)/target/([^/]+\.jar)$", path)
        if not match:
            return
        module = self._resolve(stage, match.group(1))
        jar = match.group(2)
        if module is None or not (self.root / module / "pom.xml").is_file():
            self.add(
                rel,
                line,
                f"COPY --from={stage.name} {source}: no module with a pom.xml is copied to "
                f"{match.group(1)} in that stage",
            )
            return
        text = (self.root / module / "pom.xml").read_text()
        stem = jar[: -len(".jar")]
        if f"<finalName>{stem}</finalName>" not in text and f"/{jar}<" not in text:
            self.add(
                rel,
                line,
                f"COPY --from={stage.name} {source}: {module}/pom.xml names no {jar} "
                f"(no <finalName>{stem}</finalName>, no output file …/{jar})",
            )

    # --- docker-compose.yml ---

    def lint_compose(self, path: Path) -> None:
        import yaml

        rel = self._display(path)
        text = path.read_text()
        document = yaml.safe_load(text) or {}
        lines = text.splitlines()

        def line_of(needle: str) -> int:
            return next((n + 1 for n, line in enumerate(lines) if needle in line), 1)

        for name, service in (document.get("services") or {}).items():
            service = service or {}
            build = service.get("build")
            if build is not None:
                build = {"context": build} if isinstance(build, str) else build
                context = (path.parent / build.get("context", ".")).resolve()
                dockerfile = build.get("dockerfile", "Dockerfile")
                if not context.is_dir():
                    self.add(
                        rel,
                        line_of(f"context: {build.get('context')}"),
                        f"service {name}: build context {build.get('context')} does not exist",
                    )
                elif not (context / dockerfile).is_file():
                    self.add(
                        rel,
                        line_of(f"dockerfile: {dockerfile}"),
                        f"service {name}: Dockerfile {dockerfile} does not exist in {build.get('context', '.')}",
                    )
            elif service.get("image"):
                problem = pin_problem(parse_image(str(service["image"])))
                if problem:
                    self.add(rel, line_of(f"image: {service['image']}"), f"service {name}: image {problem}")

    # --- hadolint ---

    def hadolint(self, binary: str, files: list[Path]) -> None:
        config = ["--config", str(self.root / ".hadolint.yaml")] if (self.root / ".hadolint.yaml").is_file() else []
        result = subprocess.run(
            [binary, *config, "--no-color", "-f", "json", *(str(f.resolve()) for f in files)],
            capture_output=True,
            text=True,
            cwd=self.root,
        )
        try:
            reports = json.loads(result.stdout or "[]")
        except json.JSONDecodeError:
            self.add(
                "hadolint", 0, f"failed (exit {result.returncode}): {result.stderr.strip() or result.stdout.strip()}"
            )
            return
        for report in reports:
            self.add(
                self._display(self.root / report["file"]),
                report["line"],
                f"hadolint {report['code']} ({report['level']}): {report['message']}",
            )
        if result.returncode != 0 and not reports:
            self.add("hadolint", 0, f"failed (exit {result.returncode}): {result.stderr.strip()}")

    def _display(self, path: Path) -> str:
        try:
            return os.path.relpath(path.resolve(), Path.cwd())
        except ValueError:
            return str(path)


def _substitute(word: str, args: dict[str, str]) -> str:
    return re.sub(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?", lambda m: args.get(m.group(1)) or m.group(0), word)


def _flags(value: str, keep_rest: bool = False):
    """Leading --flag=value options of COPY/ADD/RUN, and the remaining arguments (JSON or shell form)."""
    flags: dict[str, str] = {}
    rest = value.strip()
    while rest.startswith("--"):
        head, _, rest = rest.partition(" ")
        key, _, flag_value = head[2:].partition("=")
        flags[key] = flag_value
        rest = rest.lstrip()
    if rest.startswith("["):
        try:
            return flags, json.loads(rest)
        except json.JSONDecodeError:
            pass
    return flags, rest if keep_rest else shlex.split(rest)


def _pom_modules(pom: Path) -> list[str]:
    try:
        tree = ElementTree.parse(pom)
    except (OSError, ElementTree.ParseError):
        return []
    root = tree.getroot()
    namespace = root.tag[: root.tag.index("}") + 1] if root.tag.startswith("{") else ""
    modules = root.find(f"{namespace}modules")
    return [m.text.strip() for m in modules.findall(f"{namespace}module") if m.text] if modules is not None else []


def discover(root: Path) -> list[Path]:
    found = []
    for directory, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
        found += [Path(directory) / f for f in sorted(files) if f == "Dockerfile" or f.endswith(".Dockerfile")]
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dockerfiles", nargs="*", type=Path, help="default: every Dockerfile and *.Dockerfile")
    parser.add_argument("--root", type=Path, default=Path.cwd(), help="the build context (default: .)")
    parser.add_argument(
        "--compose",
        type=Path,
        action="append",
        help="compose files to check (default: docker-compose.yml in the root, if present)",
    )
    parser.add_argument("--hadolint", help="hadolint binary to run as well")
    options = parser.parse_args(argv)
    root = options.root.resolve()
    dockerfiles = options.dockerfiles or discover(root)
    composes = options.compose or [p for p in [root / "docker-compose.yml"] if p.is_file()]
    linter = Linter(root, host_release())
    for dockerfile in dockerfiles:
        linter.lint_dockerfile(dockerfile)
    linter.check_apt()
    for compose in composes:
        linter.lint_compose(compose)
    if options.hadolint:
        linter.hadolint(options.hadolint, dockerfiles)
    for finding in sorted(linter.findings, key=lambda f: (f.path, f.line)):
        print(finding)
    checked = ", ".join(linter._display(p) for p in [*dockerfiles, *composes])
    if linter.findings:
        print(f"dockerfile lint: {len(linter.findings)} finding(s) in {checked}", file=sys.stderr)
        return 1
    print(f"dockerfile lint: no findings in {checked}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
