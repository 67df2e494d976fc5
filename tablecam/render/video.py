"""Whole rendered games: a simulated (or given) game, drawn frame by frame into a video,
with the events that really happened written as truth in video time."""

from __future__ import annotations

import dataclasses
import shutil
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from tablecam.errors import TablecamError
from tablecam.events import AnyEvent, Button, write_events
from tablecam.render.decks import DeckArt
from tablecam.render.frame import FrameRenderer
from tablecam.render.scene import Scene, random_scene
from tablecam.render.timeline import Motion, Timeline


class RenderError(TablecamError):
    """A video could not be rendered or written."""


@dataclass(frozen=True)
class RenderedGame:
    """A game ready to draw: its scene, what happens when, and the truth to write."""

    scene: Scene
    timeline: Timeline
    events: list[AnyEvent]

    @property
    def duration(self) -> float:
        return self.timeline.duration


#: Seconds of empty table between one game's end and the next game's deal: the players
#: gather the cards and shuffle.
BETWEEN_GAMES_S = 25.0
#: Seeds of the games after the first in one video: ``seed + k * NEXT_GAME_SEED``.
NEXT_GAME_SEED = 100_003


def simulated_game(seed: int, games: int = 1) -> tuple[list[AnyEvent], list[Motion]]:
    """A simulated game (``tablecam.sim``) as events and the hand motions behind them;
    with ``games`` > 1, that many games played one after the other at the same table
    (each later game's events ``BETWEEN_GAMES_S`` after the previous game's end)."""
    from tablecam.sim import simulate_game

    events: list[AnyEvent] = []
    motions: list[Motion] = []
    offset = 0.0
    for k in range(games):
        game = simulate_game(seed + k * NEXT_GAME_SEED)
        shifted = [dataclasses.replace(e, t=e.t + offset) for e in game.events]
        events += shifted
        motions += [Motion(m.player, m.kind, m.start + offset, m.touch + offset, m.end + offset,
                           shifted[m.event_index] if m.event_index is not None else None,
                           m.column, m.pile)
                    for m in game.motions]
        offset = max(e.t for e in events) + BETWEEN_GAMES_S
    return events, motions


def prepare_game(seed: int, events: Sequence[AnyEvent] | None = None,
                 decks: Sequence[DeckArt] | None = None, size: tuple[int, int] | None = None,
                 lens: str | None = None, games: int = 1) -> RenderedGame:
    """The scene and timeline for ``seed``: a freshly simulated game (``games`` of them,
    one after the other), or ``events`` (an event log; hands are then made up around each
    event)."""
    scene = random_scene(seed, decks=decks, size=size, lens=lens)
    if events is None:
        game_events, motions = simulated_game(seed, games)
        timeline = Timeline(game_events, motions, layout=scene.layout, seed=seed)
    else:
        game_events = list(events)
        timeline = Timeline(game_events, layout=scene.layout, seed=seed)
    return RenderedGame(scene, timeline, game_events)


class VideoWriter:
    """H.264 through ffmpeg when it is installed (real compression artefacts, bit-exact
    output), else OpenCV's MPEG-4 writer."""

    def __init__(self, path: Path, width: int, height: int, fps: float, crf: int = 23) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._process: subprocess.Popen[bytes] | None = None
        self._cv: cv2.VideoWriter | None = None
        ffmpeg = shutil.which("ffmpeg")
        if ffmpeg:
            self._process = subprocess.Popen(
                [ffmpeg, "-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt", "bgr24",
                 "-s", f"{width}x{height}", "-r", f"{fps:g}", "-i", "-",
                 "-c:v", "libx264", "-preset", "veryfast", "-crf", str(crf),
                 "-pix_fmt", "yuv420p", "-threads", "1", "-fflags", "+bitexact",
                 "-flags:v", "+bitexact", "-map_metadata", "-1", str(path)],
                stdin=subprocess.PIPE, stderr=subprocess.PIPE)
        else:
            fourcc = cv2.VideoWriter.fourcc(*"mp4v")
            self._cv = cv2.VideoWriter(str(path), fourcc, fps, (width, height))
            if not self._cv.isOpened():
                raise RenderError(f"cannot write a video to {path}; install ffmpeg")

    def write(self, frame: np.ndarray) -> None:
        if self._process is not None:
            assert self._process.stdin is not None
            try:
                self._process.stdin.write(frame.tobytes())
            except BrokenPipeError as exc:
                raise RenderError(f"ffmpeg stopped writing {self.path}: {self._stderr()}"
                                  ) from exc
        elif self._cv is not None:
            self._cv.write(frame)

    def _stderr(self) -> str:
        if self._process is None or self._process.stderr is None:
            return ""
        return self._process.stderr.read().decode(errors="replace").strip()

    def close(self) -> None:
        if self._process is not None:
            assert self._process.stdin is not None
            self._process.stdin.close()
            code = self._process.wait()
            if code != 0:
                raise RenderError(f"ffmpeg failed writing {self.path}: {self._stderr()}")
        elif self._cv is not None:
            self._cv.release()


def render_video(game: RenderedGame, out: Path, truth: Path | None = None,
                 inputs: Path | None = None, seconds: float | None = None,
                 progress: Callable[[int, int], None] | None = None) -> int:
    """Draw ``game`` into ``out`` (frame ``i`` shows time ``i / fps``); write the events
    up to the last frame as ``truth`` and the button presses as ``inputs``.
    Returns the number of frames written."""
    scene = game.scene
    duration = game.duration if seconds is None else min(seconds, game.duration)
    frames = max(1, int(duration * scene.fps))
    renderer = FrameRenderer(scene, game.timeline)
    writer = VideoWriter(out, scene.camera.width, scene.camera.height, scene.fps,
                         scene.look.crf)
    try:
        for i in range(frames):
            writer.write(renderer.frame(i / scene.fps, i))
            if progress is not None and (i % 30 == 0 or i == frames - 1):
                progress(i + 1, frames)
    finally:
        writer.close()
    end = frames / scene.fps
    shown = [e for e in game.events if e.t < end]
    if truth is not None:
        truth.parent.mkdir(parents=True, exist_ok=True)
        write_events(shown, truth)
    if inputs is not None:
        inputs.parent.mkdir(parents=True, exist_ok=True)
        write_events([e for e in shown if isinstance(e, Button)], inputs)
    return frames
