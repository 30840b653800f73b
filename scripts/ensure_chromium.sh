#!/usr/bin/env bash
# Make sure Debian's headless-capable Chromium is installed for tests/test_report_browser.py.
# Idempotent. Exits 0 even when it cannot install: the browser test then fails with a clear message.
set -u

find_chromium() {
    command -v chromium 2>/dev/null || { [ -x /usr/bin/chromium ] && echo /usr/bin/chromium; }
}

found=$(find_chromium)
if [ -n "$found" ]; then
    echo "ensure_chromium: found $found"
    exit 0
fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "ensure_chromium: chromium missing and cannot install it (need root and apt-get);" \
        "install Debian's 'chromium' package" >&2
    exit 0
fi
echo "ensure_chromium: installing chromium with apt-get"
if apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; then
    echo "ensure_chromium: installed $(find_chromium)"
else
    echo "ensure_chromium: apt-get install chromium failed" >&2
fi
exit 0
