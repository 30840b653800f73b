"""The project's settings share one prefix (BLOGS_); the old names still work, with a warning.

And the crawl run's components are found where the settings name them (crawler/extensions/,
one Scrapy component per module), the lock file's format is read where it is written (store.lockfile).
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from crawl_helpers import PROJECT, _env
from scrapy import Spider
from scrapy.crawler import Crawler
from scrapy.exceptions import CloseSpider, NotConfigured
from scrapy.settings import Settings, default_settings
from scrapy.utils.misc import load_object

from crawler import settings as project_settings
from crawler.extensions.leases import LeaseKeeper, default_lease_sites
from crawler.extensions.runlock import CrawlLock
from crawler.extensions.watch import WatchTimer
from crawler.spiders.blogs import BlogsSpider
from crawler.validation import OLD_NAMES, SETTINGS, accept_old_names, check_settings, unknown_settings
from store.lockfile import RunLock, holder_line, holder_pid, holder_task, other_lock_holder


def settings_with(**given: str) -> Settings:
    settings = Settings()
    settings.setmodule(project_settings, priority="project")
    settings.setdict(given, priority="cmdline")
    return settings


def test_every_setting_of_the_project_has_the_prefix_and_a_row() -> None:
    rows = {check.name for check in SETTINGS}
    scrapys = set(vars(default_settings))
    own = {name for name in vars(project_settings) if name.isupper() and name not in scrapys}
    assert len(own) >= 30 and own <= rows, own - rows
    assert all(name.startswith("BLOGS_") for name in own), sorted(name for name in own if "BLOGS_" not in name)
    assert not set(OLD_NAMES) & set(vars(project_settings)), "the project declares only the new names"
    assert set(OLD_NAMES.values()) <= rows


def test_an_old_name_is_moved_to_its_new_name_with_one_warning_each() -> None:
    settings = settings_with(BATCH_SIZE="5", EXTRACT_MODE="thread")
    assert accept_old_names(settings) == [
        "setting BATCH_SIZE is deprecated: it is now BLOGS_BATCH_SIZE (this run uses BATCH_SIZE's value)",
        "setting EXTRACT_MODE is deprecated: it is now BLOGS_EXTRACT_MODE (this run uses EXTRACT_MODE's value)",
    ]
    values = check_settings(settings)
    assert (values["BLOGS_BATCH_SIZE"], values["BLOGS_EXTRACT_MODE"]) == (5, "thread")
    assert accept_old_names(settings) == []  # moved once: a second pass (the crawler's copy) says nothing
    assert unknown_settings(settings) == []  # an old name is not a typo


def test_the_new_name_wins_over_the_old_one_given_beside_it() -> None:
    settings = settings_with(BATCH_SIZE="5", BLOGS_BATCH_SIZE="7")
    assert accept_old_names(settings) == ["setting BATCH_SIZE is deprecated and ignored: BLOGS_BATCH_SIZE is given too"]
    assert check_settings(settings)["BLOGS_BATCH_SIZE"] == 7


def test_every_old_name_is_documented() -> None:
    readme = (PROJECT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    missing = [old for old in OLD_NAMES if f"`{old}`" not in section]
    assert not missing, missing


def test_a_crawl_started_without_the_crawl_command_moves_old_names_before_the_spider_reads_them(
    caplog: pytest.LogCaptureFixture,
) -> None:
    settings = settings_with(REFETCH_AFTER="2h")
    with caplog.at_level(logging.WARNING, logger="blogs"):
        crawler = Crawler(BlogsSpider, settings)
    assert crawler.settings.get("BLOGS_REFETCH_AFTER") == "2h"
    assert [r.getMessage() for r in caplog.records if r.name == "blogs"] == [
        "setting REFETCH_AFTER is deprecated: it is now BLOGS_REFETCH_AFTER (this run uses REFETCH_AFTER's value)"
    ]


def test_a_store_command_warns_about_an_old_name_in_one_line(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "scrapy", "sites", "-s", f"BLOGS_DB={tmp_path / 'none.db'}", "-s", "BATCH_SIZE=0"],
        cwd=PROJECT,
        capture_output=True,
        text=True,
        timeout=120,
        env=_env(),
    )
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "scrapy sites: warning: setting BATCH_SIZE is deprecated: it is now BLOGS_BATCH_SIZE (this run uses"
        " BATCH_SIZE's value)",
        "scrapy sites: error: setting BLOGS_BATCH_SIZE='0' is not valid: it takes a whole number of at least 1",
    ]


def test_each_component_the_settings_name_is_one_module_of_its_own() -> None:
    named = sorted(
        {
            *project_settings.ADDONS,
            *project_settings.DOWNLOADER_MIDDLEWARES,
            *(path for path in project_settings.EXTENSIONS if path.startswith("crawler.")),
            *(path for path in project_settings.DOWNLOAD_HANDLERS.values() if path),  # http and https: one
        }
    )
    modules = [path.rsplit(".", 1)[0] for path in named]
    assert len(named) >= 8 and len(set(modules)) == len(modules), modules
    for path in named:
        load_object(path)


# -- the lock file ---------------------------------------------------------------------------------


def test_the_lock_file_line_is_read_back_by_its_reader() -> None:
    assert holder_pid(holder_line("crawl", 7)) == 7
    assert holder_line("crawl", 7).startswith("pid 7 since ")
    assert holder_task(holder_line("crawl", 7)) == "crawl"
    assert holder_task(holder_line("reextract", 8)) == "reextract"
    assert holder_pid(holder_line("copy", 9)) == -1  # not a crawl: its runs cannot be told alive or dead
    assert holder_pid("") == -1


HOLD_IN_CHILD = """
import sys
from store.lockfile import RunLock
assert RunLock(sys.argv[1]).acquire()
print("held", flush=True)
sys.stdin.read()
"""


def test_the_crawl_lock_extension_refuses_a_run_while_another_process_holds_the_store(tmp_path: Path) -> None:
    db = tmp_path / "blogs.db"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_IN_CHILD, f"{db}.lock"],
        cwd=PROJECT,
        env=_env(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        assert other_lock_holder(Path(f"{db}.lock")) == holder.pid
        extension = CrawlLock(str(db))
        with pytest.raises(CloseSpider) as refused:
            extension.spider_opened(Spider("blogs"))
        assert refused.value.reason == "already_running" and extension.lock is None
    finally:
        holder.kill()
        holder.wait(timeout=30)
    extension.spider_opened(Spider("blogs"))  # free again: taken, and given back when the spider closes
    assert extension.lock is not None and extension.lock.acquired
    extension.spider_closed()
    assert extension.lock is None
    again = RunLock(f"{db}.lock")
    assert again.acquire() and os.path.exists(f"{db}.lock")
    again.release()


# -- the crawl run's extensions switch on from settings and arguments ------------------------------


def test_watch_mode_timer_is_on_only_for_a_watch_run() -> None:
    crawler = Crawler(BlogsSpider, settings_with(BLOGS_WATCH_MAX_SLEEP="7"))
    crawler.spider = BlogsSpider(watch="0")
    with pytest.raises(NotConfigured) as off:
        WatchTimer.from_crawler(crawler)
    assert off.value.args == ()  # switched off without a message: Scrapy logs nothing for it
    crawler.spider = BlogsSpider(watch="1")
    assert WatchTimer.from_crawler(crawler).max_sleep == 7.0


def test_a_worker_holds_a_limited_number_of_sites_only_on_a_shared_store(tmp_path: Path) -> None:
    sqlite = LeaseKeeper.from_crawler(Crawler(BlogsSpider, settings_with(BLOGS_DB=str(tmp_path / "blogs.db"))))
    assert sqlite.limit == 0  # one crawl per SQLite file: it holds every site
    shared = Crawler(BlogsSpider, settings_with(BLOGS_DB="postgresql://u@127.0.0.1:1/blogs", CONCURRENT_REQUESTS="8"))
    assert LeaseKeeper.from_crawler(shared).limit == default_lease_sites(8, 2) == 16
    given = Crawler(BlogsSpider, settings_with(BLOGS_DB="postgresql://u@127.0.0.1:1/blogs", BLOGS_LEASE_SITES="5"))
    assert LeaseKeeper.from_crawler(given).limit == 5
