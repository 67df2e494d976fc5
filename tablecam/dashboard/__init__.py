"""The live dashboard: a web page served from the box, fed by server-sent events.

The pipeline publishes to a ``LiveHub`` (frames, state snapshots, events); a
``DashboardServer`` serves the page and the stream to any number of viewers, takes
on-screen button presses and settings changes behind a pairing PIN, and shows the
game records.  See docs/dashboard.md.
"""

from tablecam.dashboard.hub import LiveHub, round_summaries
from tablecam.dashboard.server import DashboardServer, make_pin
from tablecam.dashboard.settings import LiveSettings, Settings, SettingsError, SpeechSwitch

__all__ = [
    "DashboardServer", "LiveHub", "LiveSettings", "Settings", "SettingsError", "make_pin",
    "SpeechSwitch", "round_summaries",
]
