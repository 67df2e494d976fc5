# shellcheck shell=bash
# install_missing_debs LABEL PACKAGE...: install those Debian packages that are not yet
# installed (with sudo when not root), saying which under LABEL; nothing when all are.
# Sourced by scripts/setup.sh and scripts/setup_training.sh.
install_missing_debs() {
  local label=$1 package sudo=""
  shift
  local missing=()
  for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
      || missing+=("$package")
  done
  if ((${#missing[@]})); then
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    echo "$label: installing Debian packages: ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
}
