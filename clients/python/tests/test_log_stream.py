"""The log follow against a stand-in server whose stream ends with an `error` event, as the real one ends the
stream of a token revoked or expired, or of a user removed from the job's project: the follow ends with the
problem's words at once, without reconnecting (a reconnection could only be refused)."""

from __future__ import annotations

import http.server
import threading

import pytest

from trainyard_cli.config import Settings
from trainyard_cli.log_stream import follow
from trainyard_cli.problems import CliError

STREAM = (
    b"retry: 1000\n\n"
    b'id: 1\nevent: log\ndata: {"seq": 1, "attempt": 1, "time": "2026-11-27T00:00:00Z", "stream": "stdout", '
    b'"rank": 0, "text": "tick 1"}\n\n'
    b'event: error\ndata: {"type": "about:blank", "title": "Authentication required", "status": 401, '
    b'"detail": "the token is unknown, expired or revoked", "instance": "/jobs/j/logs/stream"}\n\n'
)


PROBLEM = b'{"title": "Authentication required", "status": 401, "detail": "the token is unknown, expired or revoked"}'


class RevokedMidStream(http.server.BaseHTTPRequestHandler):
    """The stream once, then what any later request with the revoked token gets: a 401."""

    requests = 0

    def do_GET(self) -> None:
        type(self).requests += 1
        first = type(self).requests == 1
        self.send_response(200 if first else 401)
        self.send_header("Content-Type", "text/event-stream" if first else "application/problem+json")
        self.send_header("Content-Length", str(len(STREAM if first else PROBLEM)))
        self.end_headers()
        self.wfile.write(STREAM if first else PROBLEM)

    def log_message(self, *args: object) -> None:
        pass


def test_an_error_event_ends_the_follow_with_the_problem():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), RevokedMidStream)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        texts: list[str] = []
        with pytest.raises(CliError) as ended:
            follow(
                Settings(url=f"http://127.0.0.1:{server.server_port}", token="ty_revoked"),
                "j",
                0,
                lambda line: texts.append(line.text),
            )

        assert texts == ["tick 1"]
        assert "(401)" in ended.value.message and "revoked" in ended.value.message
        assert RevokedMidStream.requests == 1
    finally:
        server.shutdown()
