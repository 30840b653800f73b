"""Settings and spider arguments are checked before anything opens (issue 33, item 1).

The table (crawler.validation) on its own, then real `scrapy crawl blogs` subprocesses run in a
folder of their own (scrapy.cfg copied there, so the default store would land in it): a bad
value ends in one line naming it, exit 2, and no store, lock or fetch.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from crawl_helpers import PROJECT, TEST_SETTINGS, _env, write_feeds
from scrapy.settings import Settings

from crawler import settings as project_settings
from crawler.validation import OWN_PREFIXES, SETTINGS, SettingError, check_arguments, check_settings, unknown_settings


def settings_with(**given: str) -> Settings:
    settings = Settings()
    settings.setmodule(project_settings, priority="project")
    settings.setdict(given, priority="cmdline")
    return settings


def test_the_project_defaults_and_the_test_settings_pass() -> None:
    values = check_settings(settings_with(**TEST_SETTINGS))
    assert values["BLOGS_BATCH_SIZE"] == 10 and values["BLOGS_EXTRACT_MODE"] == "process"
    assert values["BLOGS_REFETCH_AFTER"] == [3600.0, 21600.0, 86400.0, 259200.0, 604800.0, 2592000.0]
    assert "BLOGS_DB" not in values  # the empty default means "blogs.db next to scrapy.cfg"


def test_every_setting_of_the_readme_table_has_a_row() -> None:
    readme = (PROJECT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    rows = {check.name for check in SETTINGS}
    first_cells = [line.split("|")[1] for line in section.splitlines() if line.startswith("| `")]
    named = {word.strip("`,") for cell in first_cells for word in cell.split()}
    named = {name for name in named if name.isupper()}
    assert named and named <= rows, named - rows


def test_every_harvester_setting_of_the_project_has_a_row() -> None:
    declared = {name for name in vars(project_settings) if name.startswith(OWN_PREFIXES)}
    assert declared and declared <= {check.name for check in SETTINGS}, declared - {check.name for check in SETTINGS}


@pytest.mark.parametrize(
    ("name", "value", "accepts"),
    [
        ("BLOGS_REFETCH_AFTER", "abc", "durations above 0"),
        ("BLOGS_REFETCH_AFTER", "-1h", "durations above 0"),
        ("BLOGS_FEED_MIN_INTERVAL", "abc", "a number of seconds of at least 1"),
        ("BLOGS_LEASE_SECONDS", "x", "a number of seconds of at least 1"),
        ("BLOGS_BATCH_SIZE", "0", "a whole number of at least 1"),
        ("BLOGS_MUTE_AFTER", "-1", "a whole number of at least 1"),
        ("BLOGS_EXTRACT_WORKERS", "0", "a whole number from 1 to 256"),
        ("BLOGS_EXTRACT_MODE", "off", "process or thread"),
        ("BLOGS_EXTRACT_ENABLED", "maybe", "True or False"),
        ("BLOGS_EXTRACT_DRIFT_THRESHOLD", "1.5", "a share from 0 to 1"),
        ("DOWNLOAD_TIMEOUT", "nan", "a number of seconds above 0"),
        ("BLOGS_CONTACT", "a\nb", "one line"),
    ],
)
def test_a_bad_value_is_named_with_what_it_accepts(name: str, value: str, accepts: str) -> None:
    with pytest.raises(SettingError) as refused:
        check_settings(settings_with(**{name: value}))
    message = str(refused.value)
    assert message.startswith(f"setting {name}={value.strip()!r} is not valid: it takes ") and accepts in message
    assert "\n" not in message


@pytest.mark.parametrize(
    "name", ["BLOGS_DB", "BLOGS_FEEDS", "BLOGS_CONTACT", "BLOGS_BATCH_SIZE", "BLOGS_REFETCH_AFTER"]
)
def test_an_empty_value_given_by_the_user_is_refused(name: str) -> None:
    with pytest.raises(SettingError, match=f"^setting {name} is empty: it takes .* \\(or leave it out\\)$"):
        check_settings(settings_with(**{name: ""}))


def test_a_maximum_interval_below_the_minimum_is_refused() -> None:
    with pytest.raises(SettingError, match="BLOGS_FEED_MAX_INTERVAL=100 is below BLOGS_FEED_MIN_INTERVAL=300"):
        check_settings(settings_with(BLOGS_FEED_MAX_INTERVAL="100"))


def test_a_mistyped_setting_of_the_harvester_is_warned_about_with_the_nearest_name() -> None:
    assert unknown_settings(settings_with(BLOGS_FEED="x", DOWNLOAD_TIMEOUT="5")) == [
        "setting BLOGS_FEED is not a setting of the harvester (did you mean BLOGS_FEEDS?); ignored"
    ]


def test_spider_arguments_are_parsed_and_unknown_ones_named_with_the_nearest() -> None:
    assert check_arguments({"feeds": "f.txt", "watch": "yes", "force": "0", "shard": "2/4", "_job": "j1"}) == {
        "feeds": "f.txt",
        "watch": True,
        "force": False,
        "shard": (2, 4),
    }
    with pytest.raises(SettingError, match=r"^spider argument -a feed='x.txt' is unknown \(did you mean feeds\?\)$"):
        check_arguments({"feed": "x.txt"})
    with pytest.raises(SettingError, match=r"is unknown \(known: feeds, watch, force, unmute, shard\)$"):
        check_arguments({"zzz": "1"})
    with pytest.raises(SettingError, match=r"^spider argument -a force='maybe' is not valid: it takes 1 or 0"):
        check_arguments({"force": "maybe"})
    with pytest.raises(SettingError, match=r"^spider argument -a feeds is empty"):
        check_arguments({"feeds": ""})
    with pytest.raises(SettingError, match=r"shard='3/2' is not valid: it takes K/N with 1 <= K <= N"):
        check_arguments({"shard": "3/2"})


# -- the crawl command ---------------------------------------------------------------------------


def crawl_in(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`scrapy crawl blogs ARGS` with `folder` as its project directory (its own scrapy.cfg)."""
    shutil.copy(PROJECT / "scrapy.cfg", folder / "scrapy.cfg")
    settings = [arg for key, value in TEST_SETTINGS.items() for arg in ("-s", f"{key}={value}")]
    return subprocess.run(
        [sys.executable, "-m", "scrapy", "crawl", "blogs", *settings, *args],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,
        env=_env(),
    )


@pytest.mark.slow
def test_bad_settings_and_arguments_end_the_crawl_in_one_line_exit_2_touching_nothing(tmp_path: Path) -> None:
    # Port 9 of 127.0.0.1 (discard) answers nothing here: a crawl that did start would write a store.
    write_feeds(tmp_path / "feeds.txt", ["http://127.0.0.1:9/feed.xml dead"])
    cases = {
        ("-s", "BLOGS_REFETCH_AFTER=abc"): "setting BLOGS_REFETCH_AFTER='abc' is not valid: it takes durations",
        ("-s", "BLOGS_LEASE_SECONDS=x"): "setting BLOGS_LEASE_SECONDS='x' is not valid",
        (
            "-s",
            "BLOGS_BATCH_SIZE=0",
        ): "setting BLOGS_BATCH_SIZE='0' is not valid: it takes a whole number of at least 1",
        ("-s", "BLOGS_DB="): "setting BLOGS_DB is empty",
        ("-a", "feeds="): "spider argument -a feeds is empty",
        ("-a", "feed=other.txt"): "spider argument -a feed='other.txt' is unknown (did you mean feeds?)",
        ("-a", "force=maybe"): "spider argument -a force='maybe' is not valid",
    }
    for args, words in cases.items():
        result = crawl_in(tmp_path, *args)
        assert result.returncode == 2, (args, result.stderr[-3000:])
        assert "Traceback" not in result.stderr, result.stderr[-3000:]
        errors = [line for line in result.stderr.splitlines() if "ERROR" in line or "CRITICAL" in line]
        assert len(errors) == 1 and f"Cannot crawl: {words}" in errors[0], (args, result.stderr[-3000:])
        assert sorted(p.name for p in tmp_path.iterdir()) == ["feeds.txt", "scrapy.cfg"], args


@pytest.mark.slow
def test_the_crawls_first_line_names_the_store_without_password_the_feeds_file_and_the_mode(tmp_path: Path) -> None:
    feeds = write_feeds(tmp_path / "feeds.txt", ["http://127.0.0.1:9/feed.xml dead"])
    # A PostgreSQL URL nobody listens on: the run is refused at the lock (exit 4) after the line.
    url = "postgresql://harvester:s3cret@127.0.0.1:9/blogs"
    result = crawl_in(tmp_path, "-a", "watch=1", "-a", "shard=1/2", "-s", f"BLOGS_DB={url}")
    lines = [line for line in result.stderr.splitlines() if "[blogs]" in line]
    assert lines, result.stderr[-3000:]
    assert lines[0].endswith(
        f"Crawling {feeds} into the store postgresql://127.0.0.1:9/blogs; mode: watch (until stopped), shard 1/2"
    ), lines[0]
    assert "s3cret" not in result.stderr
