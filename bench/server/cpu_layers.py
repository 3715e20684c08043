"""Reads `jfr print --events jdk.ExecutionSample` on stdin; prints the server's CPU samples by layer.

A layer's share is inclusive: a sample counts towards every layer one of whose frames is on its stack, so a
token check that queries the database counts towards authentication and JDBC both. Then the self samples by
package (the frame on top of the stack), which add up to 100 %.
"""

import collections
import re
import sys

# What a request spends its CPU on, as the issue asks: each layer and the frame prefixes that are it.
LAYERS = {
    "HTTP (Tomcat, Spring MVC)": ("org.apache.catalina.", "org.apache.coyote.", "org.springframework.web."),
    "authentication (tokens, OIDC, Spring Security)": (
        "io.trainyard.security.tokens.",
        "io.trainyard.security.CallerAuthentication",
        "io.trainyard.security.oidc.",
        "org.springframework.security.",
    ),
    "rate limits": ("io.trainyard.security.limits.",),
    "audit": ("io.trainyard.security.audit.",),
    "validation (SubmissionService.validate, GiGL configs)": (
        "io.trainyard.submission.SubmissionService.validate",
        "io.trainyard.gigl.",
    ),
    "YAML": ("org.snakeyaml.", "org.yaml.snakeyaml.", "tools.jackson.dataformat.yaml."),
    "JSON (Jackson)": ("tools.jackson.", "com.fasterxml.jackson."),
    "transaction (Spring TX)": ("org.springframework.transaction.", "org.springframework.orm."),
    "Hibernate": ("org.hibernate.",),
    "JDBC (PostgreSQL driver, Hikari)": ("org.postgresql.", "com.zaxxer.hikari."),
    "logging": ("ch.qos.logback.", "org.slf4j."),
}
FRAME = re.compile(r"^\s+([\w$.<>/]+)\(")


def samples(lines):
    """Yields (thread, frames) per sample, frames from the top of the stack down."""
    thread, frames, in_stack = None, [], False
    for line in lines:
        if line.startswith("jdk.ExecutionSample"):
            thread, frames, in_stack = None, [], False
        elif "sampledThread = " in line:
            thread = line.split('"')[1]
        elif "stackTrace = [" in line:
            in_stack = True
        elif in_stack and line.strip() == "]":
            in_stack = False
            yield thread, frames
        elif in_stack:
            match = FRAME.match(line)
            if match:
                frames.append(match.group(1))


def package_of(frame):
    parts = frame.split(".")
    return ".".join(parts[: min(3, len(parts) - 2)]) or frame


def main():
    total = 0
    by_layer = collections.Counter()
    by_package = collections.Counter()
    by_thread = collections.Counter()
    for thread, frames in samples(sys.stdin):
        total += 1
        by_thread[re.sub(r"[-#]?\d+$", "", thread or "?")] += 1
        if frames:
            by_package[package_of(frames[0])] += 1
        for layer, prefixes in LAYERS.items():
            if any(frame.startswith(prefixes) for frame in frames):
                by_layer[layer] += 1
    if not total:
        print("no CPU samples recorded")
        return
    print(f"{total} CPU samples of the server's Java threads")
    print("by thread:  " + ", ".join(f"{name} {100 * n / total:.0f} %" for name, n in by_thread.most_common(5)))
    print("by layer (inclusive):")
    for layer in LAYERS:
        print(f"  {100 * by_layer[layer] / total:5.1f} %  {layer}")
    print("self time by package (top 12):")
    for package, n in by_package.most_common(12):
        print(f"  {100 * n / total:5.1f} %  {package}")


if __name__ == "__main__":
    main()
