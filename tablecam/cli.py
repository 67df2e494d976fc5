"""The ``tablecam`` console script: one subcommand per module in ``tablecam.commands``.

Each command module defines ``HELP`` (one line), ``configure(parser)`` and
``run(args) -> int``, and imports its heavy dependencies inside ``run`` so that
``tablecam --help`` stays fast.  Errors a user can cause are ``TablecamError``:
printed to stderr as one sentence, exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from collections.abc import Sequence
from types import ModuleType

from tablecam import __version__
from tablecam.errors import TablecamError

# Order is the order shown by --help.
COMMANDS = (
    "demo", "run", "replay", "recognize", "simulate", "render",
    "bench", "mat", "check", "history",
)


def _command_modules() -> dict[str, ModuleType]:
    modules: dict[str, ModuleType] = {}
    for name in COMMANDS:
        module_name = f"tablecam.commands.{name}"
        if importlib.util.find_spec(module_name) is not None:
            modules[name] = importlib.import_module(module_name)
    return modules


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tablecam",
        description="A camera referee for the card game Spit.",
    )
    parser.add_argument("--version", action="version", version=f"tablecam {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module in _command_modules().items():
        command_parser = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.configure(command_parser)
        command_parser.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "_run", None) is None:
        parser.print_help()
        return 2
    try:
        return int(args._run(args) or 0)
    except TablecamError as error:
        print(f"tablecam {args.command}: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"tablecam {args.command}: stopped", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
