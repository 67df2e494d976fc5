"""Capture: frames from a Pi camera, a USB webcam, a video file or a folder of frames.

Every back-end is a ``FrameSource``; ``read()`` returns the next ``Frame`` or None at
the end of a recording.  ``t`` is seconds from the start of the input (video time for
files, time since opening for live cameras).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from tablecam.config import CameraConfig
    from tablecam.inputs.clock import PipelineClock


@dataclass(frozen=True, slots=True)
class Frame:
    t: float
    image: npt.NDArray[np.uint8]  # H x W x 3, BGR


class FrameSource(Protocol):
    def read(self) -> Frame | None:
        """The next frame, or None when a recording has ended."""

    def close(self) -> None:
        """Release the camera or file."""


def open_source(spec: str, camera: CameraConfig | None = None,
                clock: PipelineClock | None = None, fps: float | None = None) -> FrameSource:
    """The back-end a config or command-line string names, opened.

    ``"picamera2"``, ``"opencv:0"`` (webcam index; ``"webcam:0"`` too), ``"video:FILE"``,
    ``"frames:FOLDER"``, ``"auto"`` (the Pi camera where picamera2 is installed, else
    webcam 0), or a bare path (a file is a video, a folder is frames).  Live cameras
    come wrapped in ``ReopeningSource``; ``fps`` sets a frames folder's rate.  The
    config's ``rotate`` turns every frame (``RotatedSource``).
    """
    from tablecam.config import CameraConfig

    camera = camera or CameraConfig()
    source = _open_unrotated(spec, camera, clock, fps)
    if camera.rotate:
        from tablecam.capture.rotate import RotatedSource

        return RotatedSource(source, camera.rotate)
    return source


def _open_unrotated(spec: str, camera: CameraConfig, clock: PipelineClock | None,
                    fps: float | None) -> FrameSource:
    import importlib.util
    from pathlib import Path

    from tablecam.inputs.clock import PipelineClock

    clock = clock or PipelineClock()
    kind, _, argument = spec.partition(":")
    if kind not in ("auto", "picamera2", "opencv", "webcam", "video", "frames"):
        kind, argument = ("frames" if Path(spec).is_dir() else "video"), spec
    if kind == "auto":
        kind = "picamera2" if importlib.util.find_spec("picamera2") is not None else "opencv"
    if kind == "video":
        from tablecam.capture.video import VideoFileSource

        return VideoFileSource(argument, fps=fps)
    if kind == "frames":
        from tablecam.capture.frames import FramesFolderSource

        return FramesFolderSource(argument, fps=fps or camera.fps)
    from tablecam.capture.reopen import ReopeningSource

    if kind == "picamera2":
        from tablecam.capture.picamera2 import PiCameraSource

        number = _index(argument or "0", spec)
        return ReopeningSource(lambda: PiCameraSource(camera, clock, number),
                               name=f"Pi camera {number}",
                               max_backoff_s=camera.reopen_max_backoff_s)
    from tablecam.capture.opencv import WebcamSource

    index = _index(argument or "0", spec)
    return ReopeningSource(
        lambda: WebcamSource(index, clock, camera.width, camera.height, camera.fps),
        name=f"webcam {index}", max_backoff_s=camera.reopen_max_backoff_s)


def _index(text: str, spec: str) -> int:
    from tablecam.errors import CaptureError

    if not text.isdigit():
        raise CaptureError(f"{spec!r}: the camera number must be a whole number such as 0.")
    return int(text)
