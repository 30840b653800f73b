"""The HTTP plumbing of the farm: one threaded listener per site and the response writer.

Connections are tracked so that `close_connections()` can end idle keep-alive connections and
join their threads when the farm stops.
"""

from __future__ import annotations

import contextlib
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Protocol

from farm.response import Response

HOST = "127.0.0.1"


class RequestSink(Protocol):
    """What the listener hands requests to (the BlogFarm)."""

    def handle_request(self, h: Handler, head: bool) -> None: ...


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as crawlers use it
    server_version = "BlogFarm/1.0"
    timeout = 30  # idle keep-alive connections give up eventually
    server: SiteServer

    def do_GET(self) -> None:
        self.server.farm.handle_request(self, head=False)

    def do_HEAD(self) -> None:
        self.server.farm.handle_request(self, head=True)

    def do_POST(self) -> None:
        self.server.farm.handle_request(self, head=False)

    def version_string(self) -> str:
        return self.server_version

    def log_message(self, format: str, *args: Any) -> None:
        pass  # the farm keeps its own log


class SiteServer(ThreadingHTTPServer):
    """One site's listener; tracks its connections so stop() can close and join them."""

    daemon_threads = True

    def __init__(self, farm: RequestSink, site_name: str, port: int, host: str = HOST) -> None:
        self.farm = farm
        self.site_name = site_name
        self._conn_lock = threading.Lock()
        self._conns: dict[threading.Thread, socket.socket] = {}
        super().__init__((host, port), Handler)

    def process_request(self, request: Any, client_address: Any) -> None:
        thread = threading.Thread(
            target=self._serve_connection, args=(request, client_address), name=f"farm-{self.site_name}-conn"
        )
        thread.daemon = True
        with self._conn_lock:
            self._conns[thread] = request
        thread.start()

    def _serve_connection(self, request: Any, client_address: Any) -> None:
        try:
            self.finish_request(request, client_address)
        except Exception:
            self.handle_error(request, client_address)
        finally:
            self.shutdown_request(request)
            with self._conn_lock:
                self._conns.pop(threading.current_thread(), None)

    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], OSError):
            return  # clients hanging up on bombs and slow answers is expected
        super().handle_error(request, client_address)

    def close_connections(self, deadline: float) -> None:
        with self._conn_lock:
            conns = list(self._conns.items())
        for _, sock in conns:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        for thread, _ in conns:
            thread.join(max(0.0, deadline - time.monotonic()))


def write_response(h: Handler, resp: Response, head: bool) -> None:
    if resp.drop:
        h.close_connection = True
        with contextlib.suppress(OSError):
            h.connection.shutdown(socket.SHUT_RDWR)
        return
    try:
        h.send_response(resp.status)
        if resp.content_type and resp.status != 304:
            h.send_header("Content-Type", resp.content_type)
        if resp.declared_length is not None:
            length: int | None = resp.declared_length
            h.close_connection = True  # the body will fall short of the promise
        elif resp.stream is not None:
            length = resp.length
        else:
            length = None if resp.status == 304 else len(resp.body)
        if length is not None:
            h.send_header("Content-Length", str(length))
        elif resp.status != 304:
            h.send_header("Connection", "close")  # the body ends when the connection does
            h.close_connection = True
        for key, value in resp.headers.items():
            h.send_header(key, value)
        h.end_headers()
        if head or resp.status == 304:
            return
        if resp.stream is None:
            h.wfile.write(resp.body)
        else:
            for chunk in resp.stream:
                h.wfile.write(chunk)
        h.wfile.flush()
    except OSError:
        h.close_connection = True  # the client went away
