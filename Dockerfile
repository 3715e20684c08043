# The Trainyard server with the local pool and the training runtime, for docker-compose.yml.
FROM maven:3.9-eclipse-temurin-21 AS build
WORKDIR /src
COPY pom.xml .
COPY db db
COPY scheduler scheduler
COPY backends backends
COPY api api
RUN mvn -B -q --no-transfer-progress -DskipTests package

FROM eclipse-temurin:21-jre
# python3.11 runs the per-process supervisor and the training runtime.
RUN apt-get update && apt-get install -y --no-install-recommends python3.11 python3.11-venv curl \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /opt/trainyard
COPY runtime runtime
RUN TRAINYARD_PYTHON=python3.11 bash runtime/install.sh
COPY examples examples
COPY --from=build /src/api/target/trainyard-server.jar trainyard-server.jar
ENV PATH="/opt/trainyard/runtime/.venv/bin:${PATH}"
EXPOSE 8080
ENTRYPOINT ["java", "-jar", "/opt/trainyard/trainyard-server.jar"]
