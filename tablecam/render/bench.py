"""``tablecam bench render``: rendered frames per second at 1280x720 on one core."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from tablecam.bench import Figure, peak_memory_mb


def bench_render(quick: bool) -> list[Figure]:
    """Frames per second of the frame renderer alone (layer rebuilds included), on one
    core (OpenCV single-threaded; per CPU second, and per wall-clock second, which other
    work on a shared machine lowers), over 15 s of play with hands moving; then
    with H.264 encoding in an ffmpeg process."""
    import cv2

    from tablecam.render.frame import FrameRenderer
    from tablecam.render.video import VideoWriter, prepare_game

    cv2.setNumThreads(1)
    started = time.perf_counter()
    game = prepare_game(5, size=(1280, 720), lens="module3")
    renderer = FrameRenderer(game.scene, game.timeline)
    setup = time.perf_counter() - started
    fps = game.scene.fps
    frames = 90 if quick else 450
    first = int(6 * fps)
    renderer.frame(first / fps, first)  # warm the sprite cache
    started, cpu_started = time.perf_counter(), time.process_time()
    for i in range(first, first + frames):
        renderer.frame(i / fps, i)
    render_fps = frames / (time.perf_counter() - started)
    cpu_fps = frames / max(1e-9, time.process_time() - cpu_started)
    with tempfile.TemporaryDirectory() as folder:
        writer = VideoWriter(Path(folder) / "bench.mp4", 1280, 720, fps, game.scene.look.crf)
        started = time.perf_counter()
        count = frames // 3
        for i in range(first, first + count):
            writer.write(renderer.frame(i / fps, i))
        writer.close()
        encode_fps = count / (time.perf_counter() - started)
    return [
        Figure("render: scene setup (table, light, decks cached)", setup, "s"),
        Figure("render: frames per CPU second at 1280x720, one core", cpu_fps, "fps"),
        Figure("render: frames per wall-clock second (shared machine)", render_fps, "fps"),
        Figure("render: frames per second with H.264 encoding", encode_fps, "fps"),
        Figure("render: peak memory", peak_memory_mb(), "MB"),
    ]


BENCHMARKS: dict[str, Callable[[bool], list[Figure]]] = {"render": bench_render}
