"""Rendering in Chromium (issue 31): "load more" clicked, shadow roots and iframes read, private addresses refused.

A farm site serves a post whose comment widget (no connector: `unknown-script`) draws its thread in
a shadow root, two comments a page behind a "Load more comments" button, and shows a reply in an
iframe. `render` runs real headless Chromium on it, as the render worker does.
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest

from extractor.comments.commentsystems import detect_comment_system
from extractor.separation.rendered import rendered_comments
from farm import BlogFarm
from pipelines.render import AddressRule, RenderCommentsPipeline, render, render_target
from pipelines.renderpage import MAX_LOAD_MORE

COMMENTS = [
    ("Ann", "2024-05-01T10:00:00Z", "Nice jig, what angle did you plane the fence to?"),
    ("Bob", "2024-05-01T11:00:00Z", "Ninety degrees, checked with a square twice."),
    ("Cy", "2024-05-02T09:30:00Z", "I glued a strip of sandpaper under mine."),
    ("Dee", "2024-05-02T12:15:00Z", "Mine slips on the bench; any ideas for a stop?"),
    ("Eve", "2024-05-03T08:05:00Z", "A cleat underneath fixed that for me."),
]
WIDGET = """
class Thread extends HTMLElement {
  connectedCallback() {
    this.attachShadow({mode: 'open'});
    this.shadowRoot.innerHTML = '<ol class="comment-list"></ol>';
    this.page = 1;
    this.more();
  }
  more() {
    fetch('/api/comments-' + this.page + '.json').then((r) => r.json()).then((data) => {
      const list = this.shadowRoot.querySelector('ol');
      for (const c of data.comments) {
        const li = document.createElement('li');
        li.className = 'comment';
        li.innerHTML = '<div class="comment-author">' + c.author + '</div><time class="comment-date" datetime="'
          + c.date + '">' + c.date.slice(0, 10) + '</time><div class="comment-content"><p>' + c.text + '</p></div>';
        list.appendChild(li);
      }
      const old = this.shadowRoot.querySelector('button');
      if (old) old.remove();
      if (data.next) {
        this.page = data.next;
        const button = document.createElement('button');
        button.textContent = 'Load more comments';
        button.addEventListener('click', () => this.more());
        this.shadowRoot.appendChild(button);
      }
    });
  }
}
customElements.define('farm-thread', Thread);
const holder = document.querySelector('#comments-app');
holder.appendChild(document.createElement('farm-thread'));
"""


def serve_widget_blog(farm: BlogFarm) -> str:
    site = farm.add_site("widget-blog")
    pages = [COMMENTS[0:2], COMMENTS[2:4]]
    for n, chunk in enumerate(pages, start=1):
        data = {
            "comments": [{"author": a, "date": d, "text": t} for a, d, t in chunk],
            "next": n + 1 if n < len(pages) else None,
        }
        farm.add_route(site, f"/api/comments-{n}.json", json.dumps(data), content_type="application/json")
    farm.add_route(site, "/widget/comments-widget.js", WIDGET, content_type="text/javascript")
    author, date, text = COMMENTS[4]
    frame = (
        '<html><body><ol class="comment-list"><li class="comment"><div class="comment-author">'
        f'{author}</div><time class="comment-date" datetime="{date}">{date[:10]}</time>'
        f'<div class="comment-content"><p>{text}</p></div></li></ol></body></html>'
    )
    farm.add_route(site, "/widget/frame.html", frame, content_type="text/html; charset=utf-8")
    words = " ".join(f"The shooting board is a jig I built from oak, part {n}." for n in range(40))
    page = (
        "<!doctype html><html><head><title>Shooting board</title></head><body><article><h1>Shooting board</h1>"
        f'<p>{words}</p></article><h2>Comments</h2><div id="comments-app"><iframe src="/widget/frame.html">'
        '</iframe></div><script src="/widget/comments-widget.js"></script>'
        '<script>window.commentsTarget = "#comments-app";</script><footer>Jigs blog</footer></body></html>'
    )
    return farm.add_route(site, "/2024/05/shooting-board/", page, content_type="text/html; charset=utf-8")


def fetched(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return bytes(answer.read())


@pytest.mark.slow
def test_render_clicks_load_more_and_reads_shadow_roots_and_iframes(farm: BlogFarm) -> None:
    url = serve_widget_blog(farm)
    body = fetched(url)
    assert detect_comment_system(body, url).name == "unknown-script"
    target = render_target(url, body)
    assert target is not None and target.container == "comments-app"
    result = render(url, body, target.container, timeout=60, rule=AddressRule(allow_private=True))
    assert result.error is None and result.html is not None
    records = rendered_comments(result.html.encode("utf-8"), url, target.container)
    got = sorted((r.author, r.date, r.text) for r in records)
    assert got == sorted(COMMENTS)
    assert MAX_LOAD_MORE >= 1


@pytest.mark.slow
def test_the_browser_is_refused_private_addresses_unless_the_crawl_allows_them(farm: BlogFarm) -> None:
    url = serve_widget_blog(farm)
    body = fetched(url)
    assert AddressRule().refusal(url) == "127.0.0.1 is loopback"
    assert AddressRule(allowed_networks="127.0.0.0/8").refusal(url) is None
    result = render(url, body, "comments-app", timeout=8, rule=AddressRule())
    assert rendered_comments((result.html or "").encode("utf-8"), url, "comments-app") == []
    requested = {r.path_only for r in farm.requests_for("widget-blog")}
    assert "/api/comments-1.json" not in requested and "/widget/comments-widget.js" not in requested


def test_renders_stop_at_the_per_site_budget_and_the_per_minute_one(tmp_path: Path) -> None:
    pipeline = RenderCommentsPipeline(str(tmp_path / "blogs.db"), per_minute=3, timeout=5, site_budget=2)
    assert [pipeline._within_budget("jigs") for _ in range(3)] == [True, True, False]  # 2 renders a run for jigs
    assert pipeline._within_budget("planes") is True  # another site has its own
    assert pipeline._within_budget("saws") is False  # 3 a minute in all


@pytest.mark.slow
def test_a_web_component_without_an_id_is_rendered_by_its_tag(farm: BlogFarm) -> None:
    # Hyvor Talk's embed: <hyvor-talk-comments>, its thread in the element's shadow root.
    url = serve_widget_blog(farm)
    site = farm.site_for(url)
    component = WIDGET.split("const holder")[0].replace("farm-thread", "hyvor-talk-comments")
    farm.add_route(site, "/widget/hyvor-embed.js", component, content_type="text/javascript")
    words = " ".join(f"The bench hook is a jig I built from maple, part {n}." for n in range(40))
    page = (
        "<!doctype html><html><head><title>Bench hook</title></head><body><article><h1>Bench hook</h1>"
        f"<p>{words}</p></article><hyvor-talk-comments website-id='1234' page-id='bench-hook'></hyvor-talk-comments>"
        '<script type="module" src="/widget/hyvor-embed.js"></script></body></html>'
    )
    url = farm.add_route(site, "/2024/05/bench-hook/", page, content_type="text/html; charset=utf-8")
    body = fetched(url)
    target = render_target(url, body)
    assert target is not None and (target.system, target.container) == ("hyvor-talk", "hyvor-talk-comments")
    result = render(url, body, target.container, timeout=60, rule=AddressRule(allow_private=True))
    assert result.error is None and result.html is not None
    records = rendered_comments(result.html.encode("utf-8"), url, target.container)
    assert sorted((r.author, r.date, r.text) for r in records) == sorted(COMMENTS[:4])  # two pages, no iframe
