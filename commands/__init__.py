"""The harvester's query commands: `scrapy sites|posts|comments|search|export|reextract` (COMMANDS_MODULE).

scrapy posts --site gen1 --since 2024-05-01 --format jsonl -s BLOGS_DB=blogs.db

They read the store (store.query) without the crawl lock, so they work while a crawl runs,
and honour `-s BLOGS_DB=PATH` like the crawl. This package holds only the shared helpers (not
a command themselves: Scrapy registers ScrapyCommand subclasses, and these are mixins).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import shutil
import sys
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TextIO

from scrapy.exceptions import UsageError

from crawler.validation import SettingError, accept_old_names, check_settings
from store import StoreBackend, StoreError, open_existing_store, store_location
from store.faults import DATABASE_ERRORS
from store.query import QueryError

FORMATS = ("table", "jsonl", "csv")
# Table columns shown whole, never cut: they are pasted back into --article / --site.
WHOLE_COLUMNS = frozenset({"url", "site"})
# Columns that give up width (down to 12) when whole URLs leave too little of the terminal.
_SHRINKABLE = ("title", "author")
_ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z?$")


class StoreCommand:
    """Mixin for commands over the store: no crawler process, the BLOGS_DB setting, output formats."""

    requires_project = True
    requires_crawler_process = False
    settings: Any
    exitcode: int

    def process_options(self, args: list[str], opts: argparse.Namespace) -> None:
        """Scrapy's options (`-s NAME=VALUE` into the settings), then every setting checked as the
        crawl checks them (crawler.validation): a bad or empty one is one line on stderr, exit 2."""
        super().process_options(args, opts)  # type: ignore[misc]
        command = type(self).__module__.rsplit(".", 1)[-1]
        for warning in accept_old_names(self.settings):
            sys.stderr.write(f"scrapy {command}: warning: {warning}\n")
        try:
            check_settings(self.settings)
        except SettingError as exc:
            sys.stderr.write(f"scrapy {command}: error: {exc}\n")
            raise SystemExit(2) from None

    def open(self, *, write: bool = False) -> StoreBackend:
        """The store at BLOGS_DB, read-only unless `write`. A missing store is a usage error (exit 2);
        a file that is not a usable store (or a database URL) ends the command with one line on stderr (exit 1)."""
        try:
            return open_existing_store(store_location(self.settings.get("BLOGS_DB")), write=write)
        except FileNotFoundError as exc:
            raise UsageError(str(exc), print_help=False) from exc
        except StoreError as exc:
            raise SystemExit(f"scrapy {type(self).__module__.rsplit('.', 1)[-1]}: error: {exc}") from None

    @staticmethod
    def add_format(parser: argparse.ArgumentParser, default: str = "table") -> None:
        parser.add_argument("--format", choices=FORMATS, default=default, help=f"output format (default {default})")

    @contextmanager
    def reported(self) -> Iterator[None]:
        """Run a command body so that user errors end as one line on stderr, never a traceback.

        QueryError (no such site or article, unreadable --since or search query, bad output path)
        exits 2; a store SQLite cannot read exits 1; a closed pipe (`| head`) ends quietly.
        """
        name = type(self).__module__.rsplit(".", 1)[-1]
        try:
            yield
        except QueryError as exc:
            sys.stderr.write(f"scrapy {name}: error: {exc}\n")
            self.exitcode = 2
        except DATABASE_ERRORS as exc:
            sys.stderr.write(f"scrapy {name}: error: the store cannot be read: {exc}\n")
            self.exitcode = 1
        except BrokenPipeError:
            # The reader went away: stop writing, and keep the interpreter from complaining at exit.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            self.exitcode = 1


# Largest --limit: beyond it SQLite's integers overflow ("datatype mismatch"); no store holds as many rows.
MAX_LIMIT = 1_000_000_000


def positive_int(text: str) -> int:
    """argparse type for --limit: a whole number from 1 to MAX_LIMIT."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive whole number")
    if value > MAX_LIMIT:
        raise argparse.ArgumentTypeError(f"{text!r} is too large: at most {MAX_LIMIT:,}".replace(",", " "))
    return value


def add_sites(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--site",
        action="append",
        default=[],
        help="only this site (its name in feeds.txt, as scrapy sites lists it); repeat for several",
    )


def say_how_many(shown: int, total: int, what: str) -> None:
    """On stderr (stdout stays data): "20 of 38 hits, --limit to see more" when a limit cut the answer."""
    if total > shown:
        sys.stderr.write(f"{shown} of {total} {what}, --limit to see more\n")


def _width(text: str) -> int:
    """Terminal columns of `text`: CJK and other wide characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _flat(value: Any) -> str:
    """`value` as a table shows it: on one line, times to the minute (jsonl/csv keep them whole)."""
    text = "" if value is None else " ".join(str(value).split())
    return text[:10] + " " + text[11:16] if _ISO.match(text) else text


def _cell(value: Any, width: int) -> str:
    """`value` on one line, cut with … and padded to `width` terminal columns."""
    text = _flat(value)
    if _width(text) > width:
        out, used = [], 0
        for ch in text:
            w = _width(ch)
            if used + w > width - 1:
                break
            out.append(ch)
            used += w
        text = "".join(out) + "…"
    return text + " " * (width - _width(text))


def write_rows(
    rows: Iterable[dict[str, Any]], fields: Sequence[str], fmt: str, out: TextIO | None = None, wide: str = "text"
) -> int:
    """Write rows as an aligned table, JSON Lines or CSV; returns the count.

    The table fits the terminal by cutting the `wide` column (and titles, authors) with …, never a
    URL or site name (WHOLE_COLUMNS), so they can be copied into the next command; a table with no
    rows says "(none)" under its header.
    """
    out = out or sys.stdout
    count = 0
    if fmt == "jsonl":
        for row in rows:
            out.write(json.dumps({f: row.get(f) for f in fields}, ensure_ascii=False) + "\n")
            count += 1
        return count
    if fmt == "csv":
        writer = csv.DictWriter(out, fieldnames=list(fields), extrasaction="ignore", lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow(row)
            count += 1
        return count
    materialized = list(rows)
    total = shutil.get_terminal_size((200, 25)).columns
    widths = {f: max([_width(f)] + [_width(_flat(r.get(f))) for r in materialized]) for f in fields}
    widths = {f: w if f in WHOLE_COLUMNS else min(40, w) for f, w in widths.items()}
    for f in _SHRINKABLE:
        excess = sum(w + 2 for g, w in widths.items() if g != wide) + (24 if wide in widths else 0) - total
        if f in widths and excess > 0:
            widths[f] = max(12, widths[f] - excess)
    if wide in widths:  # the long text column gets what the others leave
        others = sum(w + 2 for f, w in widths.items() if f != wide)
        widths[wide] = max(24, total - others)
    out.write("  ".join(_cell(f, widths[f]) for f in fields).rstrip() + "\n")
    for row in materialized:
        out.write("  ".join(_cell(row.get(f), widths[f]) for f in fields).rstrip() + "\n")
    if not materialized:
        out.write("(none)\n")
    return len(materialized)
