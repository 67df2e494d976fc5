"""Capture back-ends on fakes and real files: video time, corrupt frames skipped,
a camera that fails and comes back, a change of resolution reported."""

from __future__ import annotations

import logging
import sys
import types
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from tablecam.capture import Frame, open_source
from tablecam.capture.fake import FakeCamera, pattern_image
from tablecam.capture.frames import FramesFolderSource
from tablecam.capture.opencv import WebcamSource
from tablecam.capture.reopen import ReopeningSource
from tablecam.capture.video import VideoFileSource
from tablecam.config import CameraConfig
from tablecam.errors import CaptureError
from tablecam.inputs.clock import PipelineClock


def _frames(source: Any) -> list[Frame]:
    frames = []
    while (frame := source.read()) is not None:
        frames.append(frame)
    source.close()
    return frames


def _write_video(path: Path, count: int, fps: float = 12.5) -> None:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, (64, 48))
    for index in range(count):
        writer.write(np.full((48, 64, 3), index * 20, dtype=np.uint8))
    writer.release()


def test_video_file_gives_video_time(tmp_path: Path) -> None:
    path = tmp_path / "game.avi"
    _write_video(path, 6)
    frames = _frames(VideoFileSource(path))
    assert [round(f.t, 3) for f in frames] == [0.0, 0.08, 0.16, 0.24, 0.32, 0.4]
    assert frames[0].image.shape == (48, 64, 3) and frames[0].image.dtype == np.uint8
    assert abs(int(frames[5].image.mean()) - 100) <= 3  # the frames keep their order


def test_video_file_errors_are_one_sentence(tmp_path: Path) -> None:
    with pytest.raises(CaptureError, match="no such video file"):
        VideoFileSource(tmp_path / "none.mp4")
    junk = tmp_path / "junk.mp4"
    junk.write_bytes(b"not a video at all")
    with pytest.raises(CaptureError, match="could not be opened as a video"):
        VideoFileSource(junk)


def test_frames_folder_skips_corrupt_pictures(tmp_path: Path,
                                              caplog: pytest.LogCaptureFixture) -> None:
    for index in (0, 1, 3):
        cv2.imwrite(str(tmp_path / f"f{index:03d}.png"), pattern_image(value=index))
    (tmp_path / "f002.png").write_bytes(b"\x89PNG broken")
    (tmp_path / "notes.txt").write_text("not a frame")
    with caplog.at_level(logging.WARNING, logger="tablecam.capture"):
        frames = _frames(FramesFolderSource(tmp_path, fps=4))
    assert [f.t for f in frames] == [0.0, 0.25, 0.75]  # times keep their slots
    assert [int(f.image[0, 0, 0]) for f in frames] == [0, 1, 3]
    assert "f002.png: skipped" in caplog.text


def test_frames_folder_errors(tmp_path: Path) -> None:
    with pytest.raises(CaptureError, match="holds no pictures"):
        FramesFolderSource(tmp_path)
    with pytest.raises(CaptureError, match="no such folder"):
        FramesFolderSource(tmp_path / "missing")


def test_fake_camera_skips_corrupt_frames() -> None:
    bad_shape = np.zeros((4, 4, 2), dtype=np.uint8)
    grey = np.full((48, 64), 7, dtype=np.uint8)
    frames = _frames(FakeCamera([pattern_image(value=1), None, bad_shape, grey], fps=2))
    assert [f.t for f in frames] == [0.0, 1.5]
    assert frames[1].image.shape == (48, 64, 3)


def test_camera_that_fails_and_comes_back(caplog: pytest.LogCaptureFixture) -> None:
    """Frame 2 fails, the first reopen fails too, the second works: no frame is lost
    after the camera is back and the reader only sees a pause."""
    cameras = [FakeCamera([pattern_image(value=i) for i in range(4)], fail_at=[2])]
    attempts: list[int] = []
    pauses: list[float] = []

    def open_camera() -> FakeCamera:
        attempts.append(len(attempts))
        if len(attempts) == 1:
            return cameras[0]
        if len(attempts) == 2:
            raise CaptureError("no camera on /dev/video0.")
        return FakeCamera([pattern_image(value=10 + i) for i in range(2)])

    with caplog.at_level(logging.INFO, logger="tablecam.capture"):
        source = ReopeningSource(open_camera, name="webcam 0", sleep=pauses.append)
        values = [int(f.image[0, 0, 0]) for f in _frames(source)]
    assert values == [0, 1, 10, 11]
    assert cameras[0].closed and source.reopens == 1
    assert pauses == [0.25, 0.5]
    assert "webcam 0 lost: the fake camera failed at frame 2" in caplog.text
    assert "webcam 0 is back" in caplog.text


def test_camera_that_never_comes_back_gives_up() -> None:
    now = [0.0]

    def sleep(seconds: float) -> None:
        now[0] += seconds

    def open_camera() -> FakeCamera:
        if now[0] == 0.0:
            return FakeCamera([pattern_image()], fail_at=[0])
        raise CaptureError("gone.")

    source = ReopeningSource(open_camera, max_backoff_s=1.0, give_up_after_s=10.0,
                             sleep=sleep, clock=lambda: now[0])
    with pytest.raises(CaptureError, match="did not come back within 10 s"):
        source.read()
    assert 10.0 < now[0] < 12.0


def test_resolution_change_is_reported_and_passed_on(caplog: pytest.LogCaptureFixture) -> None:
    images = [pattern_image(64, 48), pattern_image(64, 48), pattern_image(32, 24)]
    with caplog.at_level(logging.WARNING, logger="tablecam.capture"):
        source = ReopeningSource(lambda: FakeCamera(images))
        shapes = [f.image.shape for f in _frames(source)]
    assert shapes[-1] == (24, 32, 3) and source.size_changes == 1
    assert "changed size from 64x48 to 32x24" in caplog.text


class _FakeVideoCapture:
    """Stands in for cv2.VideoCapture(index): two frames, then the cable is pulled."""

    plugged = True

    def __init__(self, index: int) -> None:
        self.index = index
        self.reads = 0
        self.settings: dict[int, float] = {}

    def isOpened(self) -> bool:  # noqa: N802 - OpenCV's name
        return _FakeVideoCapture.plugged

    def set(self, prop: int, value: float) -> bool:
        self.settings[prop] = value
        return True

    def read(self) -> tuple[bool, Any]:
        self.reads += 1
        if self.reads > 2:
            _FakeVideoCapture.plugged = False
            return False, None
        return True, pattern_image(value=self.reads)

    def release(self) -> None:
        pass


def test_webcam_loss_and_reopen(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cv2, "VideoCapture", _FakeVideoCapture)
    _FakeVideoCapture.plugged = True
    clock = PipelineClock()
    camera = WebcamSource(0, clock, 2304, 1296, 15)
    assert camera._capture.settings[cv2.CAP_PROP_FRAME_WIDTH] == 2304
    assert camera.read() is not None and camera.read() is not None
    with pytest.raises(CaptureError, match="webcam 0 stopped delivering frames"):
        camera.read()
    with pytest.raises(CaptureError, match="could not be opened"):
        WebcamSource(0, clock)

    pauses: list[float] = []

    def replug(seconds: float) -> None:
        pauses.append(seconds)
        _FakeVideoCapture.plugged = True

    _FakeVideoCapture.plugged = True
    source = ReopeningSource(lambda: WebcamSource(0, clock), sleep=replug)
    frames = [source.read() for _ in range(5)]
    assert all(f is not None for f in frames) and source.reopens == 2
    assert frames[0] is not None and frames[4] is not None and frames[4].t >= frames[0].t


def test_open_source_picks_the_back_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.avi"
    _write_video(path, 2)
    assert isinstance(open_source(f"video:{path}"), VideoFileSource)
    assert isinstance(open_source(str(path)), VideoFileSource)
    cv2.imwrite(str(tmp_path / "a.png"), pattern_image())
    folder = open_source(str(tmp_path), fps=5)
    assert isinstance(folder, FramesFolderSource) and folder.fps == 5
    monkeypatch.setattr(cv2, "VideoCapture", _FakeVideoCapture)
    _FakeVideoCapture.plugged = True
    monkeypatch.setitem(sys.modules, "picamera2", None)  # not on a Pi
    webcam = open_source("auto")
    assert isinstance(webcam, ReopeningSource) and webcam.name == "webcam 0"
    with pytest.raises(CaptureError, match="whole number"):
        open_source("opencv:front")
    with pytest.raises(CaptureError, match="picamera2 is not installed"):
        open_source("picamera2", CameraConfig())


def _fake_picamera2(log: list[tuple[str, Any]], fail_after: int | None = None) -> types.ModuleType:
    class Request:
        def __init__(self, number: int) -> None:
            self.number = number

        def make_array(self, name: str) -> Any:
            return np.full((1296, 2304, 3), self.number, dtype=np.uint8)

        def get_metadata(self) -> dict[str, Any]:
            return {"SensorTimestamp": 5}  # on another clock: the read time is used

        def release(self) -> None:
            log.append(("release", self.number))

    class Picamera2:
        sensor_modes = [
            {"size": (1536, 864), "crop_limits": (768, 432, 3072, 1728), "bit_depth": 10},
            {"size": (2304, 1296), "crop_limits": (0, 0, 4608, 2592), "bit_depth": 10},
            {"size": (4608, 2592), "crop_limits": (0, 0, 4608, 2592), "bit_depth": 10},
        ]
        camera_properties = {"ScalerCropMaximum": (0, 0, 4608, 2592)}

        def __init__(self, number: int) -> None:
            self.frames = 0

        def create_video_configuration(self, **kwargs: Any) -> dict[str, Any]:
            return kwargs

        def configure(self, setup: dict[str, Any]) -> None:
            log.append(("configure", setup))

        def set_controls(self, controls: dict[str, Any]) -> None:
            log.append(("controls", controls))

        def start(self) -> None:
            log.append(("start", None))

        def capture_metadata(self) -> dict[str, Any]:
            return {"ExposureTime": 9000, "AnalogueGain": 2.5, "ColourGains": (1.8, 1.5)}

        def capture_request(self) -> Request:
            self.frames += 1
            if fail_after is not None and self.frames > fail_after:
                raise RuntimeError("Camera frontend has timed out")
            return Request(self.frames)

        def stop(self) -> None:
            log.append(("stop", None))

        def close(self) -> None:
            log.append(("close", None))

    module = types.ModuleType("picamera2")
    module.Picamera2 = Picamera2  # type: ignore[attr-defined]
    return module


def test_picamera2_full_view_fixed_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    from tablecam.capture.picamera2 import PiCameraSource

    calls: list[tuple[str, Any]] = []
    monkeypatch.setitem(sys.modules, "picamera2", _fake_picamera2(calls, fail_after=1))
    settle: list[float] = []
    config = CameraConfig(exposure_us=8000, focus_m=0.8, settle_s=1.5)
    camera = PiCameraSource(config, PipelineClock(), sleep=settle.append)
    setup = calls[0][1]
    assert setup["sensor"]["output_size"] == (2304, 1296)  # the binned full-view mode
    assert setup["main"] == {"size": (2304, 1296), "format": "RGB888"}
    fixed = calls[1][1]
    assert fixed["ExposureTime"] == 8000 and fixed["AeEnable"] is False
    assert fixed["LensPosition"] == pytest.approx(1.25) and fixed["AfMode"] == 0
    assert fixed["ScalerCrop"] == (0, 0, 4608, 2592)
    # gain was left out: it is measured for settle_s and then locked with white balance
    assert settle == [1.5]
    locked = calls[3][1]
    assert locked["AnalogueGain"] == 2.5 and locked["ExposureTime"] == 8000
    assert locked["AwbEnable"] is False and locked["ColourGains"] == (1.8, 1.5)
    frame = camera.read()
    assert frame is not None and frame.image.shape == (1296, 2304, 3)
    with pytest.raises(CaptureError, match="Pi camera stopped delivering frames"):
        camera.read()
    camera.close()
    assert ("close", None) in calls


def test_rotate_puts_player_a_at_the_bottom(tmp_path: Path) -> None:
    image = pattern_image(64, 48)
    image[0, 63] = (1, 2, 3)  # top right corner
    cv2.imwrite(str(tmp_path / "f.png"), image)
    turned = open_source(f"frames:{tmp_path}", CameraConfig(rotate=180)).read()
    assert turned is not None and tuple(turned.image[47, 0]) == (1, 2, 3)
    sideways = open_source(f"frames:{tmp_path}", CameraConfig(rotate=90)).read()
    assert sideways is not None and sideways.image.shape == (64, 48, 3)
    assert tuple(sideways.image[63, 47]) == (1, 2, 3)  # clockwise: top right -> bottom right
