# A trainer written by an attacker who may submit jobs to one project: it tries every way it has to the
# server's and the agent's secrets, to another job and to the server's process, and prints one line per try:
# "probe <name>: refused (...)" or "probe <name>: LEAKED (...)". PARAMS is prepended by the test
# (TrainerIsolationTest), hence no definition here:
# ruff: noqa: F821
import os
import socket
import struct
import urllib.request


def report(name, attempt):
    try:
        leaked = attempt()
    except Exception as error:  # any refusal: missing, denied, unreachable
        print(f"probe {name}: refused ({type(error).__name__}: {error})", flush=True)
        return
    print(f"probe {name}: {'LEAKED' if leaked else 'refused'} ({leaked or 'nothing found'})", flush=True)


def read(path):
    with open(path) as handle:
        return handle.read()[:40]


def secret_in_environment():
    found = [name for name, value in os.environ.items() if value.startswith(("ty_", "tya_")) or "PASSWORD" in name]
    for pid in ("1", str(os.getppid()), str(PARAMS["agent_pid"])):
        try:
            found += [f"/proc/{pid}/environ has a token"] if "tya_" in read_all(f"/proc/{pid}/environ") else []
            found += [f"/proc/{pid}/cmdline has a token"] if "tya_" in read_all(f"/proc/{pid}/cmdline") else []
        except OSError:
            pass
    return ", ".join(found)


def listening_loopback_ports():
    ports = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = read_all(table).splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            local, state = line.split()[1], line.split()[3]
            if state == "0A":  # LISTEN
                ports.add(int(local.split(":")[1], 16))
    return sorted(ports)


def read_all(path):
    with open(path) as handle:
        return handle.read()


def postgres_without_password():
    # A StartupMessage (protocol 3.0) as user postgres: AuthenticationOk (R, 0) means no password was asked.
    body = struct.pack("!I", 196608) + b"user\0postgres\0database\0postgres\0\0"
    with socket.create_connection(("127.0.0.1", PARAMS["postgres_port"]), timeout=5) as connection:
        connection.sendall(struct.pack("!I", len(body) + 4) + body)
        kind, _, code = struct.unpack("!cII", connection.recv(9))
    if kind == b"R" and code == 0:
        return "connected as the superuser without a password"
    if kind == b"R":
        raise PermissionError(f"PostgreSQL asked for a password (authentication request {code})")
    return f"unexpected answer {kind!r}"


def other_jobs_tensorboard():
    leaks = []
    for port in listening_loopback_ports():
        for path in (f"/jobs/{PARAMS['other_job']}/tensorboard/data/environment", "/data/environment"):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=3) as answer:
                    if answer.status == 200 and b"data_location" in answer.read():
                        leaks.append(f"port {port} answered {path}")
            except Exception:
                pass
    if not leaks:
        raise PermissionError("no port answered without credentials")
    return ", ".join(leaks)


def signal_server():
    os.kill(PARAMS["server_pid"], 0)  # permission to signal it, without sending anything
    return f"may signal pid {PARAMS['server_pid']}"


def write_outside():
    with open(os.path.join(PARAMS["data_dir"], "planted"), "w") as handle:
        handle.write("x")
    return "wrote into the data folder"


report("admin-token", lambda: read(os.path.join(PARAMS["data_dir"], "admin-token")))
report("database-password", lambda: read(os.path.join(PARAMS["data_dir"], "postgres-password")))
report("agent-token", secret_in_environment)
report(
    "other-job-folder", lambda: read(os.path.join(PARAMS["data_dir"], "jobs", PARAMS["other_job"], "task_config.yaml"))
)
report("postgres", postgres_without_password)
report("tensorboard", other_jobs_tensorboard)
report("signal-server", signal_server)
report("write-outside", write_outside)
