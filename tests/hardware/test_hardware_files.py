"""The files a person installs the box with: the systemd unit verifies, the install
script is shellcheck-clean and does what its plan says, and the wiring table in
hardware/README.md matches the default pins."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tablecam.config import default_config, parse_pin
from tablecam.inputs.gpio import on_raspberry_pi

ROOT = Path(__file__).resolve().parents[2]
HARDWARE = ROOT / "hardware"
INSTALLED_TABLECAM = "/opt/tablecam/.venv/bin/tablecam"


def test_systemd_unit_verifies(tmp_path: Path) -> None:
    """``systemd-analyze verify`` checks that ExecStart exists, and /opt/tablecam is only
    there on an installed Pi; so a copy is verified with ExecStart pointing at this
    checkout's tablecam, the same program, and nothing else changed."""
    unit = (HARDWARE / "tablecam.service").read_text()
    assert f"ExecStart={INSTALLED_TABLECAM} run --config /etc/tablecam.toml" in unit
    here = Path(sys.executable).parent / "tablecam"
    assert here.exists()
    copy = tmp_path / "tablecam.service"
    copy.write_text(unit.replace(INSTALLED_TABLECAM, str(here)))
    result = subprocess.run(["systemd-analyze", "verify", str(copy)], capture_output=True,
                            text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    assert "tablecam.service" not in result.stderr  # no warning about our unit


def test_systemd_unit_runs_as_the_service_user() -> None:
    unit = (HARDWARE / "tablecam.service").read_text()
    assert "User=tablecam" in unit and "SupplementaryGroups=gpio video audio" in unit
    assert "Restart=always" in unit and "WantedBy=multi-user.target" in unit


def test_install_script_is_shellcheck_clean() -> None:
    assert shutil.which("shellcheck"), "shellcheck is installed by scripts/setup.sh"
    result = subprocess.run(["shellcheck", str(HARDWARE / "install.sh")], capture_output=True,
                            text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stdout


def test_install_plan_has_the_camera_stack_and_numpy_below_2() -> None:
    result = subprocess.run(["bash", str(HARDWARE / "install.sh"), "--dry-run", "--force"],
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    steps = [line[2:] for line in result.stdout.splitlines() if line.startswith("+ ")]
    apt = next(step for step in steps if "apt-get install" in step)
    for package in ("python3-picamera2", "python3-lgpio", "espeak-ng", "python3-venv"):
        assert package in apt.split()
    assert "python3 -m venv --system-site-packages /opt/tablecam/.venv" in steps
    assert any("pip install" in step and "--constraint" in step and str(ROOT) in step
               for step in steps)
    assert "(constraints: numpy<2, to match the apt camera stack)" in steps
    assert any(step.endswith("/etc/systemd/system/tablecam.service") for step in steps)
    assert steps[-1] == "systemctl enable --now tablecam.service"
    # the venv must exist before pip runs in it, and the unit after the program
    order = [next(i for i, s in enumerate(steps) if key in s)
             for key in ("apt-get install", "venv", "--constraint", "tablecam.service")]
    assert order == sorted(order)


def test_install_script_refuses_other_machines() -> None:
    if on_raspberry_pi():
        pytest.skip("this machine is a Raspberry Pi, which install.sh accepts")
    result = subprocess.run(["bash", str(HARDWARE / "install.sh"), "--dry-run"],
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 2 and "use --force" in result.stderr
    bad = subprocess.run(["bash", str(HARDWARE / "install.sh"), "--bogus"],
                         capture_output=True, text=True, timeout=60, check=False)
    assert bad.returncode == 2 and "usage" in bad.stderr


def test_wiring_table_matches_the_default_pins() -> None:
    readme = (HARDWARE / "README.md").read_text()
    rows = {match.group(1): (match.group(2), int(match.group(3)))
            for match in re.finditer(r"^\| (spit button|slap pad, player [AB])[^|]* \| "
                                     r"(GPIO\d+) \| (\d+) \|", readme, re.MULTILINE)}
    buttons = default_config().buttons
    assert rows["spit button"][0] == buttons.spit
    assert rows["slap pad, player A"][0] == buttons.slap_a
    assert rows["slap pad, player B"][0] == buttons.slap_b
    for gpio, header in rows.values():  # the header pin column agrees with the GPIO name
        assert parse_pin(f"BOARD{header}") == gpio
