"""What a render does in the page once it loaded: wait for the thread, click "load more", read hidden parts.

    wait_for_thread(page, "isso-thread", seconds)   # the container shows text (its shadow roots and iframes too)
    clicks = load_more(page, "isso-thread", deadline, requests)  # "load more" clicked until none is left
    inline_hidden_parts(page, "isso-thread")          # shadow roots and iframes copied into the container

Widgets draw their thread in places `page.content()` does not serialise: a shadow root (web
components such as Hyvor Talk's) or an iframe (Disqus, Commento's and Cusdis's embeds). Before the
DOM is taken, their content is copied into the container as ordinary elements, so the extractor
reads one tree. Pure browser work (Playwright's sync API); runs in the render worker.
"""

from __future__ import annotations

import re
import time
from typing import Any

SETTLED_AFTER = 0.5  # seconds without a change to the page: its script has filled the thread
MAX_LOAD_MORE = 25  # "load more" clicks per page: a bound, whatever the widget keeps offering
# Buttons and links that fetch more of a thread, in the languages of the corpus.
LOAD_MORE = re.compile(
    r"(load|show|view|see|read)\s+(\d+\s+)?(more|older|all|previous|hidden)|more\s+(comments|replies)"
    r"|show\s+replies|weitere|plus de commentaires|もっと見る|さらに表示",
    re.I,
)

# The container's text, its shadow roots' and its same-origin iframes' included.
_TEXT_JS = """(id) => {
  const root = document.getElementById(id);
  if (!root) return 0;
  const walk = (node) => {
    let n = (node.innerText || node.textContent || '').trim().length;
    for (const el of node.querySelectorAll('*')) {
      if (el.shadowRoot) n += walk(el.shadowRoot);
      if (el.tagName === 'IFRAME') {  // another origin's document is read from its frame later
        try { n += el.contentDocument.body.innerText.trim().length; } catch (e) { n += 1; }
      }
    }
    return n;
  };
  return walk(root) + (root.shadowRoot ? walk(root.shadowRoot) : 0);
}"""

# Marks (data-blogs-more) the first visible, enabled control whose label says "load more", in the
# container or its shadow roots; returns whether one was found.
_MARK_MORE_JS = """([id, pattern]) => {
  const re = new RegExp(pattern, 'i');
  const root = document.getElementById(id);
  if (!root) return false;
  const scopes = [root];
  if (root.shadowRoot) scopes.push(root.shadowRoot);
  for (let i = 0; i < scopes.length; i++) {
    for (const el of scopes[i].querySelectorAll('*')) {
      if (el.shadowRoot) scopes.push(el.shadowRoot);
    }
  }
  for (const scope of scopes) {
    for (const el of scope.querySelectorAll('button, a, [role=button], summary')) {
      const label = (el.innerText || el.textContent || '').trim();
      if (!label || label.length > 60 || !re.test(label) || el.disabled || el.dataset.blogsClicked) continue;
      if (!el.getClientRects().length) continue;
      document.querySelectorAll('[data-blogs-more]').forEach((x) => x.removeAttribute('data-blogs-more'));
      el.setAttribute('data-blogs-more', '1');
      el.dataset.blogsClicked = '1';
      return true;
    }
  }
  return false;
}"""

# Copies every shadow root under the container into its host as light DOM (depth first); a container
# that is a web component becomes a plain element holding the same.
_INLINE_SHADOW_JS = """(id) => {
  const root = document.getElementById(id);
  if (!root) return 0;
  let copied = 0;
  const inline = (host) => {
    for (const el of [host, ...host.querySelectorAll('*')]) {
      if (el.shadowRoot) {
        const inner = el.shadowRoot;
        for (const sub of inner.querySelectorAll('*')) { if (sub.shadowRoot) inline(sub); }
        const holder = document.createElement('div');
        holder.setAttribute('data-blogs-shadow', '1');
        holder.innerHTML = inner.innerHTML;
        el.appendChild(holder);
        copied++;
      }
    }
  };
  inline(root);
  if (root.tagName.includes('-')) {  // a web component: the extractor reads a plain element in its place
    const plain = document.createElement('div');
    plain.innerHTML = root.innerHTML;
    root.replaceWith(plain);
    plain.id = id;
  }
  return copied;
}"""


# A container named by a web component's tag (extractor.comments.commentsystems: no id of its own) gets that id.
_NAME_CONTAINER_JS = """(id) => {
  if (document.getElementById(id)) return;
  const el = /^[a-z][a-z0-9]*-[a-z0-9-]+$/.test(id) ? document.querySelector(id) : null;
  if (el) el.id = id;
}"""


class Requests:
    """The page's requests in flight (Playwright's request events): a thread is read once none is."""

    def __init__(self, page: Any) -> None:
        self.open = 0
        page.on("request", self._started)
        page.on("requestfinished", self._ended)
        page.on("requestfailed", self._ended)

    def _started(self, _request: Any) -> None:
        self.open += 1

    def _ended(self, _request: Any) -> None:
        self.open = max(0, self.open - 1)


def wait_for_thread(page: Any, container: str, seconds: float, requests: Requests | None = None) -> None:
    """Until the container (with its shadow roots and iframes) shows something and then stops
    changing with no request in flight (a static part, an iframe say, shows before the script has
    filled the rest); Playwright's timeout otherwise."""
    deadline = time.monotonic() + max(1.0, seconds)
    page.evaluate(_NAME_CONTAINER_JS, container)
    page.wait_for_function(_TEXT_JS, arg=container, timeout=max(1.0, seconds) * 1000)
    settle(page, container, deadline, requests)


def settle(
    page: Any, container: str, deadline: float, requests: Requests | None = None, quiet: float = SETTLED_AFTER
) -> None:
    """Return once the container's text (shadow roots and iframes included) stayed the same for
    `quiet` seconds with no request in flight, or at `deadline` (monotonic)."""
    before = page.evaluate(_TEXT_JS, container)
    while time.monotonic() + quiet < deadline:
        page.wait_for_timeout(quiet * 1000)
        now = page.evaluate(_TEXT_JS, container)
        if now == before and (requests is None or requests.open == 0):
            return
        before = now


def load_more(page: Any, container: str, deadline: float, requests: Requests | None = None) -> int:
    """Click the thread's "load more" controls until none is left, MAX_LOAD_MORE clicks or the
    deadline (monotonic); returns how many were clicked. A click that loads nothing ends it too.
    After each click the thread settles (its text unchanged, no request in flight): the page's load
    state says nothing of a fetch a click starts, and a thread read while one is in flight (or
    copied out of its shadow root while the widget still writes into it) misses comments."""
    from playwright.sync_api import Error

    clicks = 0
    while clicks < MAX_LOAD_MORE and time.monotonic() < deadline:
        if not page.evaluate(_MARK_MORE_JS, [container, LOAD_MORE.pattern]):
            break
        left = max(0.5, deadline - time.monotonic()) * 1000
        try:
            page.locator("[data-blogs-more]").first.click(timeout=left)
            settle(page, container, deadline, requests)
        except Error:
            break
        clicks += 1
    return clicks


def inline_hidden_parts(page: Any, container: str) -> None:
    """Copy the container's shadow roots and iframe documents into it, so `page.content()` holds the thread."""
    page.evaluate(_INLINE_SHADOW_JS, container)
    for handle in page.locator(f"[id={container!r}] iframe").element_handles():
        frame = handle.content_frame()
        if frame is None:
            continue
        body = frame.evaluate("() => document.body ? document.body.innerHTML : ''")
        handle.evaluate(
            "(el, html) => { const d = document.createElement('div'); d.setAttribute('data-blogs-frame', '1');"
            " d.innerHTML = html; el.replaceWith(d); }",
            body,
        )
