"""``tablecam bench``: speed and memory figures for each stage, printed as a table.

Each stage keeps its benchmarks in a ``bench`` module next to its code, exposing
``BENCHMARKS: dict[str, Callable[[bool], list[Figure]]]`` (the flag asks for a quick
run).  Figures are printed, never asserted: the README records them with this command.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import sys
from collections.abc import Callable
from typing import Any

from tablecam.bench import Figure, load_average
from tablecam.errors import TablecamError

HELP = "measure speed and memory of each stage (rules, render, reader, pipeline, speech)"

BENCH_MODULES = (
    "tablecam.rules.bench",
    "tablecam.render.bench",
    "tablecam.reading.bench",
    "tablecam.tracking.bench",
    "tablecam.announce.bench",
    "tablecam.dashboard.bench",
)


def _modules() -> list[Any]:
    """The stage bench modules installed here."""
    return [importlib.import_module(name) for name in BENCH_MODULES
            if importlib.util.find_spec(name) is not None]


def available() -> dict[str, Callable[[bool], list[Figure]]]:
    found: dict[str, Callable[[bool], list[Figure]]] = {}
    for module in _modules():
        found.update(module.BENCHMARKS)
    return found


def named_only() -> set[str]:
    """Benchmarks too long for a plain ``tablecam bench`` (a module's ``NAMED_ONLY``):
    they run only when named."""
    return {name for module in _modules() for name in getattr(module, "NAMED_ONLY", ())}


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("names", nargs="*", metavar="NAME",
                        help="benchmarks to run (default: all but the long ones); see --list")
    parser.add_argument("--list", action="store_true", help="list the benchmarks and exit")
    parser.add_argument("--quick", action="store_true", help="shorter runs, rougher figures")
    parser.add_argument("--json", action="store_true", help="one JSON object per figure")


def run(args: argparse.Namespace) -> int:
    benchmarks = available()
    long = named_only()
    if args.list:
        for name in benchmarks:
            print(f"{name}  (run only when named)" if name in long else name)
        return 0
    unknown = [n for n in args.names if n not in benchmarks]
    if unknown:
        raise TablecamError(
            f"no benchmark named {', '.join(unknown)}; choose from {', '.join(benchmarks)}")
    for name in args.names or [n for n in benchmarks if n not in long]:
        for figure in benchmarks[name](args.quick):
            _print(name, figure, args.json)
    # the machine may be shared: say how busy it was, to read the figures against
    _print("machine", Figure("load average over the last minute", load_average(), ""),
           args.json)
    return 0


def _print(name: str, figure: Figure, as_json: bool) -> None:
    if as_json:
        print(json.dumps({"bench": name, **figure.as_dict()}))
    else:
        print(f"{name:>10}  {figure.label:<48} {figure.value:>12.2f} {figure.unit}")
    sys.stdout.flush()
