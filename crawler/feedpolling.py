"""Feed polling for the blogs spider: conditional GET, parsing, discovery, new entries, backoff.

FeedPolling.parse_feed(spider, response)  # yields first-fetch requests for new articles
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

from scrapy import Request
from scrapy.http import Response
from twisted.python.failure import Failure

from crawler.feedreader import read_feed
from crawler.feedsfile import discover_feed_links
from crawler.politehandler import HostThrottled, retry_wait
from crawler.responses import (
    article_candidates,
    classify_failure,
    header,
    permanent_url,
    simple_headers,
)
from crawler.schedule import (
    WEEK,
    backoff_delay,
    next_poll_delay,
    parse_expires,
    parse_max_age,
    parse_retry_after,
    predict_interval,
)
from crawler.spiderbase import FEED_ACCEPT, PRIO_DISCOVERY, PRIO_FEED, BlogsSpiderBase
from store.clock import from_iso

# Stored entries a 304 poll predicts from: the recent ones (predict_interval reads the newest few).
RECENT_WINDOW = 8 * WEEK


class FeedPolling(BlogsSpiderBase):
    """Polls one feed per request and records the outcome in the store."""

    def _feed_request(self, row: dict[str, Any], target: str | None = None, depth: int = 0) -> Request:
        url = target or row["feed_url"] or row["url"]
        headers = {"Accept": FEED_ACCEPT}
        if target is None:  # validators belong to the feed URL we poll
            if row.get("etag"):
                headers["If-None-Match"] = row["etag"]
            if row.get("last_modified"):
                headers["If-Modified-Since"] = row["last_modified"]
        self.inflight_feeds.add(row["url"])
        self.handled.add(row["url"])
        return Request(
            url,
            callback=self.parse_feed,
            errback=self.feed_failed,
            headers=headers,
            priority=PRIO_DISCOVERY if depth else PRIO_FEED,
            dont_filter=True,
            meta={
                "feed": row["url"],
                "site": row["site"],
                "target": url,
                "depth": depth,
                "handle_httpstatus_list": [304],
                "dont_cache": True,
            },
        )

    def parse_feed(self, response: Response) -> Iterator[Request]:
        assert self.store is not None
        feed = response.meta["feed"]
        now = self.now()
        row = self.store.feed(feed)
        if row is None:
            return
        if response.status == 304:
            self.inflight_feeds.discard(feed)
            self.inc("blogs/feeds_polled")
            self.inc("blogs/feeds_not_modified")
            # Unchanged, but the time since its newest entry grew: predict again from the stored entries.
            times = self.store.feed_entry_times(feed, now - RECENT_WINDOW)
            interval = predict_interval(times, now, self.min_interval, self.max_interval)
            self.store.record_feed_ok(
                feed,
                now=now,
                status=304,
                interval=interval,
                next_check=now + self._poll_delay(response, interval, None, now),
            )
            return
        parsed = read_feed(response.body, response.url, simple_headers(response), max_entries=self.max_entries, now=now)
        if not parsed.is_feed:
            yield from self._not_a_feed(response, row, parsed.looks_html, parsed.bozo_reason)
            return
        self.inflight_feeds.discard(feed)
        self.inc("blogs/feeds_polled")
        if parsed.bozo:
            self.inc("blogs/feeds_bozo")
            self.log_once(
                "bozo", feed, logging.INFO, "Feed %s is malformed but readable (%s)", feed, parsed.bozo_reason
            )
        if parsed.truncated:
            self.inc("blogs/feed_entries_truncated", parsed.truncated)
        cands = article_candidates(parsed, response.url)
        for scheme, count in cands.refused.items():
            self.inc("blogs/urls_refused", count)
            self.inc(f"blogs/urls_refused/{scheme}", count)
        if cands.refused:
            self.log_once(
                "refused",
                feed,
                logging.WARNING,
                "Feed %s: refused entry links with schemes %s",
                feed,
                dict(cands.refused),
            )
        site = row["site"]
        known = self.store.known_articles(site, [c.entry_id for c in cands.fresh], [c.url for c in cands.fresh])
        new, seen = [], []
        for cand in cands.fresh:
            existing = known.get(cand.entry_id) or known.get(cand.url)
            if existing:
                e = cand.entry
                seen.append(
                    {
                        "url": existing,
                        "slash_comments": e.slash_comments,
                        "comment_rss": e.comment_rss,
                        "title": e.title,
                    }
                )
            else:
                new.append(cand.record(site))
        times = [c.entry.published for c in cands.fresh if c.entry.published is not None]
        if not times and row["first_polled_at"]:
            times = self.store.feed_entry_times(feed, max(now - WEEK, (from_iso(row["first_polled_at"]) or 0) + 1))
        interval = predict_interval(times, now, self.min_interval, self.max_interval)
        delay = self._poll_delay(response, interval, parsed.ttl, now, parsed.update_period)
        inserted = self.store.record_feed_ok(
            feed,
            now=now,
            status=response.status,
            next_check=now + delay,
            interval=interval,
            feed_url=permanent_url(response, response.meta["target"]),
            etag=header(response, "ETag"),
            last_modified=header(response, "Last-Modified"),
            title=parsed.title,
            new_articles=new,
            seen=seen,
        )
        self.store.set_site_home(site, None, parsed.title)
        if inserted:
            self.inc("blogs/articles_new", len(inserted))
            self.logger.info("Feed %s: %d new article(s)", feed, len(inserted))
        for record in new:
            if record["url"] in inserted:
                yield from self._first_requests({**record, "feed": feed})
        if inserted:
            yield from self._template_requests(site, response.url, new[0].get("link"))

    def _poll_delay(
        self,
        response: Response,
        interval: float | None,
        ttl: float | None,
        now: float,
        update_period: float | None = None,
    ) -> float:
        return next_poll_delay(
            interval or self.max_interval,
            ttl=ttl,
            max_age=parse_max_age(header(response, "Cache-Control")),
            expires=parse_expires(header(response, "Expires"), now),
            update_period=update_period,
            retry_after=parse_retry_after(header(response, "Retry-After"), now),
            low=self.min_interval,
            high=self.max_interval,
        )

    def _not_a_feed(self, response: Response, row: dict[str, Any], html: bool, why: str | None) -> Iterator[Request]:
        """An HTML page at the listed URL: discover its feed; anything else is a failed poll."""
        assert self.store is not None
        target = response.meta["target"]
        if html and target == row["url"] and response.meta["depth"] == 0:
            links = [u for u in discover_feed_links(response.body, response.url) if u not in (target, response.url)]
            if links and self._listed_apart(row, links[0]):
                return
            if links:
                self.inc("blogs/feeds_discovered")
                self.logger.info("Site %s: feed %s discovered on %s", row["site"], links[0], target)
                self.store.set_feed_url(row["url"], links[0])
                self.store.set_site_home(row["site"], response.url, None)
                yield self._feed_request(row, target=links[0], depth=1)
                return
            reason = "no feed: HTML page without <link rel=alternate> feed"
        else:
            reason = "HTML served instead of a feed" if html else f"not a feed ({why or 'unrecognised'})"
        self._feed_failure(row, response.status, reason, "not_a_feed", None)

    def _listed_apart(self, row: dict[str, Any], feed: str) -> bool:
        """Whether the home page `row` discovered `feed`, which the feeds file lists on a line of its
        own: then the blog is that line's site, and the home page line is muted (warned once)."""
        assert self.store is not None
        owner = self.sources.get(feed)
        if owner is None or feed == row["url"]:
            return False
        self.inflight_feeds.discard(row["url"])
        reason = f"the home page of feed {feed}, listed on its own line as site {owner!r}: one site, polled there"
        now = self.now()
        self.store.record_feed_failure(row["url"], now=now, status=None, error=reason, next_check=now, mute=reason)
        self.inc("blogs/feeds_muted")
        self.logger.warning("Feed %s muted: %s (remove its line from the feeds file)", row["url"], reason)
        return True

    def feed_failed(self, failure: Failure) -> None:
        request = failure.request  # type: ignore[attr-defined]
        if self.store is None:
            return
        row = self.store.feed(request.meta["feed"])
        if row is None:
            return
        wait = retry_wait(failure, self.now())
        if wait is not None:
            self.hold_site(row["site"], wait)
            if isinstance(failure.value, HostThrottled):  # never sent: not a failed poll, just a later one
                self.inflight_feeds.discard(row["url"])
                self.store.postpone(feeds=[row["url"]], until=self.held_sites[row["site"]])
                return
        info = classify_failure(failure)
        self._feed_failure(row, info.status, info.reason, info.kind, info.retry_after)

    def _feed_failure(
        self, row: dict[str, Any], status: int | None, reason: str, kind: str, retry_after: str | None
    ) -> None:
        assert self.store is not None
        feed = row["url"]
        self.inflight_feeds.discard(feed)
        now = self.now()
        self.inc("blogs/feeds_polled")
        self.inc("blogs/feeds_failed")
        self.inc(f"blogs/feeds_failed/{kind}")
        if kind == "redirect_scheme":
            self.inc("blogs/redirects_refused")
        discovered = row["feed_url"] and row["feed_url"] != feed
        mute = None
        if discovered and (status in (404, 410) or kind == "not_a_feed"):
            self.store.set_feed_url(feed, None)  # the blog moved its feed: rediscover from the home page
        elif status == 410:
            mute = "410 Gone: the feed was removed"
        elif kind == "robots":
            mute = "forbidden by robots.txt"
        failures = (row["failures"] or 0) + 1
        if mute is None and failures >= self.mute_after:
            mute = f"{failures} consecutive failures, last: {reason}"
        delay = backoff_delay(
            failures,
            base=self.backoff_base,
            cap=self.max_interval,
            retry_after=parse_retry_after(retry_after, now),
            rng=self.rng,
        )
        self.store.record_feed_failure(feed, now=now, status=status, error=reason, next_check=now + delay, mute=mute)
        if mute:
            self.inc("blogs/feeds_muted")
            self.logger.warning("Feed %s muted: %s", feed, mute)
        else:
            self.logger.warning(  # one line per failed poll
                "Feed %s failed: %s (failure %d, next try in %.0f s)",
                feed,
                reason,
                failures,
                delay,
            )
