"""`scrapy reextract --dask`: one task per site on a real LocalCluster (worker processes), on both
backends, gives exactly the single-process `reextract`'s rows; --since and --site; a run killed
with SIGKILL resumes where it stopped."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from crawl_helpers import _env

from jobs import extraction
from jobs.reextract import reextract
from jobs.reextract_dask import check_address, dask_client, reextract_on_dask
from store import open_store
from store.clock import to_iso
from store.copy import copy_store
from store.query import QueryError

PROJECT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT))  # bench/ is not installed: its store builder is shared with the bench
from bench.distributed import store_site  # noqa: E402

START = 1_800_000_000.0
BATCH = 5
COMPARED = ("posts", "comments", "comment_versions", "extractions")


def corpus_pages(
    corpus_root: Path, site: str, n: int, refetches: int, first: int = 0
) -> list[tuple[str, bytes, bytes | None]]:
    """(url, first fetch, re-fetch) of n of the site's labelled pages from `first`; the first
    `refetches` of them fetched again with the body of a later page of the same site (other comments)."""
    folder = corpus_root / "wordpress" / site
    rows = [json.loads(line) for line in (folder / "truth.jsonl").open(encoding="utf-8")][first:]
    body = [(folder / r["file"]).read_bytes() for r in rows]
    return [(rows[i]["url"], body[i], body[n + i] if i < refetches else None) for i in range(n)]


def build(location: str, corpus_root: Path) -> int:
    """A store as crawls leave it: sites extracted batch by batch with profiles for the rest, a site
    whose first batch never filled (provisional), and a site stored after the last extraction (its
    full batches and other pages wait, as when a crawl was killed); the derived posts and comments
    then dropped, so that re-extraction must write every row again. Returns the page count."""
    pages = 0
    with open_store(location) as store:
        for i, site in enumerate(("tt21", "cocoon", "tt16")):
            pages += store_site(
                store, site, corpus_pages(corpus_root, site, 12, 4), batch_size=BATCH, start=START + i * 7200
            )
        pages += store_site(
            store, "small", corpus_pages(corpus_root, "tt22", 3, 1, first=24), batch_size=BATCH, start=START
        )
        reextract(store, batch_size=BATCH)
        pages += store_site(store, "tt22", corpus_pages(corpus_root, "tt22", 11, 3), batch_size=BATCH, start=START)
        with store.transaction() as db:
            for table in ("comment_versions", "comments", "posts"):
                db.execute(f"DELETE FROM {table}")
    extraction.close_stores()
    return pages


def tables(location: str) -> dict[str, list[dict[str, Any]]]:
    with open_store(location, read_only=True) as store:
        return {name: list(store.db.query(f"SELECT * FROM {name} ORDER BY 1, 2")) for name in COMPARED}


@pytest.fixture
def second_db(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """Another new store on the same backend as fresh_db."""
    if backend == "sqlite":
        yield str(tmp_path / "other.db")
        return
    server = request.getfixturevalue("pg_server")
    url = server.new_database()
    yield url
    server.drop_database(url)


@pytest.fixture
def twins(fresh_db: str, second_db: str, corpus_root: Path) -> tuple[str, str, int]:
    """Two stores with the same rows (store.copy keeps every key): (first, second, pages)."""
    pages = build(fresh_db, corpus_root)
    with open_store(fresh_db, read_only=True) as source, open_store(second_db) as target:
        copy_store(source, target)
    return fresh_db, second_db, pages


@pytest.mark.slow  # a LocalCluster of worker processes
def test_dask_gives_the_single_process_rows_and_since_and_site_select(twins: tuple[str, str, int]) -> None:
    single, dask, pages = twins
    with open_store(single) as store:
        expected = reextract(store, batch_size=BATCH)
    extraction.close_stores()
    with dask_client("local:2") as client, open_store(dask) as store:
        report, plan = reextract_on_dask(store, client, batch_size=BATCH)
        assert not plan.resumed and sorted(plan.todo) == ["cocoon", "small", "tt16", "tt21", "tt22"]
        assert (report.sites, report.pages, report.batches) == (5, expected.pages, expected.batches)
        assert expected.pages == pages  # every stored page, the waiting ones included
        got = tables(dask)
        assert got == tables(single)
        assert len(got["posts"]) == 3 * 12 + 3 + 11 and len(got["comments"]) > 100
        # --since: the re-fetches of three days later only (not batch members), on their sites
        later = to_iso(START + 3 * 86400)
        since, _plan = reextract_on_dask(store, client, since_text=later, batch_size=BATCH)
        assert (since.sites, since.pages, since.batches) == (5, 3 * 4 + 3 + 4, 0)  # small: provisional, all 4
        one, _plan = reextract_on_dask(store, client, site="cocoon", batch_size=BATCH)
        assert (one.sites, one.pages) == (1, 12 + 4)
        with pytest.raises(QueryError, match="no site 'nope'"):
            reextract_on_dask(store, client, site="nope")
        assert tables(dask) == got
    extraction.close_stores()


def scrapy(location: str, *args: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "scrapy",
        "reextract",
        *args,
        "-s",
        f"BLOGS_DB={location}",
        "-s",
        f"BLOGS_BATCH_SIZE={BATCH}",
    ]


@pytest.mark.slow  # a LocalCluster of worker processes
def test_a_killed_run_resumes_where_it_stopped(twins: tuple[str, str, int]) -> None:
    single, dask, pages = twins
    with open_store(single) as store:
        reextract(store, batch_size=BATCH)
    extraction.close_stores()
    # One worker, largest site first; SIGKILL to the command and its cluster after the first site.
    proc = subprocess.Popen(
        scrapy(dask, "--dask", "local:1"),
        cwd=PROJECT,
        env=_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert proc.stderr is not None
    seen = []
    try:
        for line in proc.stderr:
            seen.append(line)
            if re.match(r"\S+: done \(1/5 sites", line):
                break
        else:
            pytest.fail("".join(seen))
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    again = subprocess.run(scrapy(dask, "--dask", "local:1"), cwd=PROJECT, env=_env(), capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    resumed = re.search(r"resuming the re-extraction started \S+: (\d) of 5 sites already done", again.stderr)
    assert resumed and int(resumed.group(1)) >= 1, again.stderr
    summary = re.search(r"re-extracted (\d+) pages of (\d) sites", again.stdout)
    assert summary and int(summary.group(2)) == 5 - int(resumed.group(1)), again.stdout
    assert int(summary.group(1)) < pages
    assert tables(dask) == tables(single)
    # Complete: the next run starts afresh, over every site.
    fresh = subprocess.run(scrapy(dask, "--dask", "local:1"), cwd=PROJECT, env=_env(), capture_output=True, text=True)
    assert fresh.returncode == 0 and "resuming" not in fresh.stderr, fresh.stderr
    assert re.search(rf"re-extracted {pages} pages of 5 sites", fresh.stdout), fresh.stdout


def test_bad_addresses_are_refused() -> None:
    for bad in ("local:0", "local", "local:two", " "):
        with pytest.raises(ValueError, match="neither local:N"):
            check_address(bad)
    assert check_address("tcp://10.0.0.5:8786") == "tcp://10.0.0.5:8786"
    assert check_address("local:3") == "local:3" and check_address("localhost:8786") == "localhost:8786"


@pytest.mark.slow  # a LocalCluster of worker processes
def test_the_bench_runs_reduced() -> None:
    cmd = [
        sys.executable,
        str(PROJECT / "bench" / "distributed.py"),
        "--parts",
        "dask",
        "--blogs",
        "3",
        "--articles",
        "6",
    ]
    done = subprocess.run([*cmd, "--workers", "1,2", "--repeat", "1"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    last = done.stdout.strip().splitlines()[-1]
    assert re.match(r"re-extraction on Dask: 36 pages, 1 worker\(s\) [\d.]+ pages/s", last), done.stdout
    assert "output identical to single-process reextract: yes" in last


def _heartbeat_record(dask_worker: Any) -> bool:
    """Run on a worker: whether a running worker's heartbeat failure is logged and a closing one's not."""
    import logging

    from distributed.core import Status

    worker = dask_worker
    record = logging.LogRecord(
        "distributed.worker",
        logging.ERROR,
        __file__,
        1,
        "Failed to communicate with scheduler during heartbeat.",
        (),
        None,
    )
    running = logging.getLogger("distributed.worker").filter(record)
    saved, worker.status = worker.status, Status.closing
    try:
        closing = logging.getLogger("distributed.worker").filter(record)
    finally:
        worker.status = saved
    return bool(running) and not closing


@pytest.mark.slow
def test_a_local_cluster_closing_its_workers_logs_no_heartbeat_traceback() -> None:
    # The race a CI run met: a worker's heartbeat in flight as the cluster closed it printed an
    # ERROR with a traceback after a successful job.
    with dask_client("local:1") as client:
        assert list(client.run(_heartbeat_record).values()) == [True]
        # ... and its workers run with the profiler off (QUIET_LOCAL_CLUSTER): it took two workers on
        # two cores a tenth of their CPU time.
        assert list(client.run(_worker_config, "distributed.worker.profile.enabled").values()) == [False]
        assert list(client.run(_worker_config, "distributed.admin.tick.interval").values()) == ["500ms"]


def _worker_config(key: str) -> object:
    import dask.config

    return dask.config.get(key)


def test_every_sites_known_identifiers_in_one_read_are_each_sites_own(fresh_db: str) -> None:
    """The driver's one read of the profiles (known_comment_identifiers_by_site) gives each site
    what known_comment_identifiers gives it: its own profile left out, the newest version learned
    before `before` counted, an identifier that held a post elsewhere never known."""
    held = {  # site -> versions' (comment ids, post ids), learned an hour apart
        "a": [(["#old"], []), (["#comments", ".thread"], [])],
        "b": [(["#comments", ".thread", "#respond"], [])],
        "c": [(["#comments", "#respond"], [".thread"])],
        "d": [(["#respond"], [])],
    }
    with open_store(fresh_db) as store:
        store.sync_feeds([(f"http://{site}.test/feed/", site) for site in held], START)
        with store.transaction():
            for site, versions in held.items():
                for version, (comments, posts) in enumerate(versions, 1):
                    profile = {"comment_ids": comments, "post_ids": posts, "metadata_ids": []}
                    store.add_profile(
                        {
                            "site": site,
                            "version": version,
                            "source": "batch",
                            "batch": None,
                            "snapshots": "[]",
                            "pages": 10,
                            "learned_at": to_iso(START + 3600 * version),
                            "profile": json.dumps(profile),
                            "warnings": "[]",
                        }
                    )
        sites = [*held, "new"]
        for before in (None, to_iso(START + 3600 * 1.5)):
            for min_sites in (1, 2, 3):
                together = store.known_comment_identifiers_by_site(sites, min_sites=min_sites, before=before)
                alone = {s: store.known_comment_identifiers(s, min_sites=min_sites, before=before) for s in sites}
                assert together == alone, (before, min_sites)
        together = store.known_comment_identifiers_by_site(sites)
        three = store.known_comment_identifiers_by_site(sites, min_sites=3)
    assert together["new"] == {"#comments", "#respond"}  # .thread held c's post; a's #old is superseded
    assert three["new"] == {"#comments", "#respond"}  # each on three sites
    assert three["d"] == {"#comments"}  # d's own #respond is left out: two other sites
