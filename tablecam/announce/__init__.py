"""Announcing: every call is printed on the console and, where available, spoken.

An ``Announcer`` never blocks the game: speech goes through a queue.
"""

from __future__ import annotations

from typing import Protocol


class Announcer(Protocol):
    def say(self, text: str) -> None:
        """Announce ``text``; returns at once."""

    def close(self) -> None:
        """Finish or drop pending speech and release the speaker."""
