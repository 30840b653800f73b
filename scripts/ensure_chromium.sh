#!/usr/bin/env bash
# Make sure Debian's headless-capable Chromium and a Japanese font are installed for
# tests/test_report_browser.py (without a CJK font Japanese pages render as empty boxes).
# The font is fonts-ipafont-gothic (3.5 MB download), not fonts-noto-cjk (57 MB): both render
# Japanese; the smaller one suffices.
# Idempotent. Exits 0 even when it cannot install: the browser tests then fail with a clear message.
set -u

FONT_PACKAGE=fonts-ipafont-gothic

find_chromium() {
    command -v chromium 2>/dev/null || { [ -x /usr/bin/chromium ] && echo /usr/bin/chromium; }
}

has_japanese_font() {
    command -v fc-list >/dev/null 2>&1 && [ -n "$(fc-list :lang=ja family 2>/dev/null)" ]
}

missing=()
found=$(find_chromium)
if [ -n "$found" ]; then
    echo "ensure_chromium: found $found"
else
    missing+=(chromium)
fi
if has_japanese_font; then
    echo "ensure_chromium: found a Japanese font ($(fc-list :lang=ja family | head -n 1))"
else
    missing+=("$FONT_PACKAGE")
fi
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "ensure_chromium: missing ${missing[*]} and cannot install (need root and apt-get);" \
        "install the Debian packages: ${missing[*]}" >&2
    exit 0
fi
echo "ensure_chromium: installing ${missing[*]} with apt-get"
if apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null; then
    echo "ensure_chromium: installed ${missing[*]} (chromium: $(find_chromium))"
else
    echo "ensure_chromium: apt-get install ${missing[*]} failed" >&2
fi
exit 0
