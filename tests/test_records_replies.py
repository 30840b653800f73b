"""Threaded replies are records of their own, with their parent, on the demo's Japanese blog (``nikki``).

The crawl learns a site's profile from first fetches, made soon after publication: there, every
comment is a top-level one (``li.comment.depth-1``), so the unit signature holds "depth-1". A later
fetch shows replies (``li.comment.depth-2`` inside their parent's ``li``): they must not be merged
into the parent and stored under the parent's author.
"""

from __future__ import annotations

import pytest

from extractor import Page, extract_and_learn
from farm.generated import BlogOptions, GeneratedArticle, GeneratedBlog, GeneratedComment
from farm.log import normalize_path

HOUR = 3600.0
T0 = 1_780_000_000.0
ARTICLES = 12  # scripts/demo.py: 12 articles 20 minutes apart, comments 10 minutes to 5 hours later


def demo_blog(name: str, lang: str, seed: int) -> GeneratedBlog:
    options = BlogOptions(
        articles=ARTICLES,
        start=T0 - (ARTICLES - 1) * 20 * 60,
        interval=20 * 60,
        comments_per_article=(1, 5),
        comment_delays=(600, 5 * HOUR),
        lang=lang,
        seed=seed,
    )
    return GeneratedBlog(name, "http://127.0.0.1:8000", options)


def page(blog: GeneratedBlog, article: GeneratedArticle, now: float) -> Page:
    response = blog.route(normalize_path(article.path), now)
    assert response.status == 200
    return Page(article.url, response.body)


def thread_order(comments: list[GeneratedComment], parent: int | None = None) -> list[GeneratedComment]:
    """Comments as the page prints them: each followed by its replies."""
    out = []
    for c in comments:
        if c.parent == parent:
            out += [c, *thread_order(comments, c.id)]
    return out


@pytest.mark.parametrize(("name", "lang", "seed"), [("nikki", "ja", 8), ("notebook", "en", 7)])
def test_replies_shown_after_the_profile_was_learned_are_their_own_records(name: str, lang: str, seed: int) -> None:
    blog = demo_blog(name, lang, seed)
    articles = blog.published(T0)
    _, profile = extract_and_learn([page(blog, a, T0) for a in articles])
    later = T0 + 3 * HOUR
    replies = 0
    for article in articles:
        shown = thread_order(article.visible_comments(later))
        position = {c.id: i for i, c in enumerate(shown)}
        records = profile.extract(page(blog, article, later)).comment_records
        assert [(r.author, r.parent) for r in records] == [
            (c.author, position.get(c.parent) if c.parent is not None else None) for c in shown
        ], article.url
        assert [r.text for r in records] == [c.text for c in shown]
        replies += sum(c.parent is not None for c in shown)
    assert replies >= 5  # the pages do show replies (nikki: 7 in 6 articles)
