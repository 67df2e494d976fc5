#!/usr/bin/env bash
# What training the card reader needs beyond scripts/setup.sh: PyTorch (CPU) and onnx in
# .venv, and the Debian font packages that scripts/train_card_reader.py draws its made-up
# decks from (tablecam.reading.fontdecks; other fonts make other decks, so the committed
# model is reproduced only with these).  Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

font_packages=(
  fonts-dejavu-core fonts-urw-base35 fonts-liberation fonts-freefont-ttf
  fonts-linuxlibertine fonts-croscore fonts-crosextra-carlito fonts-crosextra-caladea
  fonts-open-sans fonts-cantarell fonts-lato fonts-texgyre fonts-ebgaramond
  fonts-gfs-didot fonts-bebas-neue
)
# shellcheck source=scripts/apt_missing.sh
source scripts/apt_missing.sh
install_missing_debs setup_training "${font_packages[@]}"
.venv/bin/python -m pip install -q --constraint scripts/constraints.txt torch onnx
echo "setup_training: ready (.venv/bin/python scripts/train_card_reader.py)"
