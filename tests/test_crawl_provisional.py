"""A site whose first batch is not full yet still gets posts and comments: its pages are extracted
provisionally (the set it has so far, a page alone when it has one) until the first full batch
replaces them."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from crawl_helpers import rows, run_crawl, write_feeds

from farm import BlogFarm, FarmSite, GeneratedArticle

pytestmark = pytest.mark.slow

HOUR = 3600.0


def category_url(site: FarmSite, article: GeneratedArticle) -> str:
    assert site.blog is not None
    return f"{site.origin}/category/{site.blog.category_number(article.category)}/"


def test_a_small_blog_is_extracted_provisionally_until_its_first_batch_fills(farm: BlogFarm, tmp_path: Path) -> None:
    t0 = time.time()
    farm.clock.set(t0)
    # 12 articles an hour apart, the 4th published now: the first crawl sees 4 (batch size 10).
    blog = farm.add_generated_blog("small", articles=12, start=t0 - 3 * HOUR, interval=HOUR, seed=5)
    # One article out two hours ago, its readers' comments in.
    alone = farm.add_generated_blog(
        "alone",
        articles=3,
        start=t0 - 2 * HOUR,
        interval=10 * HOUR,
        seed=6,
        comments_per_article=(3, 5),
        comment_delays=(60.0, 3600.0),
    )
    feeds = write_feeds(tmp_path / "feeds.txt", [blog.feed_line(), alone.feed_line()])
    db = tmp_path / "blogs.db"
    settings = {"BLOGS_REFETCH_AFTER": "30d"}

    first = run_crawl(feeds, db, settings=settings, clock=farm.clock)
    assert first.returncode == 0, first.stderr[-3000:]
    assert rows(db, "SELECT site, COUNT(*) FROM posts GROUP BY site ORDER BY site") == [("alone", 1), ("small", 4)]
    assert rows(db, "SELECT DISTINCT method, profile_version FROM extractions") == [("provisional", 0)]
    # Each site's home page was fetched and stored as a template page (not a post), then the archive
    # of the newest article's category that the home page links (every article it lists is in the
    # feed). Listing pages join a set of two articles or more, not a lone article, which is a page
    # alone (jobs.extraction.set_templates); the set says what it was made of.
    assert rows(db, "SELECT site, url, status, kind FROM template_pages ORDER BY site, id") == [
        ("alone", alone.origin + "/", 200, "home page"),
        ("alone", category_url(alone, alone.articles[0]), 200, "archive page"),
        ("small", blog.origin + "/", 200, "home page"),
        ("small", category_url(blog, blog.articles[3]), 200, "archive page"),
    ]
    assert rows(db, "SELECT COUNT(*) FROM posts WHERE url IN (SELECT url FROM template_pages)") == [(0,)]
    decided = dict(rows(db, "SELECT site, GROUP_CONCAT(DISTINCT decided_by) FROM extractions GROUP BY site"))
    assert decided == {"alone": "single page", "small": "set"}
    made_of = {"alone": "set of 1 article", "small": "set of 4 articles + 2 template pages (home page, archive page)"}
    for site, warnings in rows(db, "SELECT site, warnings FROM extractions"):
        assert f"provisional: {made_of[site]}, the articles the site has so far;" in " ".join(json.loads(warnings))
    # The lone article's comments, each once, with its author.
    shown = [(c.text, c.author) for c in alone.articles[0].visible_comments(farm.clock.now())]
    assert len(shown) >= 3
    assert sorted(rows(db, "SELECT text, author FROM comments WHERE site = 'alone'")) == sorted(shown)
    texts = [t for (t,) in rows(db, "SELECT text FROM posts WHERE site = 'small'")]
    assert texts and all(len(t) > 200 for t in texts)  # article bodies, not an empty or whole-page answer
    assert rows(db, "SELECT COUNT(*) FROM profiles") == [(0,)]

    # Eight hours on, all 12 articles are out (the feed polled now, not when its interval says): the
    # first batch fills and replaces every provisional row.
    farm.clock.set(t0 + 8 * HOUR + 60)
    second = run_crawl(feeds, db, "-a", "force=1", settings=settings, clock=farm.clock)
    assert second.returncode == 0, second.stderr[-3000:]
    assert rows(db, "SELECT method, COUNT(*) FROM extractions WHERE site = 'small' GROUP BY method") == [
        ("batch", 10),
        ("profile", 2),
    ]
    assert rows(db, "SELECT COUNT(*) FROM posts WHERE site = 'small'") == [(12,)]
    assert rows(db, "SELECT COUNT(*) FROM posts WHERE site = 'small' AND method = 'provisional'") == [(0,)]


def test_a_previous_article_beyond_the_feed_is_the_sets_template_page_of_the_articles_kind(
    farm: BlogFarm, tmp_path: Path
) -> None:
    t0 = time.time()
    farm.clock.set(t0)
    # Three articles out, the feed lists the newest only: the home page lists all three, and the
    # older two are pages of the articles' template the crawl does not hold as articles.
    blog = farm.add_generated_blog(
        "short-feed", articles=3, start=t0 - 3 * HOUR, interval=HOUR, seed=8, feed_items=1, comments_per_article=(2, 3)
    )
    db = tmp_path / "blogs.db"
    done = run_crawl(write_feeds(tmp_path / "feeds.txt", [blog.feed_line()]), db, clock=farm.clock)
    assert done.returncode == 0, done.stderr[-3000:]
    newest, previous = blog.articles[2], blog.articles[1]
    assert rows(db, "SELECT url FROM articles") == [(newest.url,)]
    assert rows(db, "SELECT url, status, kind FROM template_pages ORDER BY id") == [
        (blog.origin + "/", 200, "home page"),
        (previous.url, 200, "previous article"),
    ]
    assert rows(db, "SELECT url FROM posts") == [(newest.url,)]  # the previous article is no post
    [(warnings, decided_by)] = rows(db, "SELECT warnings, decided_by FROM extractions")
    assert decided_by == "set"
    # the previous article, of the articles' own template, is the set's other page (not the home page)
    note = "provisional: set of 1 article + 1 template page (previous article), the articles"
    assert note in " ".join(json.loads(warnings))
    [(post,)] = rows(db, "SELECT text FROM posts")
    assert newest.paragraphs[0] in post and previous.paragraphs[0] not in post
