"""One game's wiring, shared by ``tablecam run``, ``tablecam demo`` and ``tablecam replay``.

``build_session(config, ...)`` makes what the composition root needs besides the
frames and the reader, the same way for every command:

* the referee with every rule of ``config.rules`` (``RefereeRules.from_settings``);
* the dashboard's ``LiveSettings`` (the config's player names and variants, speech
  on where something can speak), whose changes are applied: names to the referee's
  announcements (and the records), variants to the referee (at once between rounds,
  otherwise from the next deal), the speech switch to the speaking announcers only
  (the console keeps printing);
* the game log: the records store, with the current names and variants on each new
  game, given to ``run_pipeline`` as ``log`` so a restart resumes the game in progress.

``session.serve(hub, port, ...)`` starts the dashboard with the controls, settings and
records wired in.
"""

from __future__ import annotations

import dataclasses
import queue
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tablecam.announce import Announcer
from tablecam.dashboard.settings import DEFAULT_VARIANTS, LiveSettings, Settings, SpeechSwitch
from tablecam.referee import Referee, RefereeRules

if TYPE_CHECKING:
    from tablecam.config import Config
    from tablecam.dashboard.hub import LiveHub
    from tablecam.dashboard.server import DashboardServer
    from tablecam.inputs import ButtonPress
    from tablecam.records import GameRecords


def config_variants(config: Config) -> dict[str, Any]:
    """The config's choice of each variant the dashboard can change."""
    return {name: getattr(config.rules, name) for name in DEFAULT_VARIANTS}


class SessionLog:
    """The records store as the pipeline's game log, stamping each new game with the
    current player names and rule variants (so a rename on the page is kept too)."""

    def __init__(self, records: GameRecords, settings: LiveSettings) -> None:
        self.records, self.settings = records, settings

    def record(self, event: Mapping[str, Any], names: Mapping[str, str] | None = None,
               variants: Mapping[str, Any] | None = None, source: str = "") -> int:
        current = self.settings.current()
        return self.records.record(event, names=names or current.names,
                                   variants=variants or current.variants, source=source)

    def unfinished_game(self) -> int | None:
        return self.records.unfinished_game()

    def resume_events(self, game_id: int | None = None) -> list[dict[str, Any]]:
        return self.records.resume_events(game_id)

    def continue_game(self, game_id: int) -> None:
        self.records.continue_game(game_id)


def speech_switches(announcer: Announcer | None) -> list[SpeechSwitch]:
    """Put a ``SpeechSwitch`` around each speaking announcer inside ``announcer``.

    A ``CombinedAnnouncer`` keeps its console announcer unswitched (the calls are
    always printed); any other announcer is switched as a whole, in place of its
    ``say`` (so the caller keeps passing the same object to the pipeline).
    """
    from tablecam.announce.combined import CombinedAnnouncer
    from tablecam.announce.console import ConsoleAnnouncer

    if announcer is None:
        return []
    if isinstance(announcer, CombinedAnnouncer):
        switches: list[SpeechSwitch] = []
        for index, inner in enumerate(announcer.announcers):
            if isinstance(inner, ConsoleAnnouncer | SpeechSwitch):
                continue
            switch = SpeechSwitch(inner)
            announcer.announcers[index] = switch
            switches.append(switch)
        return switches
    if isinstance(announcer, SpeechSwitch):
        return [announcer]
    raise TypeError(f"cannot switch the speech of a {type(announcer).__name__}; "
                    "wrap it in CombinedAnnouncer or SpeechSwitch")


@dataclass
class GameSession:
    """The referee, settings and game log of one game, wired to each other."""

    config: Config
    referee: Referee
    settings: LiveSettings
    records: GameRecords | None = None
    log: SessionLog | None = None
    switches: list[SpeechSwitch] = field(default_factory=list)

    def apply(self, settings: Settings) -> None:
        """Apply the dashboard's settings (called by ``LiveSettings`` on every change)."""
        self.referee.set_names(settings.names)
        variants: dict[str, Any] = dict(settings.variants)  # validated by LiveSettings
        rules = dataclasses.replace(self.config.rules, **variants)
        self.referee.change_rules(RefereeRules.from_settings(rules))
        for switch in self.switches:
            switch.enabled = settings.speech

    def serve(self, hub: LiveHub, port: int, host: str = "0.0.0.0",
              controls: queue.Queue[ButtonPress] | None = None) -> DashboardServer:
        """A dashboard server (not yet started) with this session's settings and records."""
        from tablecam.dashboard.server import DashboardServer

        return DashboardServer(hub, port=port, host=host, controls=controls,
                               settings=self.settings, records=self.records)


def build_session(config: Config, announcer: Announcer | None = None,
                  records: GameRecords | None = None) -> GameSession:
    """The referee, live settings and game log for ``config`` (see the module docstring).

    ``announcer`` is the pipeline's announcer: its speaking parts get the page's speech
    switch.  ``records`` (closed by the caller) becomes the game log.
    """
    switches = speech_switches(announcer)
    initial = Settings(names=dict(config.players), speech=bool(switches),
                       variants=config_variants(config))
    settings = LiveSettings(initial)
    referee = Referee(RefereeRules.from_settings(config.rules))
    session = GameSession(config, referee, settings, records,
                          SessionLog(records, settings) if records is not None else None, switches)
    session.apply(settings.current())
    settings.on_change = session.apply
    return session
