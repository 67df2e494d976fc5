"""Helpers shared by the stage benchmarks (see ``tablecam.commands.bench``)."""

from __future__ import annotations

import os
import resource
import sys
from dataclasses import asdict, dataclass


@dataclass(frozen=True, slots=True)
class Figure:
    label: str
    value: float
    unit: str

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


def peak_memory_mb() -> float:
    """Peak resident memory of this process so far, in MB."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def load_average() -> float:
    """The machine's load average over the last minute (0.0 where the system has none):
    CPU-time figures on a shared machine are read against it."""
    try:
        return os.getloadavg()[0]
    except OSError:
        return 0.0
