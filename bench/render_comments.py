"""What reading comments that load by script costs: detection per page, and a render per page.

    .venv/bin/python bench/render_comments.py --pages 5 [--corpus ../shared/corpus]

1. Detection (extractor.comments.commentsystems) over every page of the corpus: ms per page, and how
   many pages each system has (it runs in the extraction worker, not on the reactor).
2. Rendering (pipelines.render.render, what the render worker process runs): a local page whose
   script fills a thread container with 20 comments after load, rendered `--pages` times in
   Debian's Chromium; wall seconds per page, pages/s, CPU seconds per page (this process and the
   browser's, from getrusage of waited-for children) and the peak RSS of the largest browser
   process. One render at a time, as the pipeline runs them: the crawl's reactor never waits for
   one (renders run in their own process; items pass on at once).
"""

from __future__ import annotations

import argparse
import resource
import sys
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from extractor.comments.commentsystems import detect_comment_system  # noqa: E402
from extractor.separation.rendered import rendered_comments  # noqa: E402
from pipelines.render import render  # noqa: E402

COMMENTS = 20
PAGE = (
    "<!doctype html><html><head><title>p</title></head><body><article><h1>A post</h1><p>Words.</p></article>"
    '<div id="talk"></div><script>window.addEventListener("load", () => setTimeout(() => {'
    "const t = document.getElementById('talk'); for (let i = 0; i < " + str(COMMENTS) + "; i++) {"
    "const c = document.createElement('div'); c.className = 'talk-comment';"
    'c.innerHTML = `<div class="by">Reader ${i} <time datetime="2026-05-01T10:${String(i).padStart(2, \'0\')}:00Z">'
    '1 May</time></div><div class="body"><p>Comment number ${i} about the jig.</p></div>`; t.appendChild(c);}'
    "}, 200));</script></body></html>"
).encode()


class _Page(BaseHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)


def detection(corpus: Path) -> str:
    files = sorted(corpus.glob("*/*/pages/*.html"))
    systems: Counter[str] = Counter()
    started = time.perf_counter()
    for path in files:
        systems[detect_comment_system(path.read_bytes(), "https://blog.example/a/").name] += 1
    ms = (time.perf_counter() - started) * 1000 / max(1, len(files))
    return f"detection: {len(files)} pages, {ms:.1f} ms/page; " + ", ".join(
        f"{k} {n}" for k, n in systems.most_common()
    )


def rendering(pages: int) -> str:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/post/"
    found = []
    before_self, before_children = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    started = time.perf_counter()
    for _ in range(pages):
        result = render(url, PAGE, "talk", 30.0)
        if result.html is None:
            raise SystemExit(f"render failed: {result.error}")
        found.append(len(rendered_comments(result.html.encode(), url, "talk")))
    wall = time.perf_counter() - started
    after_self, after_children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    server.shutdown()
    cpu = sum(
        a - b
        for a, b in (
            (after_self.ru_utime, before_self.ru_utime),
            (after_self.ru_stime, before_self.ru_stime),
            (after_children.ru_utime, before_children.ru_utime),
            (after_children.ru_stime, before_children.ru_stime),
        )
    )
    peak = after_children.ru_maxrss / 1024
    return (
        f"rendering: {pages} pages, {wall / pages:.2f} s/page ({pages / wall:.2f} pages/s),"
        f" CPU {cpu / pages:.2f} s/page, peak browser process RSS {peak:.0f} MiB;"
        f" comments found per page {sorted(set(found))} of {COMMENTS}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=5, help="pages to render")
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    args = parser.parse_args()
    print(detection(args.corpus), flush=True)
    print(rendering(args.pages), flush=True)


if __name__ == "__main__":
    main()
