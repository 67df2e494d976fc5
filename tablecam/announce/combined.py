"""Choosing and combining announcers: console always, espeak-ng where it can speak."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TextIO

from tablecam.announce import Announcer
from tablecam.announce.console import ConsoleAnnouncer
from tablecam.announce.espeak import EspeakAnnouncer, espeak_available
from tablecam.config import SpeechConfig
from tablecam.inputs.clock import PipelineClock

log = logging.getLogger("tablecam.announce")


class CombinedAnnouncer:
    """Passes every announcement to each of ``announcers`` in turn."""

    def __init__(self, announcers: Sequence[Announcer]) -> None:
        self.announcers = list(announcers)

    def say(self, text: str) -> None:
        for announcer in self.announcers:
            announcer.say(text)

    def close(self) -> None:
        for announcer in self.announcers:
            announcer.close()


def make_announcer(config: SpeechConfig, clock: PipelineClock | None = None,
                   stream: TextIO | None = None) -> CombinedAnnouncer:
    """The console, plus espeak-ng when the config asks for it and it is installed.

    A missing espeak-ng is not an error at the table: the calls are printed, and one
    warning says why nothing is spoken.
    """
    announcers: list[Announcer] = [ConsoleAnnouncer(clock, stream)]
    if config.engine == "espeak-ng":
        if espeak_available():
            announcers.append(EspeakAnnouncer(config.voice, config.words_per_minute,
                                              config.amplitude))
        else:
            log.warning("espeak-ng is not installed, so announcements are printed only "
                        "(install it with: sudo apt install espeak-ng)")
    return CombinedAnnouncer(announcers)
