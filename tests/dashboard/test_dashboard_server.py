"""The server: the stream, PIN-protected controls, strict static files, 4xx for bad requests."""

from __future__ import annotations

import http.client
import json
import queue
import socket
import struct
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablecam.dashboard import DashboardServer, LiveHub, LiveSettings, Settings
from tablecam.dashboard.server import MAX_PIN_FAILURES, STATIC_DIR, HttpError, static_file
from tablecam.errors import HardwareError, TablecamError
from tablecam.inputs import ButtonPress
from tablecam.records import GameRecords

GOLDEN = Path(__file__).parent.parent / "data" / "game-events.jsonl"
PIN = "4821"


def golden_dicts() -> list[dict[str, Any]]:
    return [json.loads(line) for line in GOLDEN.read_text().splitlines() if line.strip()]


class Box:
    """A running server with the things a test inspects."""

    def __init__(self, tmp_path: Path) -> None:
        self.hub = LiveHub(clock=lambda: 77.25)
        self.controls: queue.Queue[ButtonPress] = queue.Queue()
        self.applied: list[Settings] = []
        self.settings = LiveSettings(on_change=self.applied.append)
        self.records = GameRecords(tmp_path / "games.sqlite3")
        self.server = DashboardServer(self.hub, port=0, pin=PIN, controls=self.controls,
                                      settings=self.settings, records=self.records,
                                      host="127.0.0.1")

    def request(self, method: str, path: str, body: object = None, pin: str | None = None,
                raw: bytes | None = None) -> tuple[int, dict[str, str], bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=5)
        headers = {"Content-Type": "application/json"}
        if pin is not None:
            headers["X-Tablecam-Pin"] = pin
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        conn.request(method, path, body=data, headers=headers)
        response = conn.getresponse()
        payload = response.read()
        conn.close()
        return response.status, dict(response.getheaders()), payload


@pytest.fixture
def box(tmp_path: Path) -> Iterator[Box]:
    b = Box(tmp_path)
    with b.server:
        yield b
    b.records.close()


def error_of(payload: bytes) -> str:
    message = json.loads(payload)["error"]
    assert isinstance(message, str) and "Traceback" not in message
    return message


def test_pages_and_assets_are_served(box: Box) -> None:
    status, headers, body = box.request("GET", "/")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert b"/static/app.js" in body and b'data-testid="spit"' in body
    status, headers, body = box.request("GET", "/static/app.js")
    assert status == 200 and b"new EventSource" in body
    assert box.request("GET", "/history")[0] == 200
    assert box.request("GET", "/static/style.css")[1]["Content-Type"].startswith("text/css")


@pytest.mark.parametrize("path", [
    "/static/../server.py", "/static/..%2fserver.py", "/static/%2e%2e/hub.py",
    "/static//etc/passwd", "/static/", "/static/.hidden", "/static/sub/app.js",
    "/static/app.js/", "/static/C:%5cwindows", "/../../etc/passwd", "/etc/passwd",
    "/static/missing.js", "/static/\\..\\hub.py",
])
def test_nothing_outside_the_assets_folder_is_served(box: Box, path: str) -> None:
    status, _, body = box.request("GET", path)
    assert status == 404
    assert b"import" not in body and b"root:" not in body
    error_of(body)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="./\\%:~-_aAppjscx0 \x00", max_size=24) | st.text(max_size=12))
def test_any_asset_name_resolves_inside_the_assets_folder_or_is_404(name: str) -> None:
    try:
        path = static_file(name)
    except HttpError as error:
        assert error.status == 404
        return
    assert path.parent == STATIC_DIR.resolve() and path.is_file()


def test_raw_traversal_request_line_is_refused(box: Box) -> None:
    with socket.create_connection(("127.0.0.1", box.server.port), timeout=5) as conn:
        conn.sendall(b"GET /static/../../../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n")
        answer = conn.recv(4096)
    assert answer.startswith(b"HTTP/1.1 404") and b"root:" not in answer


def test_unknown_routes_and_methods_get_4xx(box: Box) -> None:
    assert box.request("GET", "/nope")[0] == 404
    status, headers, body = box.request("POST", "/")
    assert status == 405 and "GET" in error_of(body)
    assert box.request("DELETE", "/api/button")[0] == 405
    assert box.request("PUT", "/api/settings", {"speech": False}, pin=PIN)[0] == 405
    assert box.request("GET", "/api/button")[0] == 405
    assert box.request("OPTIONS", "/api/button")[0] == 405
    assert box.request("TRACE", "/")[0] == 405
    assert box.request("FOO", "/nope")[0] == 404
    assert box.request("GET", "/frame.jpg?seq=x")[0] == 400
    assert box.request("GET", "/frame.jpg")[0] == 404  # no frame yet


def test_buttons_need_the_pin(box: Box) -> None:
    status, _, body = box.request("POST", "/api/button", {"button": "spit"})
    assert status == 403 and "PIN" in error_of(body)
    status, _, body = box.request("POST", "/api/button", {"button": "spit"}, pin="0000")
    assert status == 403 and "wrong PIN" in error_of(body)
    assert box.controls.empty()
    status, _, body = box.request("POST", "/api/button", {"button": "slap", "player": "B"},
                                  pin=PIN)
    assert status == 202
    assert box.controls.get_nowait() == ButtonPress(77.25, "slap", "B")
    assert box.request("POST", "/api/button", {"button": "spit"}, pin=PIN)[0] == 202
    assert box.controls.get_nowait() == ButtonPress(77.25, "spit", None)
    assert box.request("POST", "/api/pair", {}, pin=PIN)[0] == 200


@pytest.mark.parametrize("raw, status, message", [
    (b"{not json", 400, "not valid JSON"),
    (b"[1, 2]", 400, "JSON object"),
    (b"\xff\xfe", 400, "not valid JSON"),
    (b'{"button": "kick"}', 400, "spit"),
    (b'{"button": "slap", "player": "C"}', 400, "player"),
    (b'{"button": "slap"}', 400, "player"),
    (b"x" * 20000, 413, "larger than"),
])
def test_malformed_controls_get_400_and_nothing_is_pressed(
        box: Box, raw: bytes, status: int, message: str) -> None:
    got, _, body = box.request("POST", "/api/button", raw=raw, pin=PIN)
    assert got == status and message in error_of(body)
    assert box.controls.empty()


def test_a_chunked_body_is_refused_with_411(box: Box) -> None:
    with socket.create_connection(("127.0.0.1", box.server.port), timeout=5) as conn:
        conn.sendall(b"POST /api/button HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
                     b"X-Tablecam-Pin: " + PIN.encode() + b"\r\n\r\n"
                     b"10\r\n{\"button\":\"spit\"}\r\n0\r\n\r\n")
        answer = conn.recv(4096)
    assert answer.startswith(b"HTTP/1.1 411")
    assert box.controls.empty()


def test_guessing_the_pin_is_locked_out(box: Box) -> None:
    for _ in range(MAX_PIN_FAILURES):
        assert box.request("POST", "/api/pair", {}, pin="1111")[0] == 403
    status, _, body = box.request("POST", "/api/pair", {}, pin=PIN)
    assert status == 429 and "wait" in error_of(body)


def test_settings_change_with_the_pin_reaches_the_app_and_every_viewer(box: Box) -> None:
    change = {"names": {"A": "Ada"}, "speech": False, "variants": {"pile_taking": "slap_race"}}
    assert box.request("POST", "/api/settings", change)[0] == 403
    assert box.applied == []
    status, _, body = box.request("POST", "/api/settings", change, pin=PIN)
    assert status == 200
    answer = json.loads(body)
    assert answer["names"] == {"A": "Ada", "B": "B"} and answer["speech"] is False
    assert "slap_race" in answer["variant_choices"]["pile_taking"]
    assert box.applied[-1].variants["pile_taking"] == "slap_race"
    assert box.hub.snapshot()["settings"]["names"]["A"] == "Ada"
    status, _, body = box.request("POST", "/api/settings", {"names": {"A": ""}}, pin=PIN)
    assert status == 400 and "non-empty" in error_of(body)
    assert json.loads(box.request("GET", "/api/settings")[2])["names"]["A"] == "Ada"


def test_history_api_lists_exports_and_deletes_with_the_pin(box: Box) -> None:
    for event in golden_dicts():
        box.records.record(event, names={"A": "Ada", "B": "Bo"})
    games = json.loads(box.request("GET", "/api/games")[2])["games"]
    assert len(games) == 1 and games[0]["winner"] == "B" and len(games[0]["rounds"]) == 4
    game = json.loads(box.request("GET", "/api/games/1")[2])
    assert len(game["events"]) == len(golden_dicts())
    status, headers, body = box.request("GET", "/api/games/1.csv")
    assert status == 200 and headers["Content-Type"].startswith("text/csv")
    assert body.decode().count("\n") == 5
    assert json.loads(box.request("GET", "/api/games.json")[2])["games"][0]["id"] == 1
    assert box.request("GET", "/api/games/99")[0] == 404
    assert box.request("DELETE", "/api/games/1")[0] == 403
    assert box.request("DELETE", "/api/games/1", pin=PIN)[0] == 200
    assert box.request("DELETE", "/api/games/1", pin=PIN)[0] == 404
    assert json.loads(box.request("GET", "/api/games")[2])["games"] == []


def read_sse(stream: http.client.HTTPResponse, until: str, timeout: float = 5.0
             ) -> list[tuple[str, Any]]:
    """Read server-sent events until one of kind ``until`` arrives."""
    messages: list[tuple[str, Any]] = []
    kind = ""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = stream.readline().decode().rstrip("\n")
        if line.startswith("event: "):
            kind = line[7:]
        elif line.startswith("data: "):
            messages.append((kind, json.loads(line[6:])))
            if kind == until:
                return messages
    raise AssertionError(f"no {until!r} message within {timeout} s: {messages}")


def open_stream(box: Box) -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection("127.0.0.1", box.server.port, timeout=5)
    conn.request("GET", "/events")
    response = conn.getresponse()
    assert response.status == 200
    assert response.getheader("Content-Type", "").startswith("text/event-stream")
    return response


def test_the_stream_starts_with_the_snapshot_and_delivers_events_within_200ms(box: Box) -> None:
    events = golden_dicts()
    for event in events[:50]:
        box.hub.publish_event(event, None)
    first, second = open_stream(box), open_stream(box)
    (kind, snap1), = read_sse(first, "snapshot")
    (_, snap2), = read_sse(second, "snapshot")
    assert kind == "snapshot" and snap1 == snap2
    assert [m["event"] for m in snap1["events"]] == events[:50]
    delays = []
    for event in events[50:60]:
        sent = time.monotonic()
        box.hub.publish_event(event, "hello")
        got = read_sse(first, "event")
        delays.append(time.monotonic() - sent)
        assert got[-1][1] == {"event": event, "announcement": "hello"}
    assert max(delays) < 0.2
    box.hub.publish_frame(3.0, b"\xff\xd8jpeg", [])
    assert read_sse(second, "frame")[-1][1]["t"] == 3.0
    status, headers, body = box.request("GET", "/frame.jpg?seq=1")
    assert status == 200 and body == b"\xff\xd8jpeg" and headers["X-Frame-Seq"] == "1"
    first.close()
    second.close()


def test_stop_ends_open_streams_and_frees_the_port(tmp_path: Path) -> None:
    b = Box(tmp_path)
    b.server.start()
    stream = open_stream(b)
    read_sse(stream, "snapshot")
    port = b.server.port
    started = time.monotonic()
    b.server.stop()
    stream.read()  # the stream ends (a hang would hit the 5 s socket timeout)
    assert time.monotonic() - started < 3
    again = DashboardServer(LiveHub(), port=port, host="127.0.0.1").start()
    again.stop()
    b.records.close()


def test_a_port_in_use_and_a_bad_pin_are_clear_errors(box: Box) -> None:
    with pytest.raises(HardwareError, match="choose another with --port"):
        DashboardServer(LiveHub(), port=box.server.port, host="127.0.0.1").start()
    with pytest.raises(TablecamError, match="4 to 8 digits"):
        DashboardServer(LiveHub(), pin="12ab")
    fresh = DashboardServer(LiveHub())
    assert len(fresh.pin) == 4 and fresh.pin.isdigit()


def test_a_client_that_drops_its_connection_leaves_no_traceback(box: Box, capfd: pytest.CaptureFixture[str]) -> None:
    for _ in range(3):
        with socket.create_connection(("127.0.0.1", box.server.port), timeout=5) as sock:
            sock.sendall(b"GET /api/state HT")  # half a request line, then gone: a reset
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        time.sleep(0.2)
    status, _headers, _body = box.request("GET", "/")
    assert status == 200  # still serving
    assert "Traceback" not in capfd.readouterr().err
