"""The report in a real headless Chromium: outlines where the post and comment blocks are, nothing loaded.

Chromium (Debian's ``chromium``) is installed by ``scripts/ensure_chromium.sh``; its absence fails
the test. The page is a corpus page with comments (wordpress/tt21, pages/22.html). Outline colours
are unique to the report, so the screenshot is checked pixel by pixel.
"""

from __future__ import annotations

import contextlib
import http.server
import os
import shutil
import signal
import struct
import subprocess
import threading
import zlib
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from lxml import etree

from extractor import DEFAULT, Page, extract_site
from extractor.core.roles import COMMENT, POST
from extractor.report.build import ReportSite, page_file, sites_from_corpus, write_report
from extractor.report.render import COMMENT_COLOUR, POST_COLOUR, paint_page

pytestmark = pytest.mark.slow

WIDTH, HEIGHT = 1280, 2000
LEGEND_LEFT = WIDTH - 300  # the fixed legend (top right) shows both swatches: ignore its columns
PAGE = "pages/22.html"


def chromium_path() -> str:
    found = shutil.which("chromium") or (Path("/usr/bin/chromium").is_file() and "/usr/bin/chromium")
    if not found:
        pytest.fail("chromium not installed: run `bash scripts/ensure_chromium.sh` (Debian package chromium)")
    return str(found)


class _CountingProxy(http.server.BaseHTTPRequestHandler):
    """Every request Chromium makes to the network lands here (it is the proxy for all hosts)."""

    seen: list[str]

    def _refuse(self) -> None:
        self.seen.append(f"{self.command} {self.path}")
        self.send_error(403)

    do_GET = do_POST = do_HEAD = do_CONNECT = _refuse

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def proxy() -> Iterator[tuple[str, list[str]]]:
    seen: list[str] = []
    handler = type("Handler", (_CountingProxy,), {"seen": seen})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", seen
    finally:
        server.shutdown()
        server.server_close()


# Chromium's own service traffic (updates, clock, accounts) also reaches the proxy; the page never names these.
BROWSER_HOSTS = ("google.com", "googleapis.com", "gstatic.com", "gvt1.com", "googleusercontent.com")


def page_requests(seen: list[str]) -> list[str]:
    """The requests not made by Chromium for itself."""
    out = []
    for line in seen:
        target = line.split(" ", 1)[1]
        host = target.split("://", 1)[-1].split("/", 1)[0].split(":", 1)[0]
        if not host.endswith(BROWSER_HOSTS):
            out.append(line)
    return out


def screenshot(html_file: Path, png: Path, profile: Path, proxy_url: str) -> None:
    cmd = [
        chromium_path(),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
        f"--user-data-dir={profile}",
        f"--window-size={WIDTH},{HEIGHT}",
        # Route every request, loopback included, through the counting proxy.
        f"--proxy-server={proxy_url}",
        "--proxy-bypass-list=<-loopback>",
        "--timeout=15000",  # stop loading after 15 s and take the screenshot anyway
        f"--screenshot={png}",
        html_file.resolve().as_uri(),
    ]
    log = png.with_suffix(".log")
    # A file, not a pipe, for output: Chromium's helpers can outlive it and hold a pipe open.
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            code: int | None = proc.wait(timeout=45)
        except subprocess.TimeoutExpired:
            code = None
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)  # this run's own session only
            proc.wait()
    output = log.read_text(errors="replace")[-2000:]
    assert code == 0 and png.is_file(), f"chromium failed (exit {code}): {output}"


def _paeth_row(line: bytearray, prev: bytes, bpp: int) -> None:
    for i in range(len(line)):
        a = line[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        p = a + b - c
        pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
        line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF


def _average_row(line: bytearray, prev: bytes, bpp: int) -> None:
    for i in range(len(line)):
        a = line[i - bpp] if i >= bpp else 0
        line[i] = (line[i] + ((a + prev[i]) >> 1)) & 0xFF


def read_png(path: Path) -> np.ndarray:
    """A tiny PNG reader (8-bit RGB/RGBA, no interlace), enough for Chromium's screenshots: (h, w, 3)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, bytearray(), b""
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, chunk = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            header = chunk
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and colour in (2, 6) and interlace == 0, f"unsupported PNG {depth=} {colour=} {interlace=}"
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(bytes(idat))
    stride = width * bpp
    rows = np.zeros((height, stride), dtype=np.uint8)
    prev = bytes(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)]
        cur = np.frombuffer(line, dtype=np.uint8).astype(np.int64)
        if kind == 1:  # Sub: a running sum per channel
            out = np.cumsum(cur.reshape(width, bpp), axis=0).reshape(-1) & 0xFF
        elif kind == 2:  # Up
            out = (cur + np.frombuffer(prev, dtype=np.uint8)) & 0xFF
        elif kind in (3, 4):  # Average, Paeth: sequential, in plain Python
            buf = bytearray(line)
            (_average_row if kind == 3 else _paeth_row)(buf, prev, bpp)
            out = np.frombuffer(bytes(buf), dtype=np.uint8)
        else:
            out = cur
        rows[y] = out
        prev = rows[y].tobytes()
    return rows.reshape(height, width, bpp)[:, :, :3]


def colour_mask(image: np.ndarray, hex_colour: str) -> np.ndarray:
    rgb = [int(hex_colour[i : i + 2], 16) for i in (1, 3, 5)]
    mask = np.all(image == np.array(rgb, dtype=np.uint8), axis=2)
    mask[:, LEGEND_LEFT:] = False
    return mask


def border_bands(mask: np.ndarray, min_pixels: int = 150) -> list[tuple[int, int]]:
    """Runs of consecutive rows with many pixels of the colour: the top and bottom edges of outlines."""
    rows = np.flatnonzero(mask.sum(axis=1) >= min_pixels)
    bands: list[tuple[int, int]] = []
    for y in rows.tolist():
        if bands and y == bands[-1][1] + 1:
            bands[-1] = (bands[-1][0], y)
        else:
            bands.append((y, y))
    return bands


def runs(row: np.ndarray) -> list[int]:
    """Lengths of the runs of True in one row."""
    padded = np.concatenate(([0], row.astype(np.int8), [0]))
    edges = np.flatnonzero(np.diff(padded))
    return (edges[1::2] - edges[::2]).tolist()


@pytest.fixture(scope="module")
def tt21(corpus_root: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[ReportSite, Path]:
    site = sites_from_corpus(corpus_root, DEFAULT, sites=["tt21"])[0]
    out = tmp_path_factory.mktemp("report")
    write_report([site], out)
    return site, out


def test_screenshot_shows_post_dashed_above_comments_solid(
    tt21: tuple[ReportSite, Path], tmp_path: Path, proxy: tuple[str, list[str]]
) -> None:
    site, out = tt21
    index = next(i for i, p in enumerate(site.pages) if p.label == PAGE)
    page = site.pages[index]
    roles = page.roles  # as painted: blocks holding a comment record's text are comments
    assert roles.count(COMMENT) >= 3 and roles.count(POST) >= 3, "the chosen page must have post and comments"
    view = out / page_file(0, site, index, page)
    png = tmp_path / "shot.png"
    proxy_url, seen = proxy
    screenshot(view, png, tmp_path / "profile", proxy_url)
    assert page_requests(seen) == [], f"the report page made network requests: {seen}"

    image = read_png(png)
    assert image.shape[:2] == (HEIGHT, WIDTH)
    post, comment = colour_mask(image, POST_COLOUR), colour_mask(image, COMMENT_COLOUR)
    assert post.sum() > 2000, f"post outline pixels: {post.sum()}"
    assert comment.sum() > 2000, f"comment outline pixels: {comment.sum()}"
    post_rows, comment_rows = np.flatnonzero(post.any(axis=1)), np.flatnonzero(comment.any(axis=1))
    assert comment_rows.min() > post_rows.min(), "comments must be painted below the start of the post"
    # Every comment block of this page is its own solid box: a top and a bottom edge each.
    comment_bands = border_bands(comment)
    assert len(comment_bands) == 2 * roles.count(COMMENT), comment_bands
    for top, _ in comment_bands:
        assert max(runs(comment[top])) > 0.8 * comment[top].sum(), "comment outline should be solid"
    # Post outlines are dashed: an edge row breaks into many short runs.
    post_bands = border_bands(post, min_pixels=100)
    assert post_bands, "no post outline edge found"
    edge = post[post_bands[0][0]]
    assert len(runs(edge)) > 10 and max(runs(edge)) < 40, f"post outline should be dashed: {runs(edge)[:20]}"


def test_proxy_catches_a_page_request(tmp_path: Path, proxy: tuple[str, list[str]]) -> None:
    """Control: an unsanitized page's remote image does reach the proxy, so the check above can fail."""
    page = tmp_path / "raw.html"
    images = '<img src="http://probe.example/probe.png"><img src="http://127.0.0.1:18081/loopback.png">'
    page.write_text(f"<html><body>{images}<p>raw</p></body></html>", encoding="utf-8")
    proxy_url, seen = proxy
    screenshot(page, tmp_path / "raw.png", tmp_path / "profile", proxy_url)
    requested = page_requests(seen)
    assert any("/probe.png" in line for line in requested), seen
    assert any("/loopback.png" in line for line in requested), seen


# Every vector reports itself to the proxy when it works: loads directly, scripts through a beacon image.
def _beacon(name: str) -> str:
    return f"new Image().src='http://beacon.example/{name}'"


REFRESH = '<meta http-equiv="refresh" content="0;url=http://beacon.example/refresh">'
BEACONS = f"""<!DOCTYPE html><html><head><base href="http://beacon.example/base/">{REFRESH}
<link rel="stylesheet" href="http://beacon.example/style.css">
<link rel="preload" as="image" href="http://beacon.example/preload.png">
<script src="http://beacon.example/script-src.js"></script><script>{_beacon("script-inline")}</script>
<style>@import url(http://beacon.example/import.css);
@font-face {{ font-family: bf; src: url(http://beacon.example/font.woff) }} .f {{ font-family: bf }}</style>
</head><body onload="{_beacon("onload")}"><div id="post"><p>Hostile post</p>
<img src="missing.png" onerror="{_beacon("onerror")}"><img srcset="http://beacon.example/srcset.png 1x">
<picture><source srcset="http://beacon.example/source.png"><img alt="p"></picture>
<div style="background:url(http://beacon.example/css-bg.png)">bg</div><p class="f">font</p>
<iframe src="http://beacon.example/iframe"></iframe><object data="http://beacon.example/object"></object>
<embed src="http://beacon.example/embed"><video poster="http://beacon.example/poster.png"></video>
<svg onload="{_beacon("svg-onload")}"><image href="http://beacon.example/svg-image.png" width="9" height="9"/></svg>
<table background="http://beacon.example/table-bg.png"><tr><td>t</td></tr></table>
<input type="image" src="http://beacon.example/input.png">
<details open ontoggle="{_beacon("ontoggle")}"><summary>s</summary>d</details></div></body></html>"""


def test_hostile_page_runs_and_loads_nothing_in_the_report(tmp_path: Path, proxy: tuple[str, list[str]]) -> None:
    proxy_url, seen = proxy
    raw = tmp_path / "raw.html"
    # The control leaves the refresh out: a live refresh can keep headless Chromium from ever finishing.
    raw.write_text(BEACONS.replace(REFRESH, ""), encoding="utf-8")
    screenshot(raw, tmp_path / "raw.png", tmp_path / "profile-raw", proxy_url)
    live = {line.split("beacon.example/", 1)[1].split("?")[0] for line in page_requests(seen) if "beacon" in line}
    assert len(live) >= 10, f"control: the raw page's vectors should fire in Chromium, fired: {sorted(live)}"

    seen.clear()
    pages = [Page(None, BEACONS.encode()), Page(None, b"<body><div id=post><p>Other post</p></div></body>")]
    view = tmp_path / "view.html"
    view.write_text(paint_page(pages[0], extract_site(pages)[0], "hostile", "raw.html"), encoding="utf-8")
    screenshot(view, tmp_path / "view.png", tmp_path / "profile-view", proxy_url)
    assert page_requests(seen) == [], f"the report of a hostile page made requests (raw page fired {sorted(live)})"


LOADABLE = {
    "img": ("src", "srcset"),
    "script": ("src",),
    "link": ("href",),
    "iframe": ("src",),
    "source": ("srcset", "src"),
}


def test_report_files_reference_nothing_loadable(tt21: tuple[ReportSite, Path]) -> None:
    """Besides the proxy check, no written file names a remote resource on a loading element."""
    _site, out = tt21
    files = sorted(out.rglob("*.html"))
    assert len(files) == 31
    for path in files:
        root = etree.fromstring(path.read_bytes(), etree.HTMLParser(encoding="utf-8"))
        for el in root.iter():
            for attr in (*LOADABLE.get(str(el.tag), ()), "background", "poster", "data", "action"):
                value = el.get(attr)
                assert value is None or value.startswith("data:"), f"{path.name}: <{el.tag} {attr}={value!r}>"
        text = path.read_text(encoding="utf-8")
        assert "url(" not in text.lower() and "@import" not in text.lower(), path.name


def _glyph_cells(chars: str, top: int) -> str:
    """One character per 100-pixel cell, in the report index's font (sans-serif), black on white."""
    return "".join(
        f'<div style="position:absolute;left:{i * 100}px;top:{top}px;width:100px;height:100px;'
        f'font:64px/100px sans-serif;text-align:center">{c}</div>'
        for i, c in enumerate(chars)
    )


def test_japanese_text_renders_with_real_glyphs(tmp_path: Path, proxy: tuple[str, list[str]]) -> None:
    """Without a CJK font (scripts/ensure_chromium.sh installs one) every kanji is the same empty box."""
    tofu = "\u0378\u0379\u0380"  # unassigned code points: always the missing-glyph box
    page = tmp_path / "glyphs.html"
    page.write_text(
        '<!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="margin:0;background:#fff;color:#000">'
        f"{_glyph_cells('日本語', 0)}{_glyph_cells(tofu, 100)}</body></html>",
        encoding="utf-8",
    )
    screenshot(page, tmp_path / "glyphs.png", tmp_path / "profile", proxy[0])
    ink = read_png(tmp_path / "glyphs.png").mean(axis=2) < 128
    kanji = [ink[0:100, i * 100 : (i + 1) * 100] for i in range(3)]
    boxes = [ink[100:200, i * 100 : (i + 1) * 100] for i in range(3)]
    assert all(box.sum() > 50 for box in boxes), "control: the missing-glyph boxes should be drawn"
    assert (boxes[0] == boxes[1]).all(), "control: missing glyphs all look alike"
    assert all(k.sum() > 50 for k in kanji), "the kanji drew no ink"
    differ = [int((a ^ b).sum()) for a, b in ((kanji[0], kanji[1]), (kanji[1], kanji[2]), (kanji[0], kanji[2]))]
    hint = "no Japanese font: run scripts/ensure_chromium.sh"
    assert min(differ) > 100, f"日, 本 and 語 render alike ({differ} pixels apart): {hint}"
    assert all(int((k ^ boxes[0]).sum()) > 100 for k in kanji), "the kanji render as missing-glyph boxes"
