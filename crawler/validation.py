"""The harvester's settings and spider arguments, checked before anything opens.

check_settings(settings)  # SettingError("setting BLOGS_BATCH_SIZE='0' is not valid: it takes a whole number >= 1")
accept_old_names(settings)  # ["setting BATCH_SIZE is deprecated: it is now BLOGS_BATCH_SIZE ..."], before the checks

One table row per setting: its name, a parser that turns the raw value (text from `-s NAME=VALUE`,
or the typed default of crawler/settings.py) into the value used, and what it accepts in words.
To add a setting, add a row to SETTINGS (or SPIDER_ARGUMENTS for `-a NAME=VALUE`). A value the
user gave explicitly (`-s`, scrapy.cfg, Scrapyd) may not be empty: an unset shell variable must
not silently mean "the default store".
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from scrapy.settings import BaseSettings, get_settings_priority

from crawler import settings as project_settings
from crawler.addresses import parse_networks
from crawler.schedule import parse_durations


class SettingError(ValueError):
    """A setting or spider argument the run cannot use; the message is one line for the user."""


@dataclass(frozen=True)
class Check:
    """One setting or spider argument: `parse` returns its value or raises ValueError."""

    name: str
    parse: Callable[[Any], Any]
    accepts: str


# -- parsers ------------------------------------------------------------------------------------


def _text(value: Any) -> str:
    return "" if value is None else str(value).strip()


def whole(low: int, high: int | None = None) -> Callable[[Any], int]:
    """Parser of a whole number in [low, high]: whole(1)("10") == 10."""

    def parse(value: Any) -> int:
        if isinstance(value, bool):
            raise ValueError(value)
        number = value if isinstance(value, int) else int(_text(value))
        if number < low or (high is not None and number > high):
            raise ValueError(value)
        return number

    return parse


def number(
    low: float | None = None, high: float | None = None, *, above: float | None = None
) -> Callable[[Any], float]:
    """Parser of a finite number in [low, high] (or strictly above `above`): number(0, 1)("0.5") == 0.5."""

    def parse(value: Any) -> float:
        if isinstance(value, bool):
            raise ValueError(value)
        result = float(value) if isinstance(value, int | float) else float(_text(value))
        if not math.isfinite(result):
            raise ValueError(value)
        if (low is not None and result < low) or (high is not None and result > high):
            raise ValueError(value)
        if above is not None and result <= above:
            raise ValueError(value)
        return result

    return parse


_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def boolean(value: Any) -> bool:
    """True/False from a bool or 1/0, true/false, yes/no, on/off (any case): boolean("Yes") is True."""
    if isinstance(value, bool):
        return value
    word = _text(value).lower()
    if word in _TRUE | _FALSE:
        return word in _TRUE
    raise ValueError(value)


def one_of(*choices: str) -> Callable[[Any], str]:
    def parse(value: Any) -> str:
        word = _text(value).lower()
        if word not in choices:
            raise ValueError(value)
        return word

    return parse


def text(value: Any) -> str:
    """Any text on one line (control characters would end up in headers or paths)."""
    result = _text(value)
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in result):
        raise ValueError(value)
    return result


def durations(value: Any) -> list[float]:
    offsets = parse_durations(_text(value))
    if not offsets or offsets[0] <= 0:
        raise ValueError(value)
    return offsets


def networks(value: Any) -> str:
    """Addresses or networks separated by commas (crawler.addresses reads them): kept as given."""
    parse_networks(_text(value))
    return _text(value)


def shard(value: Any) -> tuple[int, int]:
    """`K/N` with 1 <= K <= N: shard("2/4") == (2, 4)."""
    k, n = (int(part) for part in _text(value).split("/"))
    if not 1 <= k <= n:
        raise ValueError(value)
    return k, n


# -- the tables ---------------------------------------------------------------------------------

SETTINGS: tuple[Check, ...] = (
    Check("BLOGS_DB", text, "a SQLite file path or a postgresql://user@host:port/db URL"),
    Check("BLOGS_FEEDS", text, "the path of a feeds file"),
    Check("BLOGS_CONTACT", text, "a contact URL or e-mail on one line, e.g. mailto:you@example.org"),
    Check(
        "BLOGS_REFETCH_AFTER", durations, "durations above 0 separated by commas, e.g. 1h,6h,1d (units s, m, h, d, w)"
    ),
    Check("BLOGS_FEED_MIN_INTERVAL", number(1), "a number of seconds of at least 1"),
    Check("BLOGS_FEED_MAX_INTERVAL", number(1), "a number of seconds of at least 1"),
    Check("BLOGS_BACKOFF_BASE", number(1), "a number of seconds of at least 1"),
    Check("BLOGS_MUTE_AFTER", whole(1), "a whole number of at least 1"),
    Check("BLOGS_ARTICLE_MAX_FAILURES", whole(1), "a whole number of at least 1"),
    Check("BLOGS_MAX_ENTRIES", whole(1), "a whole number of at least 1"),
    Check("BLOGS_WATCH_MAX_SLEEP", number(above=0), "a number of seconds above 0"),
    Check("BLOGS_CLOCK_OFFSET", number(), "a number of seconds (may be negative)"),
    Check("BLOGS_OBEY_CRAWL_DELAY", boolean, "True or False (also 1/0, yes/no, on/off)"),
    Check("BLOGS_CRAWL_DELAY_MAX", number(0), "a number of seconds of at least 0"),
    Check("BLOGS_PROGRESS_INTERVAL", number(0), "a number of seconds of at least 0 (0: no progress lines)"),
    Check("BLOGS_LEASE_SECONDS", number(1), "a number of seconds of at least 1"),
    Check("BLOGS_LEASE_SITES", whole(1), "a whole number of at least 1"),
    Check("BLOGS_ALLOW_PRIVATE_ADDRESSES", boolean, "True or False (also 1/0, yes/no, on/off)"),
    Check("BLOGS_ALLOWED_NETWORKS", networks, "IP addresses or CIDR networks separated by commas, e.g. 10.1.0.0/16"),
    Check("BLOGS_WARC_DIR", text, "a folder path (the crawl also writes WARC files there)"),
    Check("BLOGS_WARC_MAX_SIZE", whole(1), "a whole number of bytes of at least 1"),
    Check("BLOGS_COMMENT_API_BUDGET", whole(0), "a whole number of at least 0 (0: no comment-system reads)"),
    Check("BLOGS_COMMENT_API_PAGE_SIZE", whole(1, 1000), "a whole number from 1 to 1000"),
    Check("BLOGS_DISQUS_API_KEY", text, "a Disqus public API key"),
    Check("BLOGS_GITHUB_API", text, "the base URL of GitHub's REST API"),
    Check("BLOGS_GITHUB_TOKEN", text, "a GitHub token"),
    Check("BLOGS_RENDER_COMMENTS", number(0), "pages per minute, a number of at least 0 (0: no rendering)"),
    Check("BLOGS_RENDER_TIMEOUT", number(above=0), "a number of seconds above 0"),
    Check("BLOGS_ROBOTS_TIMEOUT", number(above=0), "a number of seconds above 0"),
    Check("BLOGS_RENDER_SITE_BUDGET", whole(0), "a whole number of at least 0 (0: no per-site limit)"),
    Check("BLOGS_BATCH_SIZE", whole(1), "a whole number of at least 1"),
    Check("BLOGS_EXTRACT_ENABLED", boolean, "True or False (also 1/0, yes/no, on/off)"),
    Check("BLOGS_EXTRACT_MODE", one_of("process", "thread"), "process or thread"),
    Check("BLOGS_EXTRACT_WORKERS", whole(1, 256), "a whole number from 1 to 256"),
    Check("BLOGS_EXTRACT_DRIFT_THRESHOLD", number(0, 1), "a share from 0 to 1"),
    Check("BLOGS_COMMENT_FEED_AGREEMENT_MIN", number(0, 1), "a share from 0 to 1"),
    Check("BLOGS_COMMENT_FEED_AGREEMENT_DROP", number(0, 1), "a share from 0 to 1"),
    # Scrapy's own, as far as this project sets them: Scrapy reads them later, with a traceback.
    Check("ROBOTSTXT_OBEY", boolean, "True or False (also 1/0, yes/no, on/off)"),
    Check("AUTOTHROTTLE_ENABLED", boolean, "True or False (also 1/0, yes/no, on/off)"),
    Check("AUTOTHROTTLE_START_DELAY", number(0), "a number of seconds of at least 0"),
    Check("AUTOTHROTTLE_MAX_DELAY", number(0), "a number of seconds of at least 0"),
    Check("AUTOTHROTTLE_TARGET_CONCURRENCY", number(above=0), "a number above 0"),
    Check("CONCURRENT_REQUESTS", whole(1), "a whole number of at least 1"),
    Check("CONCURRENT_REQUESTS_PER_DOMAIN", whole(1), "a whole number of at least 1"),
    Check("DOWNLOAD_DELAY", number(0), "a number of seconds of at least 0"),
    Check("DOWNLOAD_TIMEOUT", number(above=0), "a number of seconds above 0"),
    Check("DNS_TIMEOUT", number(above=0), "a number of seconds above 0"),
    Check("DOWNLOAD_MAXSIZE", whole(0), "a whole number of bytes (0: no limit)"),
    Check("DOWNLOAD_WARNSIZE", whole(0), "a whole number of bytes (0: no warning)"),
    Check("RETRY_TIMES", whole(0), "a whole number of at least 0"),
)

SPIDER_ARGUMENTS: tuple[Check, ...] = (
    Check("feeds", text, "the path of a feeds file"),
    Check("watch", boolean, "1 or 0 (also true/false, yes/no, on/off)"),
    Check("force", boolean, "1 or 0 (also true/false, yes/no, on/off)"),
    Check("unmute", text, "all, a feed URL or a site name"),
    Check("shard", shard, "K/N with 1 <= K <= N, e.g. 2/4"),
)
# Given by Scrapyd to every job; not ours to check.
FOREIGN_ARGUMENTS = frozenset({"_job"})

# The settings' names before every one of the harvester's got the BLOGS_ prefix: still accepted (the
# value moves to the new name, at the priority it was given with), with a one-line warning each.
OLD_NAMES = {
    name.removeprefix("BLOGS_"): name
    for name in (
        "BLOGS_REFETCH_AFTER",
        "BLOGS_BATCH_SIZE",
        "BLOGS_EXTRACT_ENABLED",
        "BLOGS_EXTRACT_MODE",
        "BLOGS_EXTRACT_WORKERS",
        "BLOGS_EXTRACT_DRIFT_THRESHOLD",
        "BLOGS_COMMENT_FEED_AGREEMENT_MIN",
        "BLOGS_COMMENT_FEED_AGREEMENT_DROP",
    )
}
_BY_NAME = {check.name: check for check in SETTINGS}
_ARGUMENT_BY_NAME = {check.name: check for check in SPIDER_ARGUMENTS}
# Prefixes of the harvester's own settings: an unknown name with one of them is most likely a typo.
OWN_PREFIXES = ("BLOGS_", "EXTRACT_", "REFETCH_", "BATCH_", "COMMENT_FEED_")


def accept_old_names(settings: BaseSettings) -> list[str]:
    """Move each setting given under its old name (OLD_NAMES) to its BLOGS_ name, unless that name
    was given with at least the same priority; one warning per name moved. Settings must not be frozen.

    accept_old_names(Settings({"BATCH_SIZE": 5}))  # ["setting BATCH_SIZE is deprecated: ..."]
    """
    warnings = []
    for old, new in OLD_NAMES.items():
        priority = settings.getpriority(old)
        if priority is None:
            continue
        if (settings.getpriority(new) or 0) >= priority:
            if settings.get(new) != settings.get(old):  # the same value: moved here before (the crawler's copy)
                warnings.append(f"setting {old} is deprecated and ignored: {new} is given too")
            continue
        settings.set(new, settings.get(old), priority=priority)
        warnings.append(f"setting {old} is deprecated: it is now {new} (this run uses {old}'s value)")
    return warnings


def _parsed(check: Check, value: Any, what: str) -> Any:
    try:
        return check.parse(value)
    except (ValueError, TypeError):
        raise SettingError(f"{what} {check.name}={_text(value)!r} is not valid: it takes {check.accepts}") from None


def _explicit(settings: BaseSettings, name: str) -> bool:
    """Whether the user set `name` (command line, Scrapyd, spider) rather than the project's defaults."""
    priority = settings.getpriority(name)
    return priority is not None and priority > get_settings_priority("project")


def setting(settings: BaseSettings, name: str, default: Any = None) -> Any:
    """The parsed value of the setting `name` (its table row); SettingError when it is not valid."""
    value = settings.get(name, default)
    if value is None:
        return None
    return _parsed(_BY_NAME[name], value, "setting")


def check_settings(settings: BaseSettings) -> dict[str, Any]:
    """Every setting of the table that has a value, parsed; SettingError for the first that is not valid.

    Empty values are refused when the user gave them (`-s BLOGS_DB=`); the project's empty
    defaults (BLOGS_DB, BLOGS_FEEDS, BLOGS_CONTACT) mean "the default".
    """
    values: dict[str, Any] = {}
    for check in SETTINGS:
        raw = settings.get(check.name)
        if raw is None:
            continue
        if _text(raw) == "":
            if _explicit(settings, check.name):
                raise SettingError(f"setting {check.name} is empty: it takes {check.accepts} (or leave it out)")
            continue
        values[check.name] = _parsed(check, raw, "setting")
    low, high = values.get("BLOGS_FEED_MIN_INTERVAL"), values.get("BLOGS_FEED_MAX_INTERVAL")
    if low is not None and high is not None and high < low:
        raise SettingError(
            f"setting BLOGS_FEED_MAX_INTERVAL={high:g} is below BLOGS_FEED_MIN_INTERVAL={low:g}: give a maximum"
            " of at least the minimum"
        )
    return values


def unknown_settings(settings: BaseSettings) -> list[str]:
    """Warnings for settings the user gave that look like the harvester's but are not: a typo
    (`-s BLOGS_FEED=x`) would otherwise be ignored in silence."""
    warnings = []
    declared = vars(project_settings)  # a setting with a default there but no row yet is not a typo
    for name in settings:
        if (
            name in _BY_NAME
            or name in OLD_NAMES
            or name in declared
            or not name.startswith(OWN_PREFIXES)
            or not _explicit(settings, name)
        ):
            continue
        warnings.append(f"setting {name} is not a setting of the harvester{_nearest(name, list(_BY_NAME))}; ignored")
    return warnings


def _nearest(name: str, known: list[str]) -> str:
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    return f" (did you mean {close[0]}?)" if close else ""


def check_arguments(arguments: Mapping[str, Any]) -> dict[str, Any]:
    """The spider arguments (`-a NAME=VALUE`), parsed; SettingError for an unknown, empty or bad one."""
    values: dict[str, Any] = {}
    known = [check.name for check in SPIDER_ARGUMENTS]
    for name, raw in arguments.items():
        if name in FOREIGN_ARGUMENTS:
            continue
        check = _ARGUMENT_BY_NAME.get(name)
        if check is None:
            hint = _nearest(name, known) or f" (known: {', '.join(known)})"
            raise SettingError(f"spider argument -a {name}={_text(raw)!r} is unknown{hint}")
        if _text(raw) == "":
            raise SettingError(f"spider argument -a {name} is empty: it takes {check.accepts} (or leave it out)")
        values[name] = _parsed(check, raw, "spider argument -a")
    return values
