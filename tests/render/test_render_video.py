"""Rendered games: determinism, truth that replays through the rules, exact labels,
and the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from tablecam.events import Button, Deal, Play, read_events
from tablecam.inputs.replay import read_inputs
from tablecam.reading.warp import CARD_H, CARD_W, warp_card
from tablecam.render.camera import Camera
from tablecam.render.decks import DeckArt, find_deck, load_deck
from tablecam.render.frame import FrameRenderer
from tablecam.render.stills import render_still
from tablecam.render.timeline import Timeline
from tablecam.render.video import BETWEEN_GAMES_S, prepare_game, render_video
from tablecam.rules import replay

GOLDEN = Path(__file__).parents[1] / "data" / "game-events.jsonl"
SMALL = (320, 180)


def _deck() -> list[DeckArt]:
    """One small deck, so that a fresh cache renders only its faces."""
    return [find_deck("kde-standard")]


def test_camera_grid_and_projection_agree() -> None:
    camera = Camera(width=320, height=180, lens="module3-wide", height_mm=700, tilt_deg=12,
                    roll_deg=3)
    grid_x, grid_y = camera.table_grid()
    for v, u in ((0, 0), (90, 160), (179, 319), (20, 300)):
        back = camera.project([[float(grid_x[v, u]), float(grid_y[v, u])]])[0]
        assert np.allclose(back, (u, v), atol=0.05)
    # A (negative y) is at the bottom of the image, B at the top, x to the right
    assert camera.project([[0, -100]])[0][1] > camera.project([[0, 100]])[0][1]
    assert camera.project([[100, 0]])[0][0] > camera.project([[-100, 0]])[0][0]


def test_far_points_stay_outside_the_picture() -> None:
    camera = Camera(width=1280, height=720, lens="module3-wide", height_mm=650, tilt_deg=15,
                    k1_scale=1.3)
    for far in ([0, -4000, 0], [4000, 0, 0], [-3000, 3000, 100]):
        u, v = camera.project([far])[0]
        assert not (0 <= u < 1280 and 0 <= v < 720), f"{far} folded back to {u:.0f},{v:.0f}"


def test_golden_game_timeline_matches_its_events() -> None:
    events = read_events(GOLDEN)
    timeline = Timeline(events, seed=1)
    deal = next(e for e in events if isinstance(e, Deal))
    after_deal = timeline.snapshot_at(deal.t + 0.01)
    for seat in ("A", "B"):
        view = deal.players[seat]
        for column in range(1, 6):
            stack = after_deal.zones[f"{seat}{column}"]
            assert len(stack) == column
            assert stack[-1].face_up and stack[-1].card == view.up[column - 1]
        assert len(after_deal.zones[f"spit{seat}"]) == view.spit
    plays = [e for e in events if isinstance(e, Play)][:10]
    for play in plays:
        top = timeline.snapshot_at(play.t + 0.001).zones[play.pile][-1]
        assert top.card == play.card and top.face_up


def test_two_games_at_one_table_are_dealt_afresh_after_the_first_ends() -> None:
    game = prepare_game(2048, decks=_deck(), size=SMALL, games=2)
    events = game.events
    assert [e.t for e in events] == sorted(e.t for e in events)
    ends = [e for e in events if e.type == "game_end"]
    firsts = [e for e in events if isinstance(e, Deal) and e.round == 1]
    assert len(ends) == 2 and len(firsts) == 2
    assert firsts[1].t - ends[0].t >= BETWEEN_GAMES_S
    # Each game is a whole legal game by the rules.
    for lo, hi in ((0, events.index(ends[0]) + 1), (events.index(firsts[1]), len(events))):
        assert replay(events[lo:hi]).winner == events[hi - 1].winner  # type: ignore[attr-defined]
    # Between the games the table is bare: the cards were gathered.
    between = game.timeline.snapshot_at(ends[0].t + 5.0)
    assert not any(between.zones.values())
    laid = game.timeline.snapshot_at(firsts[1].t + 0.01)
    assert all(len(laid.zones[f"{s}{c}"]) == c for s in "AB" for c in range(1, 6))


def test_cli_refuses_games_with_an_event_log(tmp_path: Path) -> None:
    result = _cli("--out", str(tmp_path / "x.mp4"), "--games", "2", "--events", str(GOLDEN))
    assert result.returncode == 2
    assert "--games" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.slow
def test_same_seed_same_video_and_truth(tmp_path: Path) -> None:
    outputs = []
    for run in ("a", "b"):
        game = prepare_game(11, decks=_deck(), size=SMALL)
        video, truth = tmp_path / f"{run}.mp4", tmp_path / f"{run}.jsonl"
        render_video(game, video, truth=truth, seconds=6)
        outputs.append((video.read_bytes(), truth.read_text()))
    assert outputs[0] == outputs[1]
    assert outputs[0][1], "six seconds of a game include the deal"
    other = prepare_game(12, decks=_deck(), size=SMALL)
    render_video(other, tmp_path / "c.mp4", seconds=6)
    assert (tmp_path / "c.mp4").read_bytes() != outputs[0][0]


@pytest.mark.slow
def test_rendered_truth_replays_through_the_rules(tmp_path: Path) -> None:
    game = prepare_game(31, decks=_deck(), size=SMALL)
    truth = tmp_path / "truth.jsonl"
    inputs = tmp_path / "inputs.jsonl"
    frames = render_video(game, tmp_path / "game.mp4", truth=truth, inputs=inputs)
    events = read_events(truth)
    presses = read_inputs(inputs)
    assert [p.t for p in presses] == [e.t for e in events if isinstance(e, Button)]
    assert frames >= int(events[-1].t * game.scene.fps)
    finished = replay(events)
    assert finished.winner is not None
    capture = cv2.VideoCapture(str(tmp_path / "game.mp4"))
    assert int(capture.get(cv2.CAP_PROP_FRAME_COUNT)) == frames
    capture.release()


def test_labels_give_exact_corners_of_each_face() -> None:
    deck = find_deck("kde-standard")
    image, labels = render_still(3, decks=[deck], size=(1280, 720), lens="module3", t=12.0)
    faces = load_deck(deck)
    seen = [lab for lab in labels if lab.face_up and lab.visible > 0.97 and lab.zone != "hand"]
    assert len(seen) >= 4
    for label in seen:
        assert label.card is not None
        warped = warp_card(image, label.corners).astype(np.float32)
        face = faces.face(label.card, 280)
        truth = cv2.resize(face[:, :, :3], (CARD_W, CARD_H), interpolation=cv2.INTER_AREA)
        gray = [cv2.cvtColor(x.astype(np.uint8), cv2.COLOR_BGR2GRAY).astype(np.float32)
                for x in (warped, truth)]
        a, b = (g[10:-10, 10:-10] - g[10:-10, 10:-10].mean() for g in gray)
        correlation = float((a * b).sum() / np.sqrt((a * a).sum() * (b * b).sum()))
        assert correlation > 0.8, f"{label.card} at {label.corners}: {correlation:.2f}"
    zones = {lab.zone for lab in labels}
    assert {"A1", "B1"} <= zones


def test_hands_hide_cards_in_the_labels() -> None:
    game = prepare_game(4, decks=_deck(), size=(1280, 720), lens="module3")
    renderer = FrameRenderer(game.scene, game.timeline)
    play = next(e for e in game.events if isinstance(e, Play))
    _, labels = renderer.frame_with_labels(play.t - 0.05)
    assert any(lab.visible < 0.9 for lab in labels), "a hand reaching in covers something"


def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tablecam", "render", *args],
                          capture_output=True, text=True, env=env, timeout=120)


def test_cli_rejects_bad_output_in_one_sentence(tmp_path: Path) -> None:
    result = _cli("--out", str(tmp_path / "x.txt"))
    assert result.returncode == 2
    assert "video file" in result.stderr and "Traceback" not in result.stderr


def test_cli_names_the_apt_packages_when_decks_are_missing(tmp_path: Path) -> None:
    import os

    env = dict(os.environ, TABLECAM_KDE_DECKS=str(tmp_path / "none"),
               TABLECAM_GNOME_DECKS=str(tmp_path / "none"))
    result = _cli("--out", str(tmp_path / "x.mp4"), "--seconds", "1", env=env)
    assert result.returncode == 2
    assert "kdegames-card-data-kf5" in result.stderr and "gnome-cards-data" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.slow
def test_cli_writes_stills_with_labels(tmp_path: Path) -> None:
    result = _cli("--stills", "2", "--out", str(tmp_path), "--seed", "5", "--json",
                  "--deck", "kde-standard")
    assert result.returncode == 0, result.stderr
    record = json.loads((tmp_path / "00001.json").read_text())
    image = cv2.imread(str(tmp_path / record["image"]))
    assert image.shape[:2] == (record["height"], record["width"])
    card = record["cards"][0]
    assert set(card) == {"card", "face_up", "corners", "zone", "visible"}
    assert len(card["corners"]) == 4
