"""Safe by default (issue 32, item 3): the crawl connects to public addresses only unless
BLOGS_ALLOW_PRIVATE_ADDRESSES is on; literals in any form, names and redirects all meet the check
on the resolved address, and nothing reaches the refused host."""

from __future__ import annotations

import ipaddress
import time
from pathlib import Path

import pytest
from crawl_helpers import rows, run_crawl, write_feeds

from crawler.addresses import address_refusal, parse_networks
from farm import BlogFarm

HOUR = 3600.0


@pytest.mark.parametrize(
    ("address", "why"),
    [
        ("127.0.0.1", "loopback"),
        ("10.1.2.3", "private"),
        ("172.16.0.1", "private"),
        ("192.168.1.1", "private"),
        ("169.254.169.254", "link-local"),
        ("100.64.0.1", "CGNAT"),
        ("224.0.0.1", "multicast"),
        ("0.0.0.0", "unspecified"),
        ("240.0.0.1", "reserved"),
        ("::1", "loopback"),
        ("::", "unspecified"),
        ("fe80::1%eth0", "link-local"),
        ("fc00::1", "private"),
        ("ff02::1", "multicast"),
        ("::ffff:127.0.0.1", "loopback"),
        ("::ffff:169.254.169.254", "link-local"),
        ("2002:0a00:0001::1", "private"),  # 6to4 around 10.0.0.1
        ("93.184.216.34", None),
        ("2606:2800:220:1:248:1893:25c8:1946", None),
    ],
)
def test_address_refusal(address: str, why: str | None) -> None:
    assert address_refusal(address) == why


def test_allowed_networks_let_an_intranet_through() -> None:
    allowed = parse_networks("10.1.0.0/16, 192.168.1.7")
    assert address_refusal("10.1.2.3", allowed) is None
    assert address_refusal("192.168.1.7", allowed) is None
    assert address_refusal("192.168.1.8", allowed) == "private"
    assert address_refusal("::ffff:10.1.2.3", allowed) is None
    assert parse_networks("") == []
    with pytest.raises(ValueError, match=r"'10\.0\.0\.300' is not an address"):
        parse_networks("10.0.0.300")


def _internal_blog(farm: BlogFarm, t0: float):  # type: ignore[no-untyped-def]
    return farm.add_generated_blog("inner", articles=3, start=t0 - 3 * HOUR, interval=HOUR, seed=2, host="127.0.0.2")


@pytest.mark.slow
def test_private_addresses_are_refused_by_default(farm: BlogFarm, tmp_path: Path) -> None:
    t0 = time.time()
    farm.clock.set(t0)
    blog = farm.add_generated_blog("blog", articles=3, start=t0 - 3 * HOUR, interval=HOUR, seed=1)
    feeds = write_feeds(tmp_path / "feeds.txt", [blog.feed_line()])
    db = tmp_path / "blogs.db"

    result = run_crawl(feeds, db, settings={"BLOGS_ALLOW_PRIVATE_ADDRESSES": "False"}, clock=farm.clock)

    assert result.returncode == 1, result.stderr[-3000:]  # its only feed was refused
    assert farm.requests_for(blog) == []  # not even robots.txt was asked for
    assert result.stat("feeds_failed/address_refused") == 1
    assert result.stat("requests_refused_address") >= 1
    assert rows(db, "SELECT COUNT(*) FROM articles") == [(0,)]
    assert "Refused 127.0.0.1: 127.0.0.1 is loopback, not a public address" in result.stderr
    summary = [line for line in result.stderr.splitlines() if "Run summary" in line]
    assert summary and "requests refused (not a public address)" in summary[-1], result.stderr[-3000:]


@pytest.mark.slow
def test_literals_names_and_redirects_to_internal_addresses_are_refused(farm: BlogFarm, tmp_path: Path) -> None:
    t0 = time.time()
    farm.clock.set(t0)
    public = farm.add_generated_blog("public", articles=3, start=t0 - 3 * HOUR, interval=HOUR, seed=1)
    inner = _internal_blog(farm, t0)
    port = inner.port
    assert ipaddress.ip_address(2130706434) == ipaddress.ip_address("127.0.0.2")
    # The public blog redirects to the internal one: the redirect is refused like a listed URL.
    farm.add_route(public, "/inside", b"", status=302, headers={"Location": inner.feed_url})
    internal = {
        "literal": inner.feed_url,
        "decimal": f"http://2130706434:{port}/feed/",
        "octal": f"http://0177.0.0.2:{port}/feed/",
        "name": f"http://127-0-0-2.localhost:{port}/feed/",
        "redirect": public.url("/inside"),
    }
    lines = [public.feed_line()] + [f"{url} {name}" for name, url in internal.items()]
    feeds = write_feeds(tmp_path / "feeds.txt", lines)
    db = tmp_path / "blogs.db"
    # 127.0.0.1 stands for the public internet here; 127.0.0.2 for the network the crawler runs in.
    settings = {"BLOGS_ALLOW_PRIVATE_ADDRESSES": "False", "BLOGS_ALLOWED_NETWORKS": "127.0.0.1/32"}

    result = run_crawl(feeds, db, settings=settings, clock=farm.clock)

    assert result.returncode == 0, result.stderr[-3000:]
    assert farm.requests_for(inner) == [], "a request reached the internal address"
    assert result.stat("feeds_failed/address_refused") == len(internal)
    assert result.stat("requests_refused_address") >= len(internal)
    assert result.stat("feeds_failed") == len(internal)
    stored_sites = {site for (site,) in rows(db, "SELECT DISTINCT site FROM articles")}
    assert stored_sites == {"public"}
    assert rows(db, "SELECT COUNT(*) FROM snapshots WHERE url LIKE '%127.0.0.2%'") == [(0,)]
    # Logged once per host, however many requests (robots.txt, the feed) it refused.
    for host in ("127.0.0.2", "2130706434", "127-0-0-2.localhost"):
        assert result.stderr.count(f"Refused {host}:") == 1, result.stderr[-3000:]
