#!/usr/bin/env bash
# Install tablecam on a Raspberry Pi (4 or 5) running 64-bit Raspberry Pi OS (Bookworm or
# later) as a service that starts at boot.  Run from a checkout of tablecam:
#
#   sudo bash hardware/install.sh            # install, enable and start the service
#   bash hardware/install.sh --dry-run       # print every step, change nothing
#
# What it does: installs the camera stack from apt (python3-picamera2 and the numpy 1.x
# it is built against), espeak-ng, lgpio; makes a virtual environment in
# /opt/tablecam/.venv that sees those system packages and installs tablecam into it with
# numpy kept below 2 (pip would otherwise bring numpy 2 and break picamera2); creates the
# system user "tablecam" (groups gpio, video, audio); copies the config to
# /etc/tablecam.toml unless one is there; installs and enables tablecam.service.
set -euo pipefail

prefix=/opt/tablecam    # tablecam.service runs $prefix/.venv/bin/tablecam
config=/etc/tablecam.toml
unit_dir=/etc/systemd/system
service_user=tablecam
dry_run=0
force=0
start=1

usage() {
  echo "usage: install.sh [--dry-run] [--force] [--no-start]"
}

while (($#)); do
  case "$1" in
    --dry-run) dry_run=1 ;;
    --force) force=1 ;;        # install on a machine that is not 64-bit Raspberry Pi OS
    --no-start) start=0 ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
  esac
  shift
done

source_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
venv="$prefix/.venv"

step() {
  # Print a step; run it unless this is a dry run.
  echo "+ $*"
  if ((dry_run == 0)); then
    "$@"
  fi
}

fail() {
  echo "install.sh: $*" >&2
  exit 2
}

[ -f "$source_dir/pyproject.toml" ] || fail "run me from a tablecam checkout ($source_dir has no pyproject.toml)."
if ((dry_run == 0)) && [ "$(id -u)" -ne 0 ]; then
  fail "run me as root: sudo bash hardware/install.sh"
fi
if ((force == 0)); then
  [ "$(uname -m)" = aarch64 ] || fail "this is $(uname -m), not a 64-bit Raspberry Pi OS; use --force to go on."
  grep -qs "Raspberry Pi" /proc/device-tree/model || fail "this is not a Raspberry Pi; use --force to go on."
fi

apt_packages=(
  python3 python3-venv python3-pip
  python3-picamera2 python3-numpy   # the camera stack, built against numpy 1.x
  python3-lgpio                     # gpiozero's pin factory on the Pi 5 (and 4)
  espeak-ng alsa-utils              # speech, and aplay/speaker-test for checking the speaker
)
step apt-get update -qq
step env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${apt_packages[@]}"

if ! id "$service_user" >/dev/null 2>&1; then
  step useradd --system --home-dir /var/lib/tablecam --shell /usr/sbin/nologin \
    --groups gpio,video,audio "$service_user"
fi

step mkdir -p "$prefix"
step python3 -m venv --system-site-packages "$venv"
constraints="$prefix/constraints.txt"
if ((dry_run == 0)); then
  printf 'numpy<2\n' >"$constraints"
fi
echo "+ (constraints: numpy<2, to match the apt camera stack)"
step "$venv/bin/python" -m pip install -q --upgrade pip
step "$venv/bin/python" -m pip install -q --constraint "$constraints" "$source_dir"

if [ -e "$config" ]; then
  echo "install.sh: keeping your $config"
else
  step install -m 644 "$source_dir/hardware/tablecam.toml" "$config"
fi
step install -m 644 "$source_dir/hardware/tablecam.service" "$unit_dir/tablecam.service"
step systemctl daemon-reload
if ((start)); then
  step systemctl enable --now tablecam.service
else
  step systemctl enable tablecam.service
fi

cat <<DONE
install.sh: done.  Test the box at the table (camera, buttons, speaker) with:
  sudo systemctl stop tablecam
  sudo -u $service_user $venv/bin/tablecam check --config $config --out /tmp/check.png
  sudo systemctl start tablecam
DONE
