"""The set-up scripts install the package versions the README's figures were measured
with: every package tablecam and its tests import is pinned exactly in
scripts/constraints.txt, both set-up scripts install through it, and this environment
holds those versions (so the suite runs against what the figures describe)."""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONSTRAINTS = ROOT / "scripts" / "constraints.txt"


def _pins() -> dict[str, str]:
    pins: dict[str, str] = {}
    for line in CONSTRAINTS.read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, sep, version = line.partition("==")
            assert sep, f"{line!r} in {CONSTRAINTS.name} is not an exact pin"
            pins[_normal(name)] = version
    return pins


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _requirement_names(requirements: list[str]) -> list[str]:
    return [_normal(re.split(r"[<>=!~;\[ ]", r, maxsplit=1)[0]) for r in requirements]


def test_every_runtime_development_and_training_package_is_pinned() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = _requirement_names(project["dependencies"])
    for extra in ("dev", "train"):
        wanted += _requirement_names(project["optional-dependencies"][extra])
    assert sorted(set(wanted) - set(_pins())) == []


def test_both_setup_scripts_install_through_the_constraints() -> None:
    for script in ("setup.sh", "setup_training.sh"):
        installs = [line for line in (ROOT / "scripts" / script).read_text().splitlines()
                    if "pip install" in line and "--upgrade pip" not in line]
        assert installs, script
        assert all("--constraint scripts/constraints.txt" in line for line in installs), script


def test_this_environment_has_the_pinned_versions_of_what_tablecam_runs_on() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pins = _pins()
    for name in _requirement_names(project["dependencies"]):
        installed = metadata.version(name)
        # a local build tag (2.13.0+cpu) satisfies the pin 2.13.0, as it does for pip
        assert installed.split("+")[0] == pins[name], (name, installed, pins[name])
