"""Reads `jfr print --events jdk.ExecutionSample` on stdin; prints the server's CPU samples by layer.

Each sample goes to the innermost layer on its stack: the JDK's own frames count for the code that called them,
a database query made while authenticating counts for JDBC, Spring Security's filters count only for their own
work (the request they wrap is deeper). So the shares add up to 100 %. Then the self samples by package.
"""

import collections
import re
import sys

# What a request spends its CPU on, as the issue asks. A frame belongs to the first layer one of whose prefixes
# it starts with, so the specific layers come before the broad ones.
LAYERS = {
    "authentication (token lookup, OIDC, sessions)": (
        "org.springframework.security.authentication.",
        "org.springframework.security.oauth2.",
        "io.trainyard.security.tokens.",
        "io.trainyard.security.oidc.",
        "io.trainyard.security.session.",
    ),
    "authorization (roles, projects)": (
        "org.springframework.security.authorization.",
        "io.trainyard.security.ProjectAccess",
        "io.trainyard.security.Callers",
        "io.trainyard.security.projects.",
    ),
    "rate limits": ("io.trainyard.security.limits.",),
    "audit": ("io.trainyard.security.audit.",),
    "Spring Security's filter chain": ("org.springframework.security.", "io.trainyard.security."),
    "YAML (SnakeYAML)": ("org.snakeyaml.", "org.yaml.snakeyaml.", "tools.jackson.dataformat.yaml."),
    "validation (the submission, GiGL configs)": (
        "io.trainyard.submission.",
        "io.trainyard.gigl.",
        "io.trainyard.validation.",
    ),
    "JSON (Jackson)": ("tools.jackson.", "com.fasterxml.jackson."),
    "JDBC (PostgreSQL driver, Hikari)": ("org.postgresql.", "com.zaxxer.hikari."),
    "Hibernate": ("org.hibernate.",),
    "transaction (Spring TX, ORM)": (
        "org.springframework.transaction.",
        "org.springframework.orm.",
        "org.springframework.jdbc.",
    ),
    "metrics (Micrometer)": ("io.micrometer.",),
    "logging": ("ch.qos.logback.", "org.slf4j."),
    "HTTP (Tomcat, Spring MVC, servlet filters)": (
        "org.apache.",
        "org.springframework.web.",
        "org.springframework.http.",
        "io.trainyard.api.problems.",
        "jakarta.servlet.",
    ),
    "the server's own code (jobs, views, events)": ("io.trainyard.",),
    "Spring (AOP, beans, events)": ("org.springframework.",),
}
# Where a request spends its time, outermost first: each stage's share counts every sample with that frame on its
# stack (the stages nest, so a stage includes those indented under it). Needs whole stacks: JFR's default depth (64)
# truncates a request's, so profile.sh records with a depth of 512.
STAGES = (
    ("a request's thread (Tomcat, from the socket on)", "org.apache.tomcat.util.net.SocketProcessorBase.run"),
    (
        "  Spring Security's filter chain, and all within it",
        "org.springframework.security.web.FilterChainProxy.doFilterInternal",
    ),
    (
        "    Spring MVC (the DispatcherServlet), and all within it",
        "org.springframework.web.servlet.DispatcherServlet.doDispatch",
    ),
    (
        "      reading the request's body (JSON, bean validation)",
        "org.springframework.web.servlet.mvc.method.annotation.RequestResponseBodyMethodProcessor.resolveArgument",
    ),
    ("      the controller's method", "org.springframework.web.method.support.InvocableHandlerMethod.doInvoke"),
    (
        "      writing the response",
        "org.springframework.web.method.support.HandlerMethodReturnValueHandlerComposite.handleReturnValue",
    ),
    ("the submissions' group commit (its writer thread)", "io.trainyard.database.GroupCommit.run"),
)
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


def innermost_layer(frames):
    for frame in frames:
        for layer, prefixes in LAYERS.items():
            if frame.startswith(prefixes):
                return layer
    return "the JDK alone (threads, timers)"


def package_of(frame):
    parts = frame.split(".")
    return ".".join(parts[: min(3, len(parts) - 2)]) or frame


def main():
    total = 0
    by_layer = collections.Counter()
    by_package = collections.Counter()
    by_thread = collections.Counter()
    by_stage = collections.Counter()
    for thread, frames in samples(sys.stdin):
        total += 1
        on_stack = set(frames)
        by_stage.update(name for name, frame in STAGES if frame in on_stack)
        by_thread[re.sub(r"[-#]?\d+$", "", thread or "?")] += 1
        if frames:
            by_package[package_of(frames[0])] += 1
        by_layer[innermost_layer(frames)] += 1
    if not total:
        print("no CPU samples recorded")
        return
    print(f"{total} CPU samples of the server's Java threads")
    print("by thread:  " + ", ".join(f"{name} {100 * n / total:.0f} %" for name, n in by_thread.most_common(5)))
    print("by layer (innermost on the stack):")
    for layer, n in by_layer.most_common():
        print(f"  {100 * n / total:5.1f} %  {layer}")
    print("by stage (every sample with the stage's frame on its stack; indented stages are within the one above):")
    for name, _ in STAGES:
        print(f"  {100 * by_stage[name] / total:5.1f} %  {name}")
    print("self time by package (top 12):")
    for package, n in by_package.most_common(12):
        print(f"  {100 * n / total:5.1f} %  {package}")


if __name__ == "__main__":
    main()
