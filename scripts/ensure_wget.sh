#!/usr/bin/env bash
# Make sure Debian's wget is installed: tests/test_warc_import.py writes WARC files with
# `wget --warc-file` against the local blog farm, as researchers' own captures are made.
# Idempotent. Exits 0 even when it cannot install: that test then fails with a clear message.
set -u

if command -v wget >/dev/null 2>&1; then
    echo "ensure_wget: found $(command -v wget)"
    exit 0
fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "ensure_wget: wget missing and cannot install (need root and apt-get); install the Debian package: wget" >&2
    exit 0
fi
echo "ensure_wget: installing wget with apt-get"
if apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wget >/dev/null; then
    echo "ensure_wget: installed $(command -v wget)"
else
    echo "ensure_wget: apt-get install wget failed" >&2
fi
exit 0
