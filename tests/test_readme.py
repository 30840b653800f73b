"""Every code example in README.md runs as written (or is listed below with the reason it is not run here).

Shell lines run in a scratch project folder that looks like a user's: `blogs.db` there is a store
crawled from the local farm, `site-pages/` holds one site's saved pages, `../shared/corpus` is the
corpus, and `.venv/bin/` is this test's virtual environment. Usage synopses are expanded the way a
reader reads them: `S` is a site name, `URL` an article URL, `N` a number, `a|b|c` each alternative, `[x]` with
and without `x`.
"""

from __future__ import annotations

import itertools
import re
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from crawl_helpers import PROJECT, _env, run_crawl, write_feeds

from farm import BlogFarm
from farm.postgres import PostgresServer

README = PROJECT / "README.md"
VENV_BIN = Path(sys.executable).parent

# Lines not run by this test, each with where it is covered or why it cannot run offline.
NOT_RUN = {
    "make run": "crawls the real feeds in feeds.txt (internet); the same crawl runs against the farm in test_crawl_e2e",
    "make test": "is this test suite",
    "*/10 * * * *": "a crontab line; its command (`scrapy crawl blogs`) runs in test_crawl_e2e",
    "datasette": "datasette is an optional install, not a dependency",
    "make evaluate": "= `python -m extractor evaluate --corpus ../shared/corpus`, run by test_cli",
    "extractor evaluate": "the corpus evaluations run in test_cli and test_e2e_corpus (minutes each here)",
    "scripts/make_theme_corpus.py": "run with evaluate by test_themes_extra_corpus",
    "scripts/make_engine_corpus.py": "run with evaluate by test_engine_corpus",
    "bench/": "the benches run (reduced) in test_bench_scripts",
    "crawl blogs -s BLOGS_DB=postgresql": "crawls the feeds in feeds.txt (internet); the crawl into PostgreSQL runs"
    " against the farm in test_crawl_e2e",
    "reextract --dask tcp://": "needs a running Dask scheduler; the same client runs on a LocalCluster (local:N) here"
    " and in test_reextract_dask",
}
# The README's example database; the examples run against a private server's database instead.
README_PG_URL = "postgresql://harvester@db.example.org/blogs"


def readme_blocks(lang: str) -> list[str]:
    """Fenced blocks of `lang` ("sh", "python", ...) and, for "sh", the indented command blocks."""
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(rf"```{lang}\n(.*?)```", text, re.S)
    if lang == "sh":
        blocks += [re.sub(r"(?m)^    ", "", b) for b in re.findall(r"\n\n((?:    \S.*\n)+)", text)]
    return blocks


def shell_lines() -> list[str]:
    """Every command line of the README's shell blocks (continuations joined, comments dropped)."""
    lines = []
    for block in readme_blocks("sh") + readme_blocks("cron"):
        for line in block.replace("\\\n", " ").splitlines():
            command = re.sub(r"\s+#\s.*$", "", line).strip()
            if command and not command.startswith("#"):
                lines.append(command)
    return lines


def expand(command: str, site: str, url: str) -> list[str]:
    """A usage synopsis as the commands a reader runs: placeholders filled, alternatives spelled out."""
    command = re.sub(r"(?<=\s)S(?=[\s\]]|$)", site, command)
    command = re.sub(r"(?<=\s)URL(?=\s|$)", url, command)
    command = re.sub(r"(?<=\s)N(?=[\s\]]|$)", "5", command)
    optional = re.findall(r"\[([^\]]+)\]", command)
    variants = []
    for keep in itertools.product((True, False), repeat=len(optional)):
        text = command
        for part, kept in zip(optional, keep, strict=True):
            text = text.replace(f"[{part}]", part if kept else "", 1)
        choices = re.findall(r"(\S+(?:\|\S+)+)", text)
        for picks in itertools.product(*(c.split("|") for c in choices)):
            out = text
            for choice, pick in zip(choices, picks, strict=True):
                out = out.replace(choice, pick, 1)
            variants.append(" ".join(out.split()))
    return variants


def not_run_reason(command: str) -> str | None:
    return next((why for key, why in NOT_RUN.items() if key in command), None)


@pytest.fixture(scope="module")
def user_folder(tmp_path_factory: pytest.TempPathFactory, corpus_root: Path) -> Iterator[Path]:
    """A scratch project folder: blogs.db crawled from two corpus sites, site-pages/, ../shared/corpus."""
    top = tmp_path_factory.mktemp("readme")
    folder = top / "blog-harvester"
    folder.mkdir()
    (top / "shared").symlink_to(corpus_root.parent)
    (folder / "site-pages").mkdir()
    for page in sorted((corpus_root / "wordpress" / "tt21" / "pages").glob("*.html"))[:12]:
        shutil.copy(page, folder / "site-pages" / page.name)
    shutil.copy(PROJECT / "scrapy.cfg", folder / "scrapy.cfg")
    (folder / ".venv").symlink_to(VENV_BIN.parent)
    with BlogFarm(corpus_root=corpus_root) as farm:
        farm.serve_corpus_site("tt21")
        farm.serve_corpus_site("tt22")
        done = run_crawl(write_feeds(top / "feeds.txt", farm.feed_lines()), folder / "blogs.db", timeout=180)
        assert done.returncode == 0, done.stderr[-3000:]
    yield folder


def run_line(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**_env(), "COLUMNS": "160"}
    return subprocess.run(command, shell=True, cwd=cwd, capture_output=True, text=True, timeout=300, env=env)


def test_every_readme_line_is_run_or_has_a_reason() -> None:
    lines = shell_lines()
    assert len(lines) > 15
    for line in lines:
        assert not_run_reason(line) or line.startswith((".venv/bin/", "sqlite-utils", "python ")), line


def test_readme_python_example_runs(monkeypatch: pytest.MonkeyPatch, corpus_root: Path) -> None:
    blocks = readme_blocks("python")
    assert blocks
    monkeypatch.chdir(PROJECT)
    for block in blocks:
        scope: dict[str, object] = {}
        exec(compile(block, "README.md", "exec"), scope)  # the README's own example
        results = scope.get("results")
        assert results and results[0].post, "the example's extraction is empty"


@pytest.mark.slow
def test_readme_shell_examples_run(user_folder: Path, pg_server: PostgresServer) -> None:
    pg_url = pg_server.new_database()
    conn = sqlite3.connect(user_folder / "blogs.db")
    url = conn.execute("SELECT url FROM articles WHERE site = 'tt21' ORDER BY url LIMIT 1").fetchone()[0]
    conn.close()
    ran = 0
    for line in shell_lines():
        if not_run_reason(line):
            continue
        line = (
            line.replace("sqlite-utils ", f"{VENV_BIN}/sqlite-utils ", 1) if line.startswith("sqlite-utils") else line
        )
        line = re.sub(r"^python ", f"{sys.executable} ", line).replace(README_PG_URL, pg_url)
        for command in expand(line, "tt21", url):
            done = run_line(command, user_folder)
            assert done.returncode == 0, f"{command}\n{done.stdout[-1500:]}\n{done.stderr[-3000:]}"
            assert done.stdout.strip() or done.stderr.strip() or "--out" in command or "export" in command, command
            ran += 1
    assert ran >= 10
