"""A TCP proxy in front of the server that breaks its first connections, as a flaky network would."""

from __future__ import annotations

import contextlib
import socket
import threading


class DroppingProxy:
    """Forwards each connection to `upstream_port`. Of the first `drops` connections it passes on only
    `pass_bytes` bytes of the server's answer and then closes both sides: with 0 the server has done the
    request but its answer is lost; with more, a stream is cut in the middle."""

    def __init__(self, upstream_port: int, drops: int, pass_bytes: int):
        self.upstream_port = upstream_port
        self.drops_left = drops
        self.pass_bytes = pass_bytes
        self.connections = 0
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self._listener.getsockname()[1]}"
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def close(self) -> None:
        self._listener.close()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            with self._lock:
                self.connections += 1
                drop = self.drops_left > 0
                self.drops_left -= 1 if drop else 0
            upstream = socket.create_connection(("127.0.0.1", self.upstream_port))
            threading.Thread(target=self._pump, args=(client, upstream, None), daemon=True).start()
            limit = self.pass_bytes if drop else None
            threading.Thread(target=self._pump, args=(upstream, client, limit), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, target: socket.socket, limit: int | None) -> None:
        """Copies source to target; after `limit` bytes (None: no limit) closes both, mid-answer."""
        passed = 0
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                if limit is not None and passed + len(data) > limit:
                    target.sendall(data[: limit - passed])
                    break
                target.sendall(data)
                passed += len(data)
        except OSError:
            pass
        for end in (source, target):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)
            end.close()
