# The Trainyard server: REST API, core and dispatcher, keeping its state in PostgreSQL. It runs no
# trainers itself (its embedded agent is off, and it has no Python); GPU hosts join with the agent image
# (docker/agent.Dockerfile). Build from the repository root, which is the build context:
#   docker build -f docker/server.Dockerfile -t trainyard-server .

# Build stage: Maven 3.9.16 with a Temurin JDK 21 on Ubuntu 24.04 (noble). The tag names the exact Maven
# release and OS; the JDK 21 update inside it is whichever the maven image was last rebuilt with, which
# only compiles (--release 21): the JVM the server runs on is pinned exactly in the jre stage below. This
# stage installs no OS packages. Keep it identical to the one in agent.Dockerfile: BuildKit then builds
# it once for both images.
# The dashboard (ui/): typed from the committed contract and bundled by Vite with Node's official image.
FROM node:20.19.5-bookworm-slim AS ui
WORKDIR /src
COPY api/openapi.yaml api/openapi.yaml
COPY ui ui
RUN bash ui/build.sh /out

FROM maven:3.9.16-eclipse-temurin-21-noble AS build
WORKDIR /src
# Every module the root pom.xml lists must be here, or Maven stops before building anything
# (scripts/lint-dockerfiles.sh checks this against pom.xml).
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
# The dashboard, built in the ui stage, where the api module packages its static resources (the Maven image has
# no Node.js, so the api module's own dashboard step is skipped below).
COPY --from=ui /out api/src/main/resources/static
# The local Maven repository is a build cache, not a layer: it survives source changes without landing in
# any image.
RUN --mount=type=cache,target=/root/.m2/repository \
    mvn -B --no-transfer-progress -DskipTests -Dtrainyard.ui.skip=true package

# The JVM: Temurin 21.0.11+10, the JRE of the official image, copied from its /opt/java/openjdk (the way
# the eclipse-temurin image documents for other bases). Pinned to the update, so a rebuild runs the same JVM.
FROM eclipse-temurin:21.0.11_10-jre-jammy AS jre

# Runtime base: Debian 12 bookworm, the release the project's own machines run, so every package installed
# below is checked against it in CI (scripts/lint-dockerfiles.sh). 12.15 is an exact point release. The
# Temurin JRE needs only glibc from it: its headless libraries link nothing else (Temurin bundles zlib and
# freetype).
FROM debian:12.15-slim
# curl: the HEALTHCHECK. tini: PID 1, which forwards signals to the JVM and reaps orphaned processes.
RUN apt-get update \
    && apt-get install -y --no-install-recommends curl tini \
    && rm -rf /var/lib/apt/lists/*
ENV JAVA_HOME=/opt/java/openjdk \
    LANG=C.UTF-8
ENV PATH="${JAVA_HOME}/bin:${PATH}"
COPY --from=jre /opt/java/openjdk /opt/java/openjdk
RUN groupadd --gid 10001 trainyard \
    && useradd --uid 10001 --gid trainyard --home-dir /var/lib/trainyard --shell /usr/sbin/nologin trainyard \
    && mkdir -p /var/lib/trainyard \
    && chown trainyard:trainyard /var/lib/trainyard
WORKDIR /opt/trainyard
# The example configs, so a job can be submitted with taskConfigUri file:///opt/trainyard/examples/... .
COPY examples examples
COPY --from=build /src/api/target/trainyard-server.jar trainyard-server.jar
# The embedded agent would run trainers in this container, which has neither Python nor the runtime: agents
# run them. Secrets (database password, agent token) come from the environment at run time, never the image.
ENV TRAINYARD_DATA_DIR=/var/lib/trainyard \
    TRAINYARD_LOCAL_EMBEDDEDAGENT=false
VOLUME ["/var/lib/trainyard"]
USER 10001:10001
EXPOSE 8080
# The server listens on 127.0.0.1 unless SERVER_ADDRESS says otherwise; the check asks on 127.0.0.1 either way.
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
    CMD ["curl", "-fsS", "-o", "/dev/null", "http://127.0.0.1:8080/actuator/health"]
ENTRYPOINT ["/usr/bin/tini", "--", "java", "-XX:MaxRAMPercentage=75", "-jar", "/opt/trainyard/trainyard-server.jar"]
