"""A folder of still frames (sorted by name) played as a recording at a given fps.

Frame ``i`` of the sorted list has ``t = i / fps``; an unreadable picture is skipped
with a warning and does not shift the times of the others.
"""

from __future__ import annotations

import logging
from pathlib import Path

from tablecam.capture import Frame
from tablecam.capture.checks import as_bgr_image
from tablecam.errors import CaptureError

log = logging.getLogger("tablecam.capture")

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")


class FramesFolderSource:
    """Every picture in ``folder`` in name order."""

    def __init__(self, folder: str | Path, fps: float = 10.0) -> None:
        self.folder = Path(folder)
        if not self.folder.is_dir():
            raise CaptureError(f"{self.folder}: there is no such folder of frames.")
        if fps <= 0:
            raise CaptureError(f"the frame rate must be above 0, not {fps}.")
        self.files = sorted(p for p in self.folder.iterdir()
                            if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file())
        if not self.files:
            raise CaptureError(f"{self.folder} holds no pictures "
                               f"({', '.join(IMAGE_SUFFIXES)}).")
        self.fps = fps
        self.index = 0

    def read(self) -> Frame | None:
        import cv2

        while self.index < len(self.files):
            index = self.index
            self.index += 1
            path = self.files[index]
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None:
                log.warning("%s: skipped, not a readable picture", path)
                continue
            checked = as_bgr_image(image, str(path))
            if checked is not None:
                return Frame(t=index / self.fps, image=checked)
        return None

    def close(self) -> None:
        self.index = len(self.files)
