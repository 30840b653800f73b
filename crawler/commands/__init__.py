"""The harvester's query commands: `scrapy sites|posts|comments|search|export|reextract` (COMMANDS_MODULE).

scrapy posts --site gen1 --since 2024-05-01 --format jsonl -s BLOGS_DB=blogs.db

They read the store (pipelines.query) without the crawl lock, so they work while a crawl runs,
and honour `-s BLOGS_DB=PATH` like the crawl. This package holds only the shared helpers (not
a command themselves: Scrapy registers ScrapyCommand subclasses, and these are mixins).
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import shutil
import sys
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any, TextIO

from scrapy.exceptions import UsageError

from pipelines.query import open_store
from pipelines.store import Store, default_db_path

FORMATS = ("table", "jsonl", "csv")
_ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z?$")


class StoreCommand:
    """Mixin for commands over the store: no crawler process, the BLOGS_DB setting, output formats."""

    requires_project = True
    requires_crawler_process = False
    settings: Any
    exitcode: int

    def open(self) -> Store:
        path = default_db_path(self.settings.get("BLOGS_DB"))
        try:
            return open_store(path)
        except FileNotFoundError as exc:
            raise UsageError(str(exc), print_help=False) from exc

    @staticmethod
    def add_format(parser: argparse.ArgumentParser, default: str = "table") -> None:
        parser.add_argument("--format", choices=FORMATS, default=default, help=f"output format (default {default})")


def _width(text: str) -> int:
    """Terminal columns of `text`: CJK and other wide characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _cell(value: Any, width: int) -> str:
    """`value` on one line, cut with … and padded to `width` terminal columns."""
    text = "" if value is None else " ".join(str(value).split())
    if _ISO.match(text):
        text = text[:10] + " " + text[11:16]  # tables show times to the minute; jsonl/csv keep them whole
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
    """Write rows as an aligned table (long text cut to the terminal), JSON Lines or CSV; returns the count."""
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
    widths = {f: min(40, max([len(f)] + [_width(_cell(r.get(f), 200).rstrip()) for r in materialized])) for f in fields}
    if wide in widths:  # the long text column gets what the others leave
        others = sum(w + 2 for f, w in widths.items() if f != wide)
        widths[wide] = max(24, total - others)
    out.write("  ".join(_cell(f, widths[f]) for f in fields).rstrip() + "\n")
    for row in materialized:
        out.write("  ".join(_cell(row.get(f), widths[f]) for f in fields).rstrip() + "\n")
    return len(materialized)
