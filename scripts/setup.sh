#!/usr/bin/env bash
# Set up tablecam on a fresh Debian (or Raspberry Pi OS) machine: the Debian packages it
# uses (card art, espeak-ng, Chromium for the dashboard tests, shellcheck and systemd for
# the hardware checks), then a virtual environment in .venv with tablecam and its
# development tools, at the versions in scripts/constraints.txt (the figures in the
# README move with opencv, onnxruntime and numpy releases).  Safe to run again: it
# installs only what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

apt_packages=(
  python3 python3-venv python3-pip
  kdegames-card-data-kf5 gnome-cards-data   # card artwork for the renderer and training
  espeak-ng sox                             # speech, and measuring it in tests
  chromium chromium-driver                  # headless browser for the dashboard tests
  shellcheck systemd                        # checks of hardware/install.sh and the unit
  ffmpeg                                    # H.264 for rendered table videos
  fonts-dejavu-core
)
# shellcheck source=scripts/apt_missing.sh
source scripts/apt_missing.sh
install_missing_debs setup "${apt_packages[@]}"

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q --constraint scripts/constraints.txt -e '.[dev]'
echo "setup: ready (.venv/bin/tablecam)"
