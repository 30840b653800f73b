"""The `blogs` spider under a real Scrapyd, deployed as an egg, with no project checkout in reach.

Issue 23 and docs/scaling.md ("Scrapyd"): the egg is built as `scrapyd-deploy` builds one for a
project without a setup.py of its own (its default setup.py: find_packages() and the
`[scrapy] settings` entry point), uploaded through addversion.json and scheduled through
schedule.json with an absolute feeds file and BLOGS_DB, as a user would with curl.

Pure Python on purpose: the project's setup.py compiles Cython extensions (minutes of build, and
a zipped egg cannot import a .so without extracting it into ~/.cache/Python-Eggs), while
extractor/_compiled.py runs the same code from source when no build is there.

Scrapyd runs on a Python that sees the project's dependencies but not the project: a venv in tmp
whose .pth names this venv's site-packages (.pth lines are plain paths, so the editable install's
import hook in there is not run). The crawl can only work from the egg, and its cwd is a tmp dir.
"""

from __future__ import annotations

import configparser
import json
import os
import signal
import socket
import subprocess
import sys
import sysconfig
import time
import tomllib
import urllib.parse
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from crawl_helpers import PROJECT, TEST_SETTINGS, clock_offset, rows, stop, wait_for, write_feeds

from farm import BlogFarm

pytestmark = pytest.mark.slow

HOUR = 3600.0
NAME = "blog_harvester"
# scrapyd-client's default setup.py, which it fills with scrapy.cfg's [settings] default.
SETUP_PY = """from setuptools import find_packages, setup

setup(
    name="project",
    version="1.0",
    packages=find_packages(),
    entry_points={{"scrapy": ["settings = {settings}"]}},
)
"""
SCRAPYD_DIRS = {"eggs", "logs", "dbs"}


def build_egg(stage: Path) -> Path:
    """The project's packages (pyproject's list) as a pure-Python egg: sources only, no builds."""
    found = tomllib.loads((PROJECT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]
    stage.mkdir()
    for package in (pattern.rstrip("*") for pattern in found["include"]):
        for source in (PROJECT / package).rglob("*.py"):
            if "__pycache__" not in source.parts:
                target = stage / source.relative_to(PROJECT)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(source.read_bytes())
    cfg = configparser.ConfigParser()
    cfg.read(PROJECT / "scrapy.cfg")
    (stage / "setup.py").write_text(SETUP_PY.format(settings=cfg["settings"]["default"]))
    subprocess.run([sys.executable, "setup.py", "bdist_egg", "-d", "dist"], cwd=stage, check=True, capture_output=True)
    (egg,) = (stage / "dist").glob("*.egg")
    return egg


def dependencies_only_python(where: Path) -> Path:
    """A venv's python that imports this venv's packages (Scrapy, Scrapyd, ...) but not the project's."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    site = where / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" / "site-packages"
    paths = dict.fromkeys(sysconfig.get_paths()[key] for key in ("purelib", "platlib"))
    (site / "project-dependencies.pth").write_text("".join(f"{p}\n" for p in paths))
    return where / "bin" / "python"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Scrapyd:
    """A Scrapyd subprocess in `cwd` (config and its dirs there), stopped by its pid."""

    def __init__(self, python: Path, cwd: Path, output: Path) -> None:
        self.python = python
        self.cwd = cwd
        self.url = f"http://127.0.0.1:{free_port()}"
        port = urllib.parse.urlsplit(self.url).port
        cwd.mkdir()
        # Scrapyd reads scrapyd.conf from its cwd; every dir it writes is given here, absolute.
        (cwd / "scrapyd.conf").write_text(
            "[scrapyd]\nbind_address = 127.0.0.1\n"
            f"http_port = {port}\n"
            + "".join(f"{d}_dir = {cwd / d}\n" for d in sorted(SCRAPYD_DIRS))
            # No items_dir: the store is the output, and Scrapy's JSON export cannot write a page's
            # raw bytes (one ERROR per page). No jobs_dir: Scrapyd's default.
            + "items_dir =\njobs_dir =\npoll_interval = 0.2\nmax_proc = 1\n"
        )
        self.env = {k: v for k, v in os.environ.items() if not k.startswith(("SCRAPY", "PYTHON"))}
        self.output = output
        with open(output, "wb") as out:
            # --pidfile= : twistd would write twistd.pid into the cwd.
            self.proc = subprocess.Popen(
                [str(python), "-m", "scrapyd", "--pidfile="],
                cwd=cwd,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        if not wait_for(self._up, timeout=20, interval=0.2):
            self.stop()
            raise AssertionError(f"Scrapyd did not start:\n{output.read_text()[-3000:]}")

    def _up(self) -> bool:
        assert self.proc.poll() is None, self.output.read_text()[-3000:]
        try:
            return self.get("daemonstatus.json")["status"] == "ok"
        except OSError:
            return False

    def get(self, endpoint: str, **params: str) -> Any:
        query = f"?{urllib.parse.urlencode(params)}" if params else ""
        with urllib.request.urlopen(f"{self.url}/{endpoint}{query}", timeout=30) as resp:
            return json.load(resp)

    def post(self, endpoint: str, body: bytes, content_type: str) -> Any:
        request = urllib.request.Request(f"{self.url}/{endpoint}", body, {"Content-Type": content_type})
        with urllib.request.urlopen(request, timeout=60) as resp:
            answer = json.load(resp)
        assert answer["status"] == "ok", answer
        return answer

    def add_version(self, project: str, version: str, egg: Path) -> Any:
        """addversion.json as `curl -F egg=@FILE` sends it: multipart/form-data."""
        boundary = uuid.uuid4().hex
        parts = [('name="project"', project.encode()), ('name="version"', version.encode())]
        parts.append((f'name="egg"; filename="{egg.name}"', egg.read_bytes()))
        body = b"".join(
            f"--{boundary}\r\nContent-Disposition: form-data; {disposition}\r\n\r\n".encode() + value + b"\r\n"
            for disposition, value in parts
        )
        body += f"--{boundary}--\r\n".encode()
        return self.post("addversion.json", body, f"multipart/form-data; boundary={boundary}")

    def schedule(self, fields: list[tuple[str, str]]) -> str:
        body = urllib.parse.urlencode(fields).encode()
        return str(self.post("schedule.json", body, "application/x-www-form-urlencoded")["jobid"])

    def finished(self, project: str, *jobs: str) -> bool:
        done = {j["id"] for j in self.get("listjobs.json", project=project)["finished"]}
        return done >= set(jobs)

    def log(self, project: str, spider: str, job: str) -> str:
        path = self.cwd / "logs" / project / spider / f"{job}.log"
        return path.read_text() if path.exists() else f"no {path}; Scrapyd said:\n{self.output.read_text()}"

    def stop(self) -> None:
        stop(self.proc, signal.SIGTERM, timeout=20)


@pytest.fixture
def scrapyd(tmp_path: Path) -> Iterator[Scrapyd]:
    server = Scrapyd(dependencies_only_python(tmp_path / "env"), tmp_path / "scrapyd", tmp_path / "scrapyd.out")
    try:
        yield server
    finally:
        server.stop()


def test_blogs_spider_runs_under_scrapyd_from_an_egg(farm: BlogFarm, scrapyd: Scrapyd, tmp_path: Path) -> None:
    project_before = sorted(p.name for p in PROJECT.iterdir())
    t0 = time.time()
    farm.clock.set(t0)
    rss = farm.add_generated_blog("rss", articles=4, start=t0 - 4 * HOUR, interval=HOUR, seed=3)
    atom = farm.add_generated_blog("atom", articles=3, start=t0 - 3 * HOUR, interval=HOUR, seed=4, feed_format="atom")
    feeds = write_feeds(tmp_path / "feeds.txt", [rss.feed_line(), atom.feed_line()])
    db = tmp_path / "store" / "blogs.db"

    # The project is out of reach of Scrapyd's Python: whatever runs comes from the egg.
    no_project = subprocess.run(
        [str(scrapyd.python), "-c", "import crawler"], cwd=scrapyd.cwd, env=scrapyd.env, capture_output=True
    )
    assert no_project.returncode != 0

    egg = build_egg(tmp_path / "stage")
    assert scrapyd.add_version(NAME, "1", egg)["spiders"] == 1
    assert scrapyd.get("listspiders.json", project=NAME)["spiders"] == ["blogs"]

    # Farm URLs are 127.0.0.1 literals: the tests' loopback-only resolver is not in the egg.
    settings = {k: v for k, v in TEST_SETTINGS.items() if k != "TWISTED_DNS_RESOLVER"}
    settings |= {
        "BLOGS_DB": str(db),
        "BLOGS_CLOCK_OFFSET": f"{clock_offset(farm.clock):.3f}",
        "BLOGS_REFETCH_AFTER": "7d",
    }
    job = scrapyd.schedule(
        [("project", NAME), ("spider", "blogs"), ("feeds", str(feeds))]
        + [("setting", f"{k}={v}") for k, v in settings.items()]
    )
    # Without feeds and BLOGS_DB the defaults name Scrapyd's cwd: no feeds.txt there, so the
    # run refuses before it makes a store (exit 2), and writes nothing there.
    bare = scrapyd.schedule([("project", NAME), ("spider", "blogs")])
    done = wait_for(lambda: scrapyd.finished(NAME, job, bare), timeout=45, interval=0.3)
    log = scrapyd.log(NAME, "blogs", job)
    assert done, log[-3000:]

    summary = [line for line in log.splitlines() if "Run summary" in line]
    assert summary and "errors 0;" in summary[-1] and "exit 0" in summary[-1], log[-3000:]
    refused = scrapyd.log(NAME, "blogs", bare)
    assert f"Cannot crawl: feeds file {scrapyd.cwd / 'feeds.txt'} not found" in refused, refused[-3000:]
    published = [a.url for s in (rss, atom) for a in s.articles if a.published <= t0]
    assert len(published) == 7
    stored = rows(db, "SELECT article FROM snapshots WHERE kind = 'first'")
    assert len(stored) == len(published)
    assert rows(db, "SELECT COUNT(*) FROM posts") == [(len(published),)]
    assert rows(db, "SELECT COUNT(*) FROM extractions") == [(len(published),)]

    # Nothing written beside the project, nor in Scrapyd's cwd but its own dirs.
    assert sorted(p.name for p in PROJECT.iterdir()) == project_before
    assert {p.name for p in scrapyd.cwd.iterdir()} <= SCRAPYD_DIRS | {"scrapyd.conf"}
