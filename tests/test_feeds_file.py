"""feeds.txt parsing, site names, URL normalization and feed discovery from HTML."""

from __future__ import annotations

from pathlib import Path

import pytest

from crawler.feedsfile import (
    FeedsFileError,
    default_site_name,
    discover_feed_links,
    load_feeds_file,
    parse_feeds_text,
    read_feeds_file,
)
from store.urls import is_fetchable, normalize_url, url_scheme

PROJECT = Path(__file__).resolve().parents[1]


def test_project_feeds_file_parses() -> None:
    parsed = read_feeds_file(PROJECT / "feeds.txt")
    assert parsed.rejected == []
    assert parsed.sources, "feeds.txt lists at least one blog"
    assert all(s.url.startswith(("http://", "https://")) for s in parsed.sources)
    assert len({s.name for s in parsed.sources}) == len(parsed.sources)


def test_lines_names_comments_and_rejections() -> None:
    text = "\n".join(
        [
            "\ufeff# a comment",
            "",
            "https://a.example/feed/   alpha   # inline comment",
            "https://a.example/bob/feed\t",
            "http://a.example/carol/    Carol's   Blog",
            "ftp://files.example/feed.xml ftp-blog",
            "javascript:alert(1)",
            "https://a.example/feed/ again",
            "https://b.example/ alpha",
        ]
    )
    parsed = parse_feeds_text(text)
    assert [(s.url, s.name) for s in parsed.sources] == [
        ("https://a.example/feed/", "alpha"),
        ("https://a.example/bob/feed", "a.example-bob"),  # blogs sharing a host stay separate
        ("http://a.example/carol/", "Carol_s_Blog"),
    ]
    reasons = [reason for _, _, reason in parsed.rejected]
    assert reasons[0].startswith("not an http(s) URL (scheme ftp)")
    assert reasons[1].startswith("not an http(s) URL (scheme javascript)")
    assert reasons[2] == "duplicate URL"
    assert reasons[3].startswith("duplicate site name")


def test_default_site_names() -> None:
    assert default_site_name("https://www.ex.com/blog/feed/") == "ex.com-blog"
    assert default_site_name("https://ex.com/blog/") == "ex.com-blog"  # home page and feed agree
    assert default_site_name("http://127.0.0.1:8001/feed/") == "127.0.0.1_8001"
    assert default_site_name("https://ex.com/alice/atom.xml") != default_site_name("https://ex.com/bob/atom.xml")


def test_url_policy() -> None:
    assert is_fetchable("http://127.0.0.1:8000/a") and is_fetchable("HTTPS://ex.com/")
    for bad in (
        "file:///etc/passwd",
        "data:text/html,hi",
        "ftp://x/",
        "javascript:alert(1)",
        "mailto:a@b",
        "/relative",
        "http://",
        "http://h:99999/",
    ):
        assert not is_fetchable(bad), bad
    assert url_scheme("FTP://x/") == "ftp"


def test_normalize_url() -> None:
    assert normalize_url("HTTP://Example.com:80/a/../b?utm_source=rss&x=1#c") == "http://example.com/b?x=1"
    assert normalize_url("https://ex.com:443/p?b=2&a=1") == "https://ex.com/p?a=1&b=2"
    assert normalize_url("/x/y", "http://h:8080/feed/") == "http://h:8080/x/y"
    assert normalize_url("https://ex.com/日本語/") == "https://ex.com/%E6%97%A5%E6%9C%AC%E8%AA%9E/"
    assert normalize_url("http://[::1]:81/x#y") == "http://[::1]:81/x"
    assert normalize_url("javascript:alert(1)") == "javascript:alert(1)"  # unchanged; refused by callers


def test_discovery_prefers_posts_feed_and_resolves_relative_links() -> None:
    html = b"""<!DOCTYPE html><html><head><base href="/blog/">
    <link rel="alternate" type="application/rss+xml" title="Site &raquo; Comments Feed" href="comments/feed/">
    <link rel="stylesheet" href="style.css">
    <link rel="alternate" type="application/rss+xml" title="Site &raquo; Feed" href="feed/">
    <link rel="alternate" type="application/atom+xml" href="javascript:evil()">
    <link rel="alternate" type="text/html" hreflang="ja" href="/ja/">
    </head><body></body></html>"""
    assert discover_feed_links(html, "http://h:8000/") == [
        "http://h:8000/blog/feed/",
        "http://h:8000/blog/comments/feed/",
    ]
    assert discover_feed_links(b"", "http://h/") == []
    assert discover_feed_links(b"\x00\xff garbage", "http://h/") == []


def test_unusable_feeds_files_are_one_line_errors(tmp_path: Path) -> None:
    (tmp_path / "folder").mkdir()
    (tmp_path / "refused.txt").write_text("# only refused lines\nfile:///etc/passwd\nftp://x/feed\n")
    (tmp_path / "empty.txt").write_text("# nothing yet\n\n")
    expected = {
        "missing.txt": "not found (give one with -a feeds=PATH)",
        "folder": "is a directory, not a file",
        "refused.txt": "lists no usable feed (2 line(s) refused; line 2: not an http(s) URL (scheme file))",
        "empty.txt": "lists no usable feed",
    }
    for name, words in expected.items():
        with pytest.raises(FeedsFileError) as caught:
            load_feeds_file(tmp_path / name)
        assert str(caught.value) == f"feeds file {tmp_path / name} {words}"
    (tmp_path / "ok.txt").write_text("https://a.example/feed/ alpha\nftp://x/feed\n")
    assert [s.name for s in load_feeds_file(tmp_path / "ok.txt").sources] == ["alpha"]
