#!/bin/sh
# The Debian/Ubuntu packages Adoption Desk's build and tests need (README "Quick start", .ci/run):
# as root it runs apt-get itself (containers have no sudo), as any other user through sudo.
set -eu
PACKAGES="chromium dbus gnome-keyring libsecret-1-dev pkg-config build-essential python3 ca-certificates fonts-dejavu-core nginx tinyproxy"
if [ "$(id -u)" -eq 0 ]; then
  run() { "$@"; }
elif command -v sudo >/dev/null 2>&1; then
  run() { sudo "$@"; }
else
  echo "Run this as root, or install sudo: it installs system packages ($PACKAGES)." >&2
  exit 1
fi
run env DEBIAN_FRONTEND=noninteractive apt-get update -q
# shellcheck disable=SC2086 # one word per package
run env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $PACKAGES
