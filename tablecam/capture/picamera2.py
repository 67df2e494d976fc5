"""The Raspberry Pi camera (Camera Module 3 or its Wide version) through picamera2.

Only on Raspberry Pi OS, where ``python3-picamera2`` comes from apt; imported lazily.
The camera runs in the sensor mode that sees its **full field of view** (on the
IMX708 the 2x2-binned 2304 x 1296 mode, up to 56 fps), with the scaler crop opened to
the whole sensor, so the whole table is in the picture.  The picture must not hunt
mid-game: exposure, gain and focus are fixed from the config, and whatever the config
leaves out is measured by the camera for ``settle_s`` seconds at start-up and then
locked.  Frames come as BGR (picamera2's ``RGB888`` is B, G, R in memory), stamped
with the sensor's own timestamp in the pipeline's time base.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from tablecam.capture import Frame
from tablecam.capture.checks import as_bgr_image
from tablecam.config import CameraConfig
from tablecam.errors import CaptureError
from tablecam.inputs.clock import PipelineClock

log = logging.getLogger("tablecam.capture")

AF_MODE_MANUAL = 0  # libcamera's controls.AfModeEnum.Manual
MAX_BAD_FRAMES = 30


def full_view_mode(modes: list[dict[str, Any]], width: int, height: int) -> dict[str, Any]:
    """The sensor mode that sees the most of the sensor and is big enough for the output.

    Among the modes with the largest crop (the full field of view) it takes the
    smallest one at least ``width`` x ``height`` (fastest, least data), else the largest.
    """
    if not modes:
        raise CaptureError("the camera reports no sensor modes.")

    def crop_area(mode: dict[str, Any]) -> int:
        crop = mode.get("crop_limits", (0, 0, *mode["size"]))
        return int(crop[2]) * int(crop[3])

    widest = max(crop_area(mode) for mode in modes)
    full = [mode for mode in modes if crop_area(mode) == widest]
    big_enough = [m for m in full if m["size"][0] >= width and m["size"][1] >= height]
    if big_enough:
        return min(big_enough, key=lambda m: m["size"][0] * m["size"][1])
    return max(full, key=lambda m: m["size"][0] * m["size"][1])


def fixed_controls(config: CameraConfig) -> dict[str, Any]:
    """The libcamera controls that the config fixes (exposure, gain, manual focus)."""
    controls: dict[str, Any] = {"FrameRate": float(config.fps)}
    if config.exposure_us is not None:
        controls["AeEnable"] = False
        controls["ExposureTime"] = int(config.exposure_us)
    if config.analogue_gain is not None:
        controls["AeEnable"] = False
        controls["AnalogueGain"] = float(config.analogue_gain)
    if config.focus_m is not None:
        controls["AfMode"] = AF_MODE_MANUAL
        controls["LensPosition"] = 1.0 / config.focus_m  # dioptres
    return controls


def locked_controls(config: CameraConfig, metadata: dict[str, Any]) -> dict[str, Any]:
    """Controls that freeze what automatic exposure and white balance settled on."""
    controls: dict[str, Any] = {"AeEnable": False, "AwbEnable": False}
    controls["ExposureTime"] = int(config.exposure_us if config.exposure_us is not None
                                   else metadata.get("ExposureTime", 10000))
    controls["AnalogueGain"] = float(config.analogue_gain if config.analogue_gain is not None
                                     else metadata.get("AnalogueGain", 1.0))
    if "ColourGains" in metadata:
        controls["ColourGains"] = tuple(metadata["ColourGains"])
    return controls


class PiCameraSource:
    """A live Pi camera; ``read()`` raises ``CaptureError`` if the camera goes away."""

    def __init__(self, config: CameraConfig, clock: PipelineClock, camera_number: int = 0,
                 sleep: Any = time.sleep) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError:
            raise CaptureError("picamera2 is not installed; on Raspberry Pi OS run "
                               "hardware/install.sh (apt python3-picamera2).") from None
        self.clock = clock
        try:
            self._camera = Picamera2(camera_number)
        except Exception as error:
            raise CaptureError(f"the Pi camera could not be opened ({error}); check the "
                               "ribbon cable and `rpicam-hello --list-cameras`.") from None
        try:
            mode = full_view_mode(list(self._camera.sensor_modes), config.width, config.height)
            setup = self._camera.create_video_configuration(
                main={"size": (config.width, config.height), "format": "RGB888"},
                sensor={"output_size": tuple(mode["size"]), "bit_depth": mode.get("bit_depth", 10)},
                buffer_count=4)
            self._camera.configure(setup)
            controls = fixed_controls(config)
            crop = self._camera.camera_properties.get("ScalerCropMaximum")
            if crop is not None:
                controls["ScalerCrop"] = tuple(crop)
            self._camera.set_controls(controls)
            self._camera.start()
            if config.exposure_us is None or config.analogue_gain is None:
                sleep(config.settle_s)
                self._camera.set_controls(
                    locked_controls(config, self._camera.capture_metadata()))
            self.sensor_mode = mode
            log.info("Pi camera: sensor mode %sx%s (full view), output %sx%s",
                     mode["size"][0], mode["size"][1], config.width, config.height)
        except CaptureError:
            self.close()
            raise
        except Exception as error:
            self.close()
            raise CaptureError(f"the Pi camera could not be set up ({error}).") from None

    def read(self) -> Frame | None:
        for _ in range(MAX_BAD_FRAMES):
            try:
                request = self._camera.capture_request()
                try:
                    image = request.make_array("main")
                    metadata = request.get_metadata()
                finally:
                    request.release()
            except Exception as error:
                raise CaptureError(f"the Pi camera stopped delivering frames ({error}).") from None
            checked = as_bgr_image(image, "Pi camera")
            if checked is not None:
                return Frame(t=self._frame_time(metadata), image=checked)
        raise CaptureError(f"the Pi camera sent {MAX_BAD_FRAMES} corrupt frames in a row.")

    def _frame_time(self, metadata: Any) -> float:
        """The sensor's timestamp (CLOCK_MONOTONIC ns) in pipeline seconds, or now."""
        now = self.clock.now()
        stamp = metadata.get("SensorTimestamp") if isinstance(metadata, dict) else None
        if isinstance(stamp, int):
            sensor_t = self.clock.at(stamp / 1e9)
            if 0.0 <= now - sensor_t <= 1.0:
                return sensor_t
        return now

    def close(self) -> None:
        camera = getattr(self, "_camera", None)
        if camera is None:
            return
        try:
            camera.stop()
        except Exception as error:  # a camera that is already gone cannot be stopped
            log.debug("Pi camera stop: %s", error)
        try:
            camera.close()
        except Exception as error:
            log.debug("Pi camera close: %s", error)
        self._camera = None
