#!/usr/bin/env bash
# Make sure a PostgreSQL server (Debian's `postgresql` package: initdb and postgres) is installed
# for the store tests that run against a real PostgreSQL (farm/postgres.py starts a private
# server for the test session on a free loopback port and stops it by pid).
# Idempotent. Exits 0 even when it cannot install: those tests then fail with a clear message.
set -u

find_initdb() {
    ls -d /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -n 1
}

found=$(find_initdb)
if [ -n "$found" ]; then
    echo "ensure_postgres: found $found"
    exit 0
fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "ensure_postgres: PostgreSQL server missing and cannot install (need root and apt-get);" \
        "install the Debian package: postgresql" >&2
    exit 0
fi
echo "ensure_postgres: installing postgresql with apt-get"
if apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; then
    echo "ensure_postgres: installed $(find_initdb)"
else
    echo "ensure_postgres: apt-get install postgresql failed" >&2
fi
exit 0
