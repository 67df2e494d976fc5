"""Settings changed from the dashboard: player names, rule variants, speech on or off.

``LiveSettings`` validates a change, keeps the current values and calls the app's
``on_change`` callback with the new ``Settings`` so the app can apply them (rename
players in announcements, switch a rules variant, mute speech).  The variant names
and their choices come from the app (the rules core owns them); the defaults below
are the variant fields of ``tablecam.rules.Settings``.  A choice posted as text
(``"2"`` from a form) matches the typed choice (``2``) and is stored typed.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from tablecam.announce import Announcer
from tablecam.errors import TablecamError
from tablecam.events import SEATS
from tablecam.rules.settings import PAD_CLAIMS, PILE_TAKING, STUCK_RULES

Variant = str | int | bool

#: Variant name -> allowed choices, the first being the default: the choice-valued
#: fields of the rules core's ``tablecam.rules.Settings``.
DEFAULT_VARIANTS: dict[str, tuple[Variant, ...]] = {
    "pile_taking": PILE_TAKING,
    "hands": (1, 2),
    "stuck_rule": STUCK_RULES,
    "pad_claims": PAD_CLAIMS,
}

MAX_NAME = 24


class SettingsError(TablecamError, ValueError):
    """A settings change from the dashboard is not valid."""


@dataclass(frozen=True, slots=True)
class Settings:
    """The values the app applies; ``names`` maps seat A/B to a friendly name."""

    names: Mapping[str, str] = field(default_factory=lambda: {"A": "A", "B": "B"})
    speech: bool = True
    variants: Mapping[str, Variant] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"names": dict(self.names), "speech": self.speech, "variants": dict(self.variants)}


class LiveSettings:
    """The current settings, changed by validated updates; thread-safe."""

    def __init__(
        self,
        initial: Settings | None = None,
        variant_choices: Mapping[str, tuple[Variant, ...]] | None = None,
        on_change: Callable[[Settings], None] | None = None,
    ) -> None:
        self.variant_choices = dict(variant_choices if variant_choices is not None
                                    else DEFAULT_VARIANTS)
        base = initial or Settings()
        variants = {name: choices[0] for name, choices in self.variant_choices.items() if choices}
        variants.update(base.variants)
        self._current = replace(base, variants=variants)
        self.on_change = on_change
        self._lock = threading.Lock()

    def current(self) -> Settings:
        with self._lock:
            return self._current

    def describe(self) -> dict[str, Any]:
        """Current values plus the allowed variant choices, for the settings form."""
        data = self.current().as_dict()
        data["variant_choices"] = {k: list(v) for k, v in self.variant_choices.items()}
        return data

    def update(self, change: Mapping[str, Any]) -> Settings:
        """Apply a partial change (any of names, speech, variants); raise SettingsError if bad."""
        if not isinstance(change, Mapping):
            raise SettingsError("settings must be a JSON object")
        unknown = set(change) - {"names", "speech", "variants"}
        if unknown:
            raise SettingsError(f"unknown setting {sorted(unknown)[0]!r}; "
                                "use names, speech or variants")
        with self._lock:
            current = self._current
            names = dict(current.names)
            if "names" in change:
                names.update(self._names(change["names"]))
            speech = current.speech
            if "speech" in change:
                if not isinstance(change["speech"], bool):
                    raise SettingsError("'speech' must be true or false")
                speech = change["speech"]
            variants = dict(current.variants)
            if "variants" in change:
                variants.update(self._variants(change["variants"]))
            new = Settings(names=names, speech=speech, variants=variants)
            self._current = new
        if self.on_change is not None:
            self.on_change(new)
        return new

    @staticmethod
    def _names(value: object) -> dict[str, str]:
        if not isinstance(value, Mapping) or not set(value) <= set(SEATS):
            raise SettingsError("'names' must be an object keyed by seat A and/or B")
        names: dict[str, str] = {}
        for seat, name in value.items():
            if not isinstance(name, str) or not name.strip():
                raise SettingsError(f"the name for seat {seat} must be non-empty text")
            name = " ".join(name.split())
            if len(name) > MAX_NAME:
                raise SettingsError(f"the name for seat {seat} is longer than {MAX_NAME} characters")
            if not name.isprintable():
                raise SettingsError(f"the name for seat {seat} has unprintable characters")
            names[seat] = name
        return names

    def _variants(self, value: object) -> dict[str, Variant]:
        if not isinstance(value, Mapping):
            raise SettingsError("'variants' must be an object of variant name to choice")
        variants: dict[str, Variant] = {}
        for name, choice in value.items():
            if name not in self.variant_choices:
                raise SettingsError(f"unknown rule variant {name!r}; "
                                    f"choose from {', '.join(self.variant_choices)}")
            allowed = self.variant_choices[name]
            matches = [c for c in allowed if str(c) == str(choice) and not isinstance(choice, dict | list)]
            if not matches:
                raise SettingsError(f"variant {name!r} cannot be {choice!r}; choose from "
                                    f"{', '.join(str(c) for c in allowed)}")
            variants[name] = matches[0]
        return variants


class SpeechSwitch:
    """An ``Announcer`` wrapper the page's speech switch turns on and off.

    Wrap only the speaking announcer (not the console), and pass
    ``on_change=lambda s: setattr(switch, "enabled", s.speech)`` to ``LiveSettings``.
    """

    def __init__(self, inner: Announcer, enabled: bool = True) -> None:
        self.inner = inner
        self.enabled = enabled

    def say(self, text: str) -> None:
        if self.enabled:
            self.inner.say(text)

    def close(self) -> None:
        self.inner.close()
