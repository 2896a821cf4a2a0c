#!/bin/sh
# Make sure the Debian packages the tests use are installed:
#   chromium             /usr/bin/chromium, driven by Playwright in tests/web/ (we never download
#                        Playwright's own browsers), with fonts-noto-cjk for the pages' Chinese
#   poppler-utils        pdftotext: the tournament tests read the PDFs back as an organiser's tools would
#   fonts-droid-fallback the Chinese TrueType font embedded in the tournament PDFs
#
#   scripts/ensure-debian.sh        # as root (or with sudo available) on Debian 12
#
# A no-op when everything is there.
set -eu

missing=""
[ -x /usr/bin/chromium ] || missing="$missing chromium fonts-noto-cjk"
command -v pdftotext >/dev/null 2>&1 || missing="$missing poppler-utils"
[ -f /usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf ] || missing="$missing fonts-droid-fallback"

if [ -z "$missing" ]; then
    echo "Debian packages present: $(/usr/bin/chromium --version 2>/dev/null), pdftotext, fonts-droid-fallback"
    exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
else
    echo "error: missing Debian packages:$missing, and this is not root (and sudo is not available)" >&2
    echo "       run as root: apt-get update && apt-get install -y$missing" >&2
    exit 1
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "error: apt-get not found; install$missing with your system's package manager" >&2
    exit 1
fi

echo "installing Debian packages:$missing (apt-get) …"
# shellcheck disable=SC2086  # $missing is a list of package names
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing ca-certificates

for need in /usr/bin/chromium /usr/bin/pdftotext /usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf; do
    [ -e "$need" ] || { echo "error: the packages did not provide $need" >&2; exit 1; }
done
echo "installed:$missing"
