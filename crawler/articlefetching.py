"""Article fetching for the blogs spider: first fetches, scheduled re-fetches, comment-feed checks.

ArticleFetching._page_request(spider, article_row, "first")  # the Request for an article page
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from scrapy import Request
from scrapy.http import Response, TextResponse
from twisted.python.failure import Failure

from crawler.feedreader import read_feed
from crawler.items import CommentFeedItem, PageItem, TemplatePageItem
from crawler.politehandler import retry_wait
from crawler.responses import (
    classify_failure,
    comment_feed_signature,
    header,
    headers_dict,
    simple_headers,
)
from crawler.schedule import backoff_delay, first_fetch_retry
from crawler.spiderbase import FEED_ACCEPT, PRIO_COMMENT_FEED, PRIO_NEW_ARTICLE, PRIO_REFETCH, BlogsSpiderBase
from crawler.templatelinks import HOME, Anchor, TemplateLink, below_home, pick_template_link
from store.clock import from_iso, next_refetch, refetch_base
from store.urls import normalize_url

# Feed paths below a blog's home page (WordPress, Blogger, Hugo, Jekyll), the longest first.
_FEED_TAILS = ("feed/atom/", "feed/rss2/", "feed/rdf/", "feed/", "feed", "rss/", "atom/", "feed.xml", "rss.xml",
               "atom.xml", "index.xml")  # fmt: skip


def home_page_url(feed: str, link: str | None = None) -> str | None:
    """A blog's home page: the article's origin path above `feed/` of its feed (WordPress, Blogger),
    else the root of the article's host. home_page_url("http://h/blog/feed/") == "http://h/blog/"."""
    parts = urlsplit(feed)
    if parts.scheme not in ("http", "https"):
        return None
    path = parts.path
    for tail in _FEED_TAILS:
        if path.endswith("/" + tail):
            return urlunsplit((parts.scheme, parts.netloc, path[: -len(tail)], "", ""))
    origin = urlsplit(link) if link else parts
    return urlunsplit((origin.scheme or parts.scheme, origin.netloc or parts.netloc, "/", "", ""))


class ArticleFetching(BlogsSpiderBase):
    """Turns due articles into requests and fetched pages into PageItems."""

    def _page_request(self, art: dict[str, Any], kind: str, **extra: Any) -> Request:
        self.inflight_articles.add(art["url"])
        self.handled.add(art["url"])
        if kind == "refetch":
            self.inc("blogs/refetches")
        return Request(
            art.get("link") or art["url"],
            callback=self.parse_article,
            errback=self.article_failed,
            priority=PRIO_NEW_ARTICLE if kind == "first" else PRIO_REFETCH,
            dont_filter=True,  # re-fetches must pass the dupe filter; state lives in the store
            meta={"article": art, "kind": kind, "dont_cache": True, **extra},
        )

    def _first_requests(self, art: dict[str, Any]) -> list[Request]:
        """A new article's page; and its comment feed first when the feed says readers already
        commented (the crawler came late: the comments the feed lists show the extractor where a
        set without a comment-free page keeps its comments)."""
        page = self._page_request(art, "first")
        if not art.get("comment_rss") or not (art.get("slash_comments") or 0) > 0:
            return [page]
        self.inc("blogs/comment_feeds_first")
        self.inflight_comment_feeds.add(art["url"])
        feed = Request(
            art["comment_rss"],
            callback=self.parse_first_comment_feed,
            errback=self.first_comment_feed_failed,
            headers={"Accept": FEED_ACCEPT},
            priority=PRIO_NEW_ARTICLE,
            dont_filter=True,
            meta={"article": art, "dont_cache": True, "first_comment_feed": True},
        )
        return [feed, page]

    def _template_requests(self, site: str, feed: str, link: str | None) -> list[Request]:
        """The site's home page, once per site (a new site's first articles: store.template_pages), so
        that its provisional set has pages of the same template beside its articles."""
        assert self.store is not None
        home = home_page_url(feed, link)
        if home is None or home in self.handled or self.store.has_template_page(site):
            return []
        if self.store.latest_profile_version(site) is not None:  # a full batch was extracted: not a new site
            return []
        return [self._template_request(site, TemplateLink(home, HOME))]

    def _template_request(self, site: str, link: TemplateLink) -> Request:
        self.handled.add(link.url)
        self.inflight_templates.add((site, link.url))
        self.inc("blogs/template_pages_requested")
        meta = {"site": site, "dont_cache": True, "template_kind": link.kind}
        return Request(link.url, callback=self.parse_template, errback=self.template_failed,
                       priority=PRIO_NEW_ARTICLE, dont_filter=True, meta=meta)  # fmt: skip

    def parse_template(self, response: Response) -> Iterator[TemplatePageItem | Request]:
        kind = response.meta.get("template_kind", HOME)
        self.inc("blogs/template_pages_fetched")
        # The next template page is in flight before this one is done: the site stays busy.
        follow = list(self._second_template_request(response)) if kind == HOME else []
        site = response.meta["site"]
        requested = response.request.url if response.request is not None else response.url
        if response.url != requested:  # redirected: in flight under the URL the item has
            self.inflight_templates.discard((site, requested))
            self.inflight_templates.add((site, response.url))
        yield TemplatePageItem(
            site=response.meta["site"],
            url=response.url,
            status=response.status,
            headers=headers_dict(response),
            body=response.body,
            fetched_at=self.now(),
            kind=kind,
        )
        yield from follow

    def _second_template_request(self, home: Response) -> Iterator[Request]:
        """One more template page, of the same kind as articles where the home page links one: a
        previous article the crawl does not hold, else an archive page (crawler.templatelinks)."""
        assert self.store is not None
        if not isinstance(home, TextResponse):
            return
        anchors = [Anchor(a.attrib.get("href", ""), a.attrib.get("rel", "")) for a in home.css("a[href]")]
        below = [normalize_url(url) for url in (below_home(a.href, home.url) for a in anchors) if url]
        known = set(self.store.known_articles(home.meta["site"], [], below)) if below else set()
        link = pick_template_link(anchors, home.url, known | self.handled)
        if link is not None and link.url not in self.handled:
            yield self._template_request(home.meta["site"], link)

    def template_failed(self, failure: Failure) -> None:
        # Only a help for the extraction: the site's articles are extracted without it.
        self.inc("blogs/template_pages_failed")
        self.inflight_templates.discard((failure.request.meta["site"], failure.request.url))  # type: ignore[attr-defined]
        self.logger.debug("Template page %s not fetched: %s", failure.request.url, failure.getErrorMessage())  # type: ignore[attr-defined]

    def parse_first_comment_feed(self, response: Response) -> Iterator[CommentFeedItem]:
        art = response.meta["article"]
        parsed = read_feed(response.body, response.url, simple_headers(response), now=self.now())
        if parsed.is_feed:  # in flight until the pipelines are done with it (BlogsSpider._on_item_done)
            yield CommentFeedItem(
                art["site"], art["url"], response.url, response.body, simple_headers(response), self.now()
            )
        else:
            self.inflight_comment_feeds.discard(art["url"])

    def first_comment_feed_failed(self, failure: Failure) -> None:
        art = failure.request.meta["article"]  # type: ignore[attr-defined]
        self.inflight_comment_feeds.discard(art["url"])
        wait = retry_wait(failure, self.now())
        if wait is not None:  # the page request, already queued, is held and postponed with its site
            self.hold_site(art["site"], wait)
        self.log_once(
            "commentfeed",
            art["comment_rss"],
            logging.INFO,
            "Comment feed %s failed (%s)",
            art["comment_rss"],
            classify_failure(failure).reason,
        )

    def _refetch_requests(self, art: dict[str, Any], now: float) -> Iterable[Request]:
        """A due re-fetch: skipped when slash:comments shows no change, else the comment feed or the page."""
        assert self.store is not None
        fresh_slash = (
            art["slash_comments"] is not None
            and art["slash_at_fetch"] is not None
            and (art["slash_seen_at"] or "") > (art["last_fetched_at"] or "")
        )
        if fresh_slash and art["slash_comments"] == art["slash_at_fetch"]:
            self.inc("blogs/refetches_skipped")
            self.inc("blogs/refetches_skipped/slash_comments")
            self.store.skip_refetch(art["url"], now, self.offsets)
            return []
        if art["comment_rss"]:
            headers = {"Accept": FEED_ACCEPT}
            if art["comment_feed_sig"] and art["comment_feed_etag"]:
                headers["If-None-Match"] = art["comment_feed_etag"]
            if art["comment_feed_sig"] and art["comment_feed_last_modified"]:
                headers["If-Modified-Since"] = art["comment_feed_last_modified"]
            self.inflight_articles.add(art["url"])
            self.handled.add(art["url"])
            self.inc("blogs/comment_feeds_checked")
            return [
                Request(
                    art["comment_rss"],
                    callback=self.parse_comment_feed,
                    errback=self.comment_feed_failed,
                    headers=headers,
                    priority=PRIO_COMMENT_FEED,
                    dont_filter=True,
                    meta={"article": art, "handle_httpstatus_list": [304], "dont_cache": True},
                )
            ]
        return [self._page_request(art, "refetch")]

    def parse_comment_feed(self, response: Response) -> Iterator[Request | CommentFeedItem]:
        assert self.store is not None
        art = response.meta["article"]
        etag, modified = header(response, "ETag"), header(response, "Last-Modified")
        if response.status == 304 and art["comment_feed_sig"]:
            unchanged, sig = True, art["comment_feed_sig"]
        else:
            parsed = read_feed(response.body, response.url, simple_headers(response), now=self.now())
            sig = comment_feed_signature(parsed) if parsed.is_feed else None
            unchanged = sig is not None and sig == art["comment_feed_sig"]
            if sig is not None and not unchanged:  # the pipelines store its entries: a check on the comments
                # Its site stays busy until the pipelines are done with it (BlogsSpider._on_item_done):
                # the re-fetch that follows may be stored first, and a site given back meanwhile is
                # another worker's while this one still writes its batches.
                self.inflight_comment_feeds.add(art["url"])
                yield CommentFeedItem(
                    art["site"], art["url"], response.url, response.body, simple_headers(response), self.now()
                )
        if unchanged:
            self.inflight_articles.discard(art["url"])
            self.inc("blogs/refetches_skipped")
            self.inc("blogs/refetches_skipped/comment_feed")
            self.store.skip_refetch(
                art["url"],
                self.now(),
                self.offsets,
                comment_feed_etag=etag,
                comment_feed_last_modified=modified,
            )
            return
        yield self._page_request(art, "refetch", comment_sig=sig, comment_etag=etag, comment_modified=modified)

    def comment_feed_failed(self, failure: Failure) -> Iterator[Request]:
        art = failure.request.meta["article"]  # type: ignore[attr-defined]
        wait = retry_wait(failure, self.now())
        if wait is not None:  # not the page at once on the site that asked to wait: the re-fetch waits
            self.inflight_articles.discard(art["url"])
            self._postpone_fetch(art, wait)
            return
        self.log_once(
            "commentfeed",
            art["comment_rss"],
            logging.INFO,
            "Comment feed %s failed (%s); fetching %s",
            art["comment_rss"],
            classify_failure(failure).reason,
            art["url"],
        )
        yield self._page_request(art, "refetch")

    def parse_article(self, response: Response) -> Iterator[PageItem | Request]:
        art, meta = response.meta["article"], response.meta
        self.inc(f"blogs/pages_fetched/{meta['kind']}")
        yield PageItem(
            site=art["site"],
            feed_url=art["feed"],
            article_url=art["url"],
            url=response.url,
            request_url=response.request.url if response.request else response.url,
            status=response.status,
            headers=headers_dict(response),
            body=response.body,
            fetched_at=self.now(),
            kind=meta["kind"],
            title=art.get("title"),
            author=art.get("author"),
            published=art.get("published"),
            comment_rss=art.get("comment_rss"),
            slash_comments=art.get("slash_comments"),
            comment_feed_sig=meta.get("comment_sig"),
            comment_feed_etag=meta.get("comment_etag"),
            comment_feed_last_modified=meta.get("comment_modified"),
        )
        yield from self._comment_api_requests(art, response)  # comments that load by script

    def article_failed(self, failure: Failure) -> None:
        meta = failure.request.meta  # type: ignore[attr-defined]
        art, kind = meta["article"], meta["kind"]
        self.inflight_articles.discard(art["url"])
        if self.store is None:
            return
        now = self.now()
        wait = retry_wait(failure, now)
        if wait is not None:  # the site is throttling us: not a failure of the page, nothing is given up
            self._postpone_fetch(art, wait)
            return
        info = classify_failure(failure)
        row = self.store.article(art["url"]) or {}
        failures = (row.get("failures") or 0) + 1
        self.inc("blogs/articles_failed")
        self.inc(f"blogs/articles_failed/{info.kind}")
        next_at: float | None
        if kind == "first":
            permanent = info.kind in ("robots", "redirect_scheme", "scheme", "too_big")
            delay = None if permanent else first_fetch_retry(failures, self.article_max_failures, self.rng)
            next_at, state = (now + delay, "pending") if delay is not None else (None, "failed")
        elif info.status in (404, 410):
            next_at, state = None, "gone"
        elif failures < 3:
            next_at, state = now + backoff_delay(failures, base=300, cap=3600, rng=self.rng), "active"
        else:  # give this offset up and wait for the next one
            first = from_iso(row.get("first_fetched_at")) or now
            next_at = next_refetch(refetch_base(from_iso(row.get("published")), first), self.offsets, now)
            state, failures = ("active" if next_at else "done"), 0
        self.store.record_article_failure(
            art["url"],
            now=now,
            status=info.status,
            error=info.reason,
            next_fetch_at=next_at,
            state=state,
            failures=failures,
        )
        self.logger.warning(  # one line per failed fetch
            "Article %s (%s fetch) failed: %s%s",
            art["url"],
            kind,
            info.reason,
            "" if next_at else f"; giving up ({state})",
        )

    def _postpone_fetch(self, art: dict[str, Any], wait: float) -> None:
        """Fetch the article again once its site's Retry-After is over (kept in the store)."""
        assert self.store is not None
        self.inc("blogs/fetches_postponed_retry_after")
        self.hold_site(art["site"], wait)
        self.store.postpone(articles=[art["url"]], until=self.held_sites.get(art["site"], self.now() + wait))
