"""One error hierarchy for tablecam.

Every error a user can cause (bad input, bad config, missing hardware) is a
``TablecamError``; the command line prints its message as one sentence and exits
with status 2.  Messages say what was wrong with the input and what to do.
"""

from __future__ import annotations


class TablecamError(Exception):
    """Base class of every error tablecam reports to a user."""


class InvalidCardError(TablecamError, ValueError):
    """A card code could not be parsed."""


class RulesError(TablecamError, ValueError):
    """An action the Spit rules do not allow in the current state."""


class EventLogError(TablecamError, ValueError):
    """An event log is malformed or describes an impossible game."""


class ConfigError(TablecamError, ValueError):
    """A configuration file is missing, malformed or inconsistent."""


class CaptureError(TablecamError):
    """A camera or recording could not be opened or read."""


class ModelError(TablecamError):
    """The card-reading model is missing or unusable."""


class DeckArtError(TablecamError):
    """Card artwork for rendering is missing or unusable."""


class HardwareError(TablecamError):
    """GPIO, speech or another device could not be used."""
