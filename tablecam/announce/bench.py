"""``tablecam bench speech``: how soon a short call ("Spit!") starts to sound.

The delay is measured from ``say()`` to the first audio bytes espeak-ng produces
(its ``--stdout`` WAV stream, since a test machine has no speaker): on the warm
process that ``EspeakAnnouncer`` keeps, and, for comparison, on a new espeak-ng
process per phrase.  The sound card adds its own buffer on top (ALSA's default
period is about 20 ms on a Pi).
"""

from __future__ import annotations

import queue
import statistics
import subprocess
import tempfile
import time
import wave
from collections.abc import Callable
from pathlib import Path

from tablecam.announce.espeak import EspeakAnnouncer, espeak_command, render_wav
from tablecam.bench import Figure
from tablecam.errors import HardwareError

PHRASE = "Spit!"


def _drain(arrivals: queue.Queue[float], quiet_s: float = 0.15) -> None:
    """Wait until the previous phrase has finished coming out."""
    while True:
        try:
            arrivals.get(timeout=quiet_s)
        except queue.Empty:
            return


def warm_latencies(trials: int) -> list[float]:
    """Seconds from ``say()`` to the first audio bytes, on the announcer's warm process."""
    arrivals: queue.Queue[float] = queue.Queue()
    announcer = EspeakAnnouncer(on_audio=lambda chunk: arrivals.put(time.perf_counter()))
    try:
        announcer.say("ready")
        _drain(arrivals, 0.3)
        latencies = []
        for _ in range(trials):
            start = time.perf_counter()
            announcer.say(PHRASE)
            try:
                latencies.append(arrivals.get(timeout=10) - start)
            except queue.Empty:
                raise HardwareError("espeak-ng produced no audio within 10 s.") from None
            _drain(arrivals)
        return latencies
    finally:
        announcer.close()


LONG_SENTENCE = ("Round two goes to Ada, who takes the left pile of nineteen cards; "
                 "Bo has thirty-one cards for the next round.")


def cut_in_latencies(trials: int) -> list[float]:
    """Seconds from ``say("Spit!")`` to its first audio while a long sentence is spoken."""
    chunks: queue.Queue[tuple[float, bytes]] = queue.Queue()
    announcer = EspeakAnnouncer(on_audio=lambda chunk: chunks.put((time.perf_counter(), chunk)))
    latencies = []
    try:
        for _ in range(trials):
            announcer.say(LONG_SENTENCE)
            chunks.get(timeout=10)
            start = time.perf_counter()
            announcer.say(PHRASE)
            while True:  # the reserve process's WAV stream starts with its header
                arrived, chunk = chunks.get(timeout=10)
                if chunk.startswith(b"RIFF"):
                    latencies.append(arrived - start)
                    break
            time.sleep(1.0)  # let "Spit!" finish so the next sentence finds the speaker free
            while not chunks.empty():
                chunks.get_nowait()
        return latencies
    except queue.Empty:
        raise HardwareError("espeak-ng produced no audio within 10 s.") from None
    finally:
        announcer.close()


def cold_latencies(trials: int) -> list[float]:
    """The same delay when a new espeak-ng process is started for each phrase."""
    latencies = []
    for _ in range(trials):
        start = time.perf_counter()
        process = subprocess.Popen(espeak_command("en", 175, 100, to_stdout=True) + [PHRASE],
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        assert process.stdout is not None
        process.stdout.read(1)
        latencies.append(time.perf_counter() - start)
        process.stdout.read()
        process.wait()
    return latencies


def wav_seconds(path: Path) -> float:
    with wave.open(str(path), "rb") as sound:
        return sound.getnframes() / sound.getframerate()


def _speech(quick: bool) -> list[Figure]:
    trials = 5 if quick else 30
    warm = sorted(warm_latencies(trials))
    cold = sorted(cold_latencies(trials))
    cut_in = sorted(cut_in_latencies(max(3, trials // 3)))
    with tempfile.TemporaryDirectory() as folder:
        length = wav_seconds(render_wav(PHRASE, Path(folder) / "spit.wav"))
    return [
        Figure(f"'{PHRASE}' start, warm espeak-ng (median of {trials})",
               statistics.median(warm) * 1000, "ms"),
        Figure(f"'{PHRASE}' start, warm espeak-ng (worst of {trials})", warm[-1] * 1000, "ms"),
        Figure(f"'{PHRASE}' start, over a long sentence (median of {len(cut_in)})",
               statistics.median(cut_in) * 1000, "ms"),
        Figure(f"'{PHRASE}' start, new process each time (median)",
               statistics.median(cold) * 1000, "ms"),
        Figure(f"'{PHRASE}' spoken length", length * 1000, "ms"),
    ]


BENCHMARKS: dict[str, Callable[[bool], list[Figure]]] = {"speech": _speech}
