"""The crawl's pages exported as WARC (`scrapy export --warc`) replay in pywb, the Webrecorder
wayback machine: indexed by its `wb-manager`, served by its `wayback` server on 127.0.0.1, each
article page comes back as it was fetched. pywb lives in .pywb/ (scripts/ensure_pywb.sh, run by
`make test`), away from the project's environment, whose pinned versions it does not share."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from crawl_helpers import PROJECT, _env, rows, run_crawl, write_feeds

from farm import BlogFarm

pytestmark = pytest.mark.slow

PYWB = PROJECT / ".pywb"
HOUR = 3600.0


def pywb_env() -> dict[str, str]:
    if not (PYWB / "pywb").is_dir():
        pytest.fail("pywb missing: scripts/ensure_pywb.sh (run by make test) installs it in .pywb/", pytrace=False)
    env = _env()
    env["PYTHONPATH"] = str(PYWB) + os.pathsep + env["PYTHONPATH"]  # pywb's pinned versions first
    return env


def pywb(tool: str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    code = f"import sys; from pywb.{tool} import main; sys.argv[0] = {tool!r}; sys.exit(main())"
    return subprocess.run(
        [sys.executable, "-c", code, *args], cwd=cwd, env=pywb_env(), capture_output=True, text=True, timeout=120
    )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.code, ""


def test_exported_warc_replays_in_pywb(farm: BlogFarm, tmp_path: Path) -> None:
    now = time.time()
    farm.clock.set(now)
    blog = farm.add_generated_blog("replayed", articles=4, start=now - 5 * HOUR, interval=HOUR, seed=5)
    db = tmp_path / "blogs.db"
    crawl = run_crawl(write_feeds(tmp_path / "feeds.txt", [blog.feed_line()]), db, clock=farm.clock, timeout=120)
    assert crawl.returncode == 0, crawl.stderr[-3000:]
    archive = tmp_path / "export.warc.gz"
    done = subprocess.run(
        [sys.executable, "-m", "scrapy", "export", "--warc", str(archive), "-s", f"BLOGS_DB={db}"],
        cwd=PROJECT,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    site = tmp_path / "wayback"
    site.mkdir()
    for args in (("init", "blogs"), ("add", "blogs", str(archive))):
        made = pywb("manager.manager", *args, cwd=site)
        assert made.returncode == 0, made.stderr[-2000:]
    index = "".join(p.read_text() for p in (site / "collections" / "blogs" / "indexes").glob("*.cdxj"))
    articles = [a.url for a in blog.articles]
    assert all(url.split("://", 1)[1].split(":", 1)[1] in index for url in articles)  # each page indexed
    port = free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from pywb.apps.cli import wayback; sys.exit(wayback())",
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
        ],
        cwd=site,
        env=pywb_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        status = 0
        for _ in range(600):  # until the server listens (gevent starts in a second or two)
            try:
                status, _body = get(f"http://127.0.0.1:{port}/")
                break
            except OSError:
                time.sleep(0.1)
        assert status == 200
        titles = dict(rows(db, "SELECT url, title FROM posts"))
        for url in articles:
            status, body = get(f"http://127.0.0.1:{port}/blogs/id_/{url}")  # id_: the page as archived
            assert status == 200, url
            assert titles[url] and titles[url] in body
    finally:
        server.terminate()
        server.wait(timeout=30)
