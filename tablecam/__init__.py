"""tablecam: a camera referee for the card game Spit.

The package is laid out by the path a frame takes: ``capture`` -> ``geometry`` ->
``reading`` -> ``tracking`` -> ``referee`` -> ``announce``.  ``rules`` is the pure
Spit core that every stage (and the simulator and renderer) stands on.
"""

__version__ = "0.1.0"
