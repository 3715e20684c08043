"""Runs one trainer process for Trainyard's local backend and records how it ended.

The server must be able to restart while a trainer runs, so the trainer cannot be the server's child
with pipes to it: this supervisor starts it in a new session (its own process group, so a cancel can
signal the trainer and everything it forked), sends its output to files the server tails, and writes
its exit status to a file the server reads even if it was not the trainer's parent.

It also enforces the agent's fence: FENCE_FILE holds the moment (CLOCK_MONOTONIC nanoseconds) after which
the agent's lease may have run out and its job may start elsewhere. A live agent keeps moving it; once it
has passed, the agent is gone or cut off, and the supervisor kills the trainer's process group, itself
included, without an exit record (like a kill by the agent). No file: no fence.
The file may name an owner after the deadline, "DEADLINE PID START_TIME": the server whose own agent this is,
on its embedded database. While that process is gone (killed, restarting) nobody can declare the agent lost,
so the fence waits; the server that starts next on the data directory takes the file over (a new deadline,
itself the owner) before it has its database, so the fence still fires before anyone could declare the agent lost.

The trainer may run in a sandbox (bubblewrap, see the agent's io.trainyard.agent.sandbox): the first
SANDBOX_WORDS words after "--" start it, the rest is the trainer's own argv. The sandbox itself restores
SIGTERM and SIGINT for the trainer, so the supervisor leaves them ignored for the sandbox's own processes,
which must outlive a cancel's SIGTERM to the group until the trainer has shut down cleanly.

Usage: supervise.py PID_FILE EXIT_FILE STDOUT_FILE STDERR_FILE FENCE_FILE SANDBOX_WORDS -- [SANDBOX...] ARGV...
The trainer's argv is executed directly, never through a shell.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import time

FENCE_CHECK_SECONDS = 0.2


def write_atomically(path, text):
    temporary = path + ".tmp"
    with open(temporary, "w") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)


def restore_default_signals():
    # Ignored signals stay ignored across exec; the trainer must die on SIGTERM and SIGINT as usual.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def fence_deadline(fence_file):
    """The agent's fence deadline and its owner (pid, start time) or None, or None when it has none (no lease) or
    it cannot be read."""
    try:
        with open(fence_file) as handle:
            words = handle.read().split()
        return int(words[0]), (int(words[1]), words[2]) if len(words) == 3 else None
    except (OSError, ValueError, IndexError):
        return None


def is_running(pid, start_time):
    """Whether the process with this pid and start time (field 22 of /proc/PID/stat) runs: not one reusing its pid."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            stat = handle.read()
    except FileNotFoundError:
        return False
    except OSError:
        return True
    fields = stat[stat.rindex(")") + 2 :].split()
    # Fields from the third on; a zombie (state Z) is as gone as it gets.
    return fields[0] != "Z" and fields[22 - 3] == start_time


def wait_within_fence(trainer, fence_file):
    """The trainer's exit code; or, once the fence deadline passes, the whole process group killed."""
    while True:
        try:
            return trainer.wait(timeout=FENCE_CHECK_SECONDS)
        except subprocess.TimeoutExpired:
            fence = fence_deadline(fence_file)
            if fence is None:
                continue
            deadline, owner = fence
            if time.monotonic_ns() >= deadline and (owner is None or is_running(*owner)):
                late = (time.monotonic_ns() - deadline) / 1e9
                print(
                    f"the agent's fence deadline passed {late:.1f} s ago: its lease may be over and the job "
                    f"may run elsewhere; killing the trainer",
                    flush=True,
                )
                os.killpg(0, signal.SIGKILL)


def missing_program(program):
    """Why the trainer's program cannot start, as its exec would say it; None when it can.

    Inside a sandbox a program that is not found only makes the sandbox exit with 127; looking it up
    here, on the PATH the trainer gets, keeps that a launch error the user is told about as such.
    """
    if shutil.which(program) is None:
        return f"cannot start {program!r}: No such file or directory"
    return None


def main():
    pid_file, exit_file, stdout_path, stderr_path, fence_file, sandbox_words, separator, *words = sys.argv[1:]
    sandbox, argv = words[: int(sandbox_words)], words[int(sandbox_words) :]
    if separator != "--" or not argv:
        sys.exit("usage: supervise.py PID_FILE EXIT_FILE STDOUT_FILE STDERR_FILE FENCE_FILE SANDBOX_WORDS -- ARGV...")
    os.setsid()
    write_atomically(pid_file, str(os.getpid()))
    # A cancel signals the whole group; the supervisor outlives the trainer to record its exit status.
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    launch_error = missing_program(argv[0]) if sandbox else None
    if launch_error:
        write_atomically(exit_file, json.dumps({"launchError": launch_error}))
        return
    with open(stdout_path, "ab") as stdout, open(stderr_path, "ab") as stderr:
        try:
            trainer = subprocess.Popen(
                sandbox + argv,
                stdout=stdout,
                stderr=stderr,
                stdin=subprocess.DEVNULL,
                preexec_fn=None if sandbox else restore_default_signals,
            )
        except OSError as error:
            write_atomically(exit_file, json.dumps({"launchError": f"cannot start {argv[0]!r}: {error.strerror}"}))
            return
        code = wait_within_fence(trainer, fence_file)
    # Like a shell, report death by signal N as 128 + N.
    write_atomically(exit_file, json.dumps({"exitCode": code if code >= 0 else 128 - code}))


if __name__ == "__main__":
    main()
