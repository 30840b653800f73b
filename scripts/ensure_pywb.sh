#!/usr/bin/env bash
# Make sure pywb (the Webrecorder wayback machine) is installed beside the project, in .pywb/:
# tests/test_warc_pywb.py replays the WARC files `scrapy export --warc` writes in it. pywb pins
# versions the project's own environment does not share (brotlipy, cryptography, redis), so it
# gets a folder of its own (pip --target), used with PYTHONPATH=.pywb by the project's Python.
# Idempotent. Exits 0 even when it cannot install: that test then fails with a clear message.
set -u
cd "$(dirname "$0")/.."
PYWB_VERSION="2.10.0"
if [ -f .pywb/.installed-$PYWB_VERSION ]; then
    echo "ensure_pywb: found .pywb (pywb $PYWB_VERSION)"
    exit 0
fi
if [ ! -x .venv/bin/python ]; then
    echo "ensure_pywb: .venv missing (run make setup first)" >&2
    exit 0
fi
echo "ensure_pywb: installing pywb $PYWB_VERSION into .pywb"
rm -rf .pywb
if .venv/bin/python -m pip install --quiet --disable-pip-version-check --target .pywb "pywb==$PYWB_VERSION"; then
    touch .pywb/.installed-$PYWB_VERSION
    echo "ensure_pywb: installed"
else
    echo "ensure_pywb: pip install pywb failed" >&2
fi
exit 0
