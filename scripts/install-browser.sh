#!/usr/bin/env bash
# Installs Debian's chromium and chromium-driver for the console browser test if they are missing
# (used by .ci/run). Never downloads a browser any other way.
set -uo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
echo "install-browser: installing Debian chromium and chromium-driver" >&2
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null && $SUDO apt-get install -y -qq chromium chromium-driver >/dev/null \
  || { echo "install-browser: could not install chromium" >&2; exit 1; }
