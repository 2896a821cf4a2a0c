#!/bin/sh
# Make sure Debian's chromium is installed at /usr/bin/chromium (the browser tests in tests/web/
# drive it through Playwright; we never download Playwright's own browsers).
#
#   scripts/ensure-chromium.sh        # as root (or with sudo available) on Debian 12
#
# A no-op when /usr/bin/chromium already exists.
set -eu

CHROMIUM=/usr/bin/chromium

if [ -x "$CHROMIUM" ]; then
    echo "chromium present: $("$CHROMIUM" --version 2>/dev/null || echo "$CHROMIUM")"
    exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
else
    echo "error: $CHROMIUM is missing and this is not root (and sudo is not available)" >&2
    echo "       run as root: apt-get update && apt-get install -y chromium" >&2
    exit 1
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "error: apt-get not found; install chromium with your system's package manager" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
echo "installing Debian's chromium (apt-get) …"
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    chromium fonts-noto-cjk ca-certificates

if [ ! -x "$CHROMIUM" ]; then
    echo "error: the chromium package did not provide $CHROMIUM" >&2
    exit 1
fi
echo "chromium installed: $("$CHROMIUM" --version 2>/dev/null || echo "$CHROMIUM")"
