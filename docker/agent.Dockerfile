# A Trainyard agent for a GPU host (or a CPU-only one): the agent jar on a JRE 21, Python 3.11 for its
# per-process supervisor, and the training runtime (runtime/: PyTorch with its CUDA libraries, PyG) that
# trainer processes run. The host needs the NVIDIA driver and the NVIDIA container toolkit, nothing else.
# Build from the repository root, which is the build context:
#   docker build -f docker/agent.Dockerfile -t trainyard-agent .
# Run: docker run --gpus all -e TRAINYARD_AGENT_TOKEN=... -v trainyard-agent:/var/lib/trainyard \
#        trainyard-agent --server=http://trainyard-host:8080 --agent-id=gpu-07

# Build stage: identical to server.Dockerfile's (see there why this tag), so BuildKit builds it once for both.
FROM maven:3.9.16-eclipse-temurin-21-noble AS build
WORKDIR /src
COPY pom.xml ./
# The build's settings: Error Prone's JVM flags (.mvn) and Checkstyle's rules (config).
COPY .mvn .mvn
COPY config config
COPY db db
COPY launch launch
COPY protocol protocol
COPY tfevents tfevents
COPY agent agent
COPY core core
COPY security security
COPY backends backends
COPY api api
COPY testing testing
COPY clients clients
# The agent image needs no dashboard (and this image has no Node.js to build it).
RUN --mount=type=cache,target=/root/.m2/repository \
    mvn -B --no-transfer-progress -DskipTests -Dtrainyard.ui.skip=true package

# The JVM: Temurin 21.0.11+10's JRE, copied from the official image (see server.Dockerfile).
FROM eclipse-temurin:21.0.11_10-jre-jammy AS jre

# Runtime base: CPython 3.11.16 on Debian 12 bookworm. 3.11 because the runtime's pins are chosen for it
# (runtime/requirements.txt: numpy 2.4.x is the newest line with wheels for 3.11) and CI tests it with 3.11;
# bookworm because it is the release the project's machines run, so the packages below are checked against
# it in CI. No CUDA base image: the torch wheels bring their CUDA libraries, and the NVIDIA container
# toolkit mounts the driver and nvidia-smi from the host.
FROM python:3.11.16-slim-bookworm
# tini: PID 1, which forwards signals to the JVM and reaps orphans (trainer subprocesses such as data-loader
# workers whose trainer was killed); without it their zombies would keep pids the agent checks for liveness.
# bubblewrap: every trainer runs in a sandbox of its own (the agent's --trainer-isolation=sandbox), here in a user
# namespace since the agent is not root.
RUN apt-get update \
    && apt-get install -y --no-install-recommends tini bubblewrap \
    && rm -rf /var/lib/apt/lists/*
ENV JAVA_HOME=/opt/java/openjdk
ENV PATH="${JAVA_HOME}/bin:${PATH}"
COPY --from=jre /opt/java/openjdk /opt/java/openjdk
RUN groupadd --gid 10001 trainyard \
    && useradd --uid 10001 --gid trainyard --create-home --home-dir /home/trainyard --shell /bin/bash trainyard \
    && mkdir -p /var/lib/trainyard \
    && chown trainyard:trainyard /var/lib/trainyard
WORKDIR /opt/trainyard
# The runtime's third-party packages first, in a layer that depends on requirements.txt alone: torch with
# its CUDA libraries is gigabytes, and a change to the runtime's code must not reinstall it. The venv is
# where runtime/install.sh keeps it, and pip's cache is a build cache, not a layer.
COPY runtime/requirements.txt runtime/requirements.txt
RUN --mount=type=cache,target=/root/.cache/pip \
    python3 -m venv runtime/.venv \
    && runtime/.venv/bin/pip install --disable-pip-version-check -r runtime/requirements.txt
# Then the runtime itself, installed the one way the project installs it (CI runs the same script): it finds
# the venv with its pins already in place and adds the trainyard_runtime package.
COPY runtime runtime
RUN --mount=type=cache,target=/root/.cache/pip \
    bash runtime/install.sh
COPY --from=build /src/agent/target/trainyard-agent.jar trainyard-agent.jar
# nvidia-smi (utility) to find the GPUs, CUDA (compute) to train on them.
ENV NVIDIA_DRIVER_CAPABILITIES=compute,utility
VOLUME ["/var/lib/trainyard"]
USER 10001:10001
# No HEALTHCHECK: the agent serves nothing to probe. It heartbeats to the server, which declares it lost
# after one lease (15 s) of silence; the container itself ends when the agent does.
# Trainer processes find the runtime's Python first on PATH (`python -m trainyard_runtime.train`); the
# supervisor runs on the image's python3. The token comes from TRAINYARD_AGENT_TOKEN at run time.
ENTRYPOINT ["/usr/bin/tini", "--", "java", "-jar", "/opt/trainyard/trainyard-agent.jar", "--data-dir=/var/lib/trainyard", "--trainer-path=/opt/trainyard/runtime/.venv/bin"]
# Give --server=URL and --agent-id=ID as the command; alone, the agent lists its options.
CMD ["--help"]
