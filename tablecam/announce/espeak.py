"""Speech through espeak-ng, fed from a queue so the game never waits for the speaker.

One espeak-ng process is started up front and kept warm: it reads one line of text
at a time from its stdin and speaks it, so a short phrase starts without paying for
process start-up and voice loading (``tablecam bench speech`` measures the delay).
``say()`` only puts the text on a queue; a worker thread writes it to the process
and starts a new one if it died.  With ``on_audio`` the process writes its WAV stream
to stdout instead of the speaker and every chunk is handed to the callback (used by
the benchmark and the tests, which have no sound card).

A short call ("Spit!", "Tie!") must not wait behind a long sentence that is still
being spoken: espeak-ng queues what it is given, so a call of at most
``URGENT_WORDS`` words that arrives while the speaker is busy cuts the sentence off
and goes to a second warm process kept in reserve.  The console still has every word.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import re
import shutil
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path

from tablecam.errors import HardwareError

log = logging.getLogger("tablecam.announce")

ESPEAK = "espeak-ng"
URGENT_WORDS = 4


def is_urgent(text: str) -> bool:
    """A short call that should cut off a longer sentence still being spoken."""
    return len(text.split()) <= URGENT_WORDS


def spoken_seconds(text: str, words_per_minute: int) -> float:
    """A rough length of ``text`` when spoken, for knowing when the speaker is free."""
    return 0.3 + len(text.split()) * 60.0 / words_per_minute


def espeak_available() -> bool:
    return shutil.which(ESPEAK) is not None


def espeak_command(voice: str, words_per_minute: int, amplitude: int,
                   to_stdout: bool = False) -> list[str]:
    command = [ESPEAK, "-v", voice, "-s", str(words_per_minute), "-a", str(amplitude)]
    if to_stdout:
        command.append("--stdout")
    return command


def clean_line(text: str) -> str:
    """One line of plain text: espeak-ng reads a line per announcement."""
    return re.sub(r"[\x00-\x1f\x7f]+", " ", text).strip()


def render_wav(text: str, path: str | Path, voice: str = "en", words_per_minute: int = 175,
               amplitude: int = 100) -> Path:
    """Speak ``text`` into a WAV file with ``espeak-ng -w`` (for tests and checks)."""
    target = Path(path)
    if not espeak_available():
        raise HardwareError("espeak-ng is not installed; install it with apt.")
    command = espeak_command(voice, words_per_minute, amplitude) + ["-w", str(target),
                                                                    clean_line(text)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=30, check=False)
    if result.returncode != 0 or not target.is_file():
        reason = result.stderr.strip().splitlines()[-1] if result.stderr.strip() else "no output"
        raise HardwareError(f"espeak-ng could not speak into {target} ({reason}).")
    return target


class EspeakAnnouncer:
    """Speaks each ``say()`` in order on a warm espeak-ng process."""

    def __init__(self, voice: str = "en", words_per_minute: int = 175, amplitude: int = 100,
                 on_audio: Callable[[bytes], None] | None = None) -> None:
        if not espeak_available():
            raise HardwareError("espeak-ng is not installed; install it with apt or set "
                                "speech.engine = \"console\".")
        self.command = espeak_command(voice, words_per_minute, amplitude,
                                      to_stdout=on_audio is not None)
        self.on_audio = on_audio
        self.words_per_minute = words_per_minute
        self.restarts = 0
        self.cut_offs = 0
        self._texts: queue.Queue[str | None] = queue.Queue()
        self._process: subprocess.Popen[bytes] | None = None
        self._readers: list[threading.Thread] = []
        self._busy_until = 0.0
        self._process = self._spawn()
        self._reserve = self._spawn()
        self._worker = threading.Thread(target=self._speak_queue, name="espeak", daemon=True)
        self._worker.start()

    def _start_process(self) -> subprocess.Popen[bytes]:
        self._process = self._spawn()
        return self._process

    def _spawn(self) -> subprocess.Popen[bytes]:
        try:
            process = subprocess.Popen(
                self.command, stdin=subprocess.PIPE,
                stdout=subprocess.PIPE if self.on_audio else subprocess.DEVNULL,
                stderr=subprocess.DEVNULL, bufsize=0)
        except OSError as error:
            raise HardwareError(f"espeak-ng could not be started ({error.strerror}).") from None
        if self.on_audio is not None:
            reader = threading.Thread(target=self._pass_audio, args=(process,),
                                      name="espeak-audio", daemon=True)
            reader.start()
            self._readers.append(reader)
        return process

    def _pass_audio(self, process: subprocess.Popen[bytes]) -> None:
        assert process.stdout is not None and self.on_audio is not None
        while chunk := process.stdout.read(65536):  # raw pipe: returns what is there
            self.on_audio(chunk)

    def say(self, text: str) -> None:
        line = clean_line(text)
        if line:
            self._texts.put(line)

    def _speak_queue(self) -> None:
        while (text := self._texts.get()) is not None:
            try:
                self._write(text)
            except (OSError, HardwareError):  # it died between the check and the write
                try:
                    self._write(text, restart=True)
                except (OSError, HardwareError) as error:
                    log.warning("could not speak %r: %s", text, error)

    def _cut_off(self) -> None:
        """Silence the sentence being spoken and speak next on the reserve process."""
        busy, self._process = self._process, self._reserve
        if busy is not None:
            with contextlib.suppress(OSError):
                busy.kill()
        self._reserve = self._spawn()
        self.cut_offs += 1
        if busy is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                busy.wait(1.0)

    def _write(self, text: str, restart: bool = False) -> None:
        now = time.monotonic()
        if not restart and is_urgent(text) and now < self._busy_until:
            self._cut_off()
        process = self._process
        if restart or process is None or process.poll() is not None:
            self.restarts += 1
            log.warning("espeak-ng stopped; starting it again")
            process = self._start_process()
        assert process.stdin is not None
        process.stdin.write(text.encode("utf-8") + b"\n")
        self._busy_until = (max(now, self._busy_until)
                            + spoken_seconds(text, self.words_per_minute))

    def pending(self) -> int:
        """Announcements waiting for the worker thread."""
        return self._texts.qsize()

    def close(self, timeout: float = 5.0) -> None:
        """Speak what is queued (up to ``timeout`` seconds), then stop espeak-ng."""
        self._texts.put(None)
        self._worker.join(timeout)
        for process in (self._process, self._reserve):
            if process is None:
                continue
            if process.stdin is not None:
                with contextlib.suppress(OSError):
                    process.stdin.close()
            try:
                process.wait(timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        for reader in self._readers:
            reader.join(timeout)
