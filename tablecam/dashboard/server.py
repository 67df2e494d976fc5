"""The dashboard web server: the live page, server-sent events, controls and history.

Standard library only (``ThreadingHTTPServer``): one thread per request, and one
per live viewer, which reads the ``LiveHub`` and writes server-sent events.

Routes (all answers to bad requests are 4xx JSON ``{"error": sentence}``, never a
traceback):

* ``GET /``, ``GET /history`` - the live page and the history page.
* ``GET /static/<file>`` - files from the package's ``static`` folder only.
* ``GET /events`` - the SSE stream: ``snapshot`` first, then ``state``, ``event``,
  ``frame``, ``settings``, ``new_game``, ``records`` messages.
* ``GET /frame.jpg?seq=N`` - a recent camera frame (the latest if N is gone).
* ``GET /api/state``, ``GET /api/settings``, ``GET /api/games``,
  ``GET /api/games/<id>``, ``GET /api/games/<id>.json|.csv``, ``GET /api/games.csv``.
* With the pairing PIN in the ``X-Tablecam-Pin`` header: ``POST /api/pair``,
  ``POST /api/button`` ``{"button": "spit"|"slap", "player": "A"|"B"}``,
  ``POST /api/settings`` (a partial settings object), ``DELETE /api/games/<id>``.
  A wrong PIN is 403; after ``MAX_PIN_FAILURES`` wrong PINs a client waits
  ``PIN_LOCKOUT_S`` seconds (429), so the 4-digit PIN cannot be guessed by trying.
"""

from __future__ import annotations

import hmac
import json
import mimetypes
import queue
import re
import secrets
import sys
import threading
import time
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import parse_qs, urlsplit

from tablecam.dashboard.hub import JsonDict, LiveHub, encode_json, sse
from tablecam.dashboard.settings import LiveSettings, SettingsError
from tablecam.errors import HardwareError, TablecamError
from tablecam.inputs import ButtonPress
from tablecam.records import GameRecords, RecordsError

STATIC_DIR = Path(str(resources.files("tablecam.dashboard") / "static"))
PIN_HEADER = "X-Tablecam-Pin"
MAX_BODY = 16 * 1024
MAX_PIN_FAILURES = 5
PIN_LOCKOUT_S = 30.0
KEEPALIVE_S = 15.0
#: How often a viewer thread checks whether the server is stopping.
POLL_S = 0.5
_STATIC_NAME = re.compile(r"^[A-Za-z0-9_-]+(\.[A-Za-z0-9]+)+$")
_GAME_PATH = re.compile(r"^/api/games/(\d{1,9})(\.json|\.csv)?$")


def make_pin() -> str:
    """A fresh 4-digit pairing PIN from a cryptographic source."""
    return f"{secrets.randbelow(10_000):04d}"


class HttpError(Exception):
    """A request the server refuses: an HTTP status and one sentence for the client."""

    def __init__(self, status: HTTPStatus, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def static_file(name: str) -> Path:
    """The asset file called ``name``, or HttpError 404: only plain names in the folder."""
    if not _STATIC_NAME.match(name):
        raise HttpError(HTTPStatus.NOT_FOUND, f"there is no file {name!r}")
    path = (STATIC_DIR / name).resolve()
    if path.parent != STATIC_DIR.resolve() or not path.is_file():
        raise HttpError(HTTPStatus.NOT_FOUND, f"there is no file {name!r}")
    return path


class _Server(ThreadingHTTPServer):
    """Threads per request; a listen queue deep enough for a room of phones connecting at once."""

    daemon_threads = True
    request_queue_size = 128

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A phone or browser that drops its connection (a page closed, Wi-Fi lost) is
        nothing wrong with the box: no traceback for it in the service's log (the test
        suite's browser printed "Connection reset by peer" tracebacks).  Anything else is
        printed as the standard library does."""
        if isinstance(sys.exc_info()[1], ConnectionResetError | BrokenPipeError | ConnectionAbortedError):
            return
        super().handle_error(request, client_address)


class _PinGuard:
    """Checks PINs in constant time and locks out a client after repeated failures."""

    def __init__(self, pin: str) -> None:
        self.pin = pin
        self._failures: dict[str, tuple[int, float]] = {}
        self._lock = threading.Lock()

    def check(self, client: str, given: str | None) -> None:
        now = time.monotonic()
        with self._lock:
            count, since = self._failures.get(client, (0, now))
            if count >= MAX_PIN_FAILURES and now - since < PIN_LOCKOUT_S:
                raise HttpError(HTTPStatus.TOO_MANY_REQUESTS,
                                "too many wrong PINs; wait half a minute and try again")
            if count >= MAX_PIN_FAILURES:
                count = 0
            if given is None:
                raise HttpError(HTTPStatus.FORBIDDEN,
                                "this needs the pairing PIN that the box spoke and printed")
            if hmac.compare_digest(given.strip().encode(), self.pin.encode()):
                self._failures.pop(client, None)
                return
            self._failures[client] = (count + 1, now)
        raise HttpError(HTTPStatus.FORBIDDEN, "wrong PIN; use the PIN the box spoke and printed")


class DashboardServer:
    """Serves the dashboard for ``hub`` on ``port``; a context manager (start/stop).

    ``pin`` is the pairing PIN (a fresh one from ``make_pin`` if None; read it back
    from ``server.pin`` to print and speak it).  On-screen buttons put
    ``ButtonPress`` values on ``controls``; settings changes go through ``settings``
    (whose ``on_change`` the app sets).  ``records`` backs the history page.
    ``port=0`` picks a free port (see ``server.port``).
    """

    def __init__(
        self,
        hub: LiveHub,
        port: int = 8080,
        pin: str | None = None,
        controls: queue.Queue[ButtonPress] | None = None,
        settings: LiveSettings | None = None,
        records: GameRecords | None = None,
        host: str = "0.0.0.0",
    ) -> None:
        if pin is not None and not re.fullmatch(r"\d{4,8}", pin):
            raise TablecamError("the dashboard PIN must be 4 to 8 digits")
        self.hub = hub
        self.pin = pin if pin is not None else make_pin()
        self.controls: queue.Queue[ButtonPress] = controls if controls is not None else queue.Queue()
        self.settings = settings if settings is not None else LiveSettings()
        self.records = records
        self.host = host
        self._requested_port = port
        self._guard = _PinGuard(self.pin)
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self.stopping = threading.Event()
        self.viewers = 0
        self._viewers_lock = threading.Lock()

    @property
    def port(self) -> int:
        if self._httpd is None:
            return self._requested_port
        return int(self._httpd.server_address[1])

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        return f"http://{host}:{self.port}/"

    def start(self) -> DashboardServer:
        """Bind the port and serve in a background thread; HardwareError if the port is taken."""
        if self._httpd is not None:
            return self
        handler = _make_handler(self)
        try:
            httpd = _Server((self.host, self._requested_port), handler)
        except OSError as error:
            raise HardwareError(
                f"the dashboard cannot listen on port {self._requested_port} ({error.strerror}); "
                "choose another with --port") from None
        self._httpd = httpd
        self.hub.publish_settings(self.settings.current().as_dict())
        self._thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.2},
                                        name="dashboard", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and end every viewer's stream."""
        self.stopping.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> DashboardServer:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.stop()

    # ------------------------------------------------------------ route handlers
    def check_pin(self, client: str, given: str | None) -> None:
        self._guard.check(client, given)

    def press(self, body: JsonDict) -> ButtonPress:
        button = body.get("button")
        if button == "spit":
            press = ButtonPress(self.hub.now(), "spit", None)
        elif button == "slap":
            player = body.get("player")
            if player not in ("A", "B"):
                raise HttpError(HTTPStatus.BAD_REQUEST, "a slap needs 'player': \"A\" or \"B\"")
            press = ButtonPress(self.hub.now(), "slap", player)
        else:
            raise HttpError(HTTPStatus.BAD_REQUEST, "'button' must be \"spit\" or \"slap\"")
        self.controls.put_nowait(press)
        return press

    def change_settings(self, body: JsonDict) -> JsonDict:
        try:
            new = self.settings.update(body)
        except SettingsError as error:
            raise HttpError(HTTPStatus.BAD_REQUEST, str(error)) from None
        self.hub.publish_settings(new.as_dict())
        if self.records is not None and "names" in body:
            self.records.set_names(new.names)
        return self.settings.describe()

    def need_records(self) -> GameRecords:
        if self.records is None:
            raise HttpError(HTTPStatus.NOT_FOUND, "this box keeps no game records")
        return self.records

    def viewer_joined(self, delta: int) -> None:
        with self._viewers_lock:
            self.viewers += delta


def _make_handler(server: DashboardServer) -> type[BaseHTTPRequestHandler]:
    class Handler(_Handler):
        dashboard = server

    return Handler


class _Handler(BaseHTTPRequestHandler):
    dashboard: DashboardServer
    server_version = "tablecam"
    sys_version = ""
    protocol_version = "HTTP/1.1"
    # A connection that sends nothing (or a viewer that reads nothing) for this long is
    # dropped, so idle or stuck clients cannot pile up threads.
    timeout = 30

    # No request logging on the console: the console is for announcements.
    def log_message(self, format: str, *args: Any) -> None:
        return

    # --------------------------------------------------------------- dispatching
    def do_GET(self) -> None:
        self._dispatch("GET")

    def do_HEAD(self) -> None:
        self._dispatch("HEAD")

    def do_POST(self) -> None:
        self._dispatch("POST")

    def do_DELETE(self) -> None:
        self._dispatch("DELETE")

    def do_PUT(self) -> None:
        self._dispatch("PUT")

    def do_PATCH(self) -> None:
        self._dispatch("PATCH")

    def __getattr__(self, name: str) -> Callable[[], None]:
        # Any other method (OPTIONS, TRACE, FOO...) gets 405 or 404 like the rest,
        # instead of the standard library's 501 page.
        if name.startswith("do_") and name[3:].isalpha():
            return lambda: self._dispatch(name[3:])
        raise AttributeError(name)

    def _dispatch(self, method: str) -> None:
        try:
            url = urlsplit(self.path)
            path = url.path
            routes = self._routes(path)
            if routes is None:
                raise HttpError(HTTPStatus.NOT_FOUND, f"there is no page {path!r}")
            handler = routes.get("GET" if method == "HEAD" else method)
            if handler is None:
                self._drain_body()
                allowed = ", ".join(sorted(routes))
                raise HttpError(HTTPStatus.METHOD_NOT_ALLOWED,
                                f"{method} is not allowed on {path}; use {allowed}")
            handler(url.query)
        except HttpError as error:
            self._send_json({"error": error.message}, error.status)
        except (TimeoutError, BrokenPipeError, ConnectionResetError):
            self.close_connection = True
        except Exception:  # noqa: BLE001 - a bug must not show a traceback to clients
            self._send_json({"error": "the server could not answer that request"},
                            HTTPStatus.INTERNAL_SERVER_ERROR)

    def _routes(self, path: str) -> dict[str, Callable[[str], None]] | None:
        if path in ("/", "/index.html"):
            return {"GET": lambda q: self._send_static("index.html")}
        if path in ("/history", "/history.html"):
            return {"GET": lambda q: self._send_static("history.html")}
        if path.startswith("/static/"):
            name = path[len("/static/"):]
            return {"GET": lambda q: self._send_static(name)}
        if path == "/favicon.ico":
            return {"GET": lambda q: self._send_static("favicon.svg")}
        if path == "/events":
            return {"GET": self._events}
        if path == "/frame.jpg":
            return {"GET": self._frame}
        if path == "/api/state":
            return {"GET": lambda q: self._send_json(self.dashboard.hub.snapshot())}
        if path == "/api/pair":
            return {"POST": self._pair}
        if path == "/api/button":
            return {"POST": self._button}
        if path == "/api/settings":
            return {"GET": lambda q: self._send_json(self.dashboard.settings.describe()),
                    "POST": self._settings}
        if path == "/api/games":
            return {"GET": self._games}
        if path == "/api/games.csv":
            return {"GET": lambda q: self._send_text(
                self.dashboard.need_records().export_csv(), "text/csv", "tablecam-games.csv")}
        if path == "/api/games.json":
            return {"GET": lambda q: self._send_text(
                self.dashboard.need_records().export_json(), "application/json",
                "tablecam-games.json")}
        match = _GAME_PATH.match(path)
        if match:
            game_id = int(match.group(1))
            suffix = match.group(2)
            if suffix:
                return {"GET": lambda q: self._export(game_id, suffix)}
            return {"GET": lambda q: self._game(game_id), "DELETE": lambda q: self._delete(game_id)}
        return None

    # -------------------------------------------------------------------- bodies
    def _drain_body(self) -> None:
        length = self.headers.get("Content-Length")
        if length and length.isdigit() and int(length) <= MAX_BODY:
            self.rfile.read(int(length))
        elif length:
            self.close_connection = True

    def _json_body(self) -> JsonDict:
        if self.headers.get("Transfer-Encoding"):
            self.close_connection = True
            raise HttpError(HTTPStatus.LENGTH_REQUIRED, "send the body with a Content-Length")
        length_text = self.headers.get("Content-Length") or "0"
        if not length_text.isdigit():
            self.close_connection = True
            raise HttpError(HTTPStatus.BAD_REQUEST, "Content-Length must be a number")
        length = int(length_text)
        if length > MAX_BODY:
            self.close_connection = True
            raise HttpError(HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
                            f"the request body is larger than {MAX_BODY} bytes")
        raw = self.rfile.read(length) if length else b""
        if not raw.strip():
            return {}
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise HttpError(HTTPStatus.BAD_REQUEST, "the request body is not valid JSON") from None
        if not isinstance(data, dict):
            raise HttpError(HTTPStatus.BAD_REQUEST, "the request body must be a JSON object")
        return data

    def _authorised_body(self) -> JsonDict:
        body = self._json_body()
        self.dashboard.check_pin(self.client_address[0], self.headers.get(PIN_HEADER))
        return body

    # ------------------------------------------------------------------ senders
    def _send_bytes(self, data: bytes, content_type: str, status: HTTPStatus = HTTPStatus.OK,
                    headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Cache-Control", "no-store")
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def _send_json(self, data: object, status: HTTPStatus = HTTPStatus.OK) -> None:
        self._send_bytes(encode_json(data).encode("utf-8"),
                         "application/json; charset=utf-8", status)

    def _send_text(self, text: str, content_type: str, filename: str) -> None:
        self._send_bytes(text.encode("utf-8"), f"{content_type}; charset=utf-8",
                         headers={"Content-Disposition": f'attachment; filename="{filename}"'})

    def _send_static(self, name: str) -> None:
        path = static_file(name)
        kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        if kind.startswith("text/") or kind in ("application/javascript", "image/svg+xml"):
            kind += "; charset=utf-8"
        self._send_bytes(path.read_bytes(), kind)

    # ------------------------------------------------------------------- routes
    def _events(self, query: str) -> None:
        dashboard = self.dashboard
        cursor, snapshot = dashboard.hub.connect()
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Accel-Buffering", "no")
        self.end_headers()
        self.close_connection = True
        if self.command == "HEAD":
            return
        dashboard.viewer_joined(1)
        try:
            self._write_sse("retry: 1000\n\n")
            self._write_sse(sse("snapshot", snapshot))
            quiet_since = time.monotonic()
            while True:
                # On stopping, send what was published before the stop, then end.
                stopping = dashboard.stopping.is_set()
                update = dashboard.hub.wait(cursor, 0.0 if stopping else POLL_S)
                if update.wire:
                    self._write_sse("".join(update.wire))
                    quiet_since = time.monotonic()
                elif time.monotonic() - quiet_since > KEEPALIVE_S:
                    self._write_sse(": keep-alive\n\n")
                    quiet_since = time.monotonic()
                if stopping or update.closed:
                    break
        except OSError:
            pass
        finally:
            dashboard.viewer_joined(-1)

    def _write_sse(self, text: str) -> None:
        self.wfile.write(text.encode("utf-8"))
        self.wfile.flush()

    def _frame(self, query: str) -> None:
        values = parse_qs(query).get("seq", [])
        seq: int | None = None
        if values:
            if not values[0].isdigit():
                raise HttpError(HTTPStatus.BAD_REQUEST, "'seq' must be a frame number")
            seq = int(values[0])
        frame = self.dashboard.hub.frame(seq)
        if frame is None:
            raise HttpError(HTTPStatus.NOT_FOUND, "no camera frame has arrived yet")
        self._send_bytes(frame.jpeg, "image/jpeg", headers={"X-Frame-Seq": str(frame.seq)})

    def _pair(self, query: str) -> None:
        self._authorised_body()
        self._send_json({"ok": True})

    def _button(self, query: str) -> None:
        body = self._authorised_body()
        press = self.dashboard.press(body)
        self._send_json({"ok": True, "t": round(press.t, 3), "button": press.button,
                         "player": press.player}, HTTPStatus.ACCEPTED)

    def _settings(self, query: str) -> None:
        body = self._authorised_body()
        self._send_json(self.dashboard.change_settings(body))

    def _games(self, query: str) -> None:
        records = self.dashboard.need_records()
        try:
            games = records.games(limit=500)
        except RecordsError as error:
            raise HttpError(HTTPStatus.SERVICE_UNAVAILABLE, str(error)) from None
        self._send_json({"games": [g.as_dict() for g in games]})

    def _game(self, game_id: int) -> None:
        records = self.dashboard.need_records()
        try:
            data = records.game(game_id).as_dict()
            data["events"] = records.events(game_id)
        except RecordsError as error:
            raise HttpError(HTTPStatus.NOT_FOUND, str(error)) from None
        self._send_json(data)

    def _export(self, game_id: int, suffix: str) -> None:
        records = self.dashboard.need_records()
        try:
            if suffix == ".json":
                self._send_text(records.export_json([game_id]), "application/json",
                                f"tablecam-game-{game_id}.json")
            else:
                self._send_text(records.export_csv([game_id]), "text/csv",
                                f"tablecam-game-{game_id}.csv")
        except RecordsError as error:
            raise HttpError(HTTPStatus.NOT_FOUND, str(error)) from None

    def _delete(self, game_id: int) -> None:
        self._authorised_body()
        records = self.dashboard.need_records()
        try:
            records.delete_game(game_id)
        except RecordsError as error:
            raise HttpError(HTTPStatus.NOT_FOUND, str(error)) from None
        self.dashboard.hub.publish_notice("records", {"deleted": game_id})
        self._send_json({"ok": True, "deleted": game_id})

