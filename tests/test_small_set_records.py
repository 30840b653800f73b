"""Records are comments or nothing (issue 28): small sets store each real comment once, signed."""

from __future__ import annotations

import pytest

from extractor import DEFAULT, Page, extract_site
from extractor.comments.lone_records import loose_record, not_comment_text
from extractor.core.blocks import parse_blocks
from extractor.core.roles import BOILERPLATE, COMMENT
from farm import render
from farm.generated import BlogOptions, GeneratedArticle, GeneratedBlog

BLOGS = 8


def farm_blog(seed: int, lang: str) -> tuple[GeneratedBlog, float]:
    """A generated blog of five articles, half a day after the last one (comments still arriving)."""
    options = BlogOptions(articles=5, start=1_700_000_000, interval=3600, lang=lang, seed=seed)
    blog = GeneratedBlog(f"blog{seed}", f"http://blog{seed}.test", options)
    return blog, blog.articles[-1].published + 43_200


def extract_in_sets(blog: GeneratedBlog, now: float, size: int) -> list[tuple[GeneratedArticle, object]]:
    articles = blog.published(now)
    out = []
    for start in range(0, len(articles), size):
        chunk = articles[start : start + size]
        pages = [Page(a.url, render.article_page(blog, a, now).encode()) for a in chunk]
        out.extend(zip(chunk, extract_site(pages, DEFAULT), strict=True))
    return out


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("size", [1, 2, 3, 5])
def test_each_comment_shown_is_stored_once_with_its_author_and_no_other_record(size: int, lang: str) -> None:
    shown = stored = signed = 0
    for seed in range(BLOGS):
        blog, now = farm_blog(seed, lang)
        for article, result in extract_in_sets(blog, now, size):
            comments = {c.text: c for c in article.visible_comments(now)}
            shown += len(comments)
            texts = [r.text for r in result.comment_records]
            # no heading, count, author line or "Reply" as a record, nothing twice
            assert sorted(texts) == sorted(comments), (size, lang, article.url, texts)
            stored += len(texts)
            signed += sum(1 for r in result.comment_records if r.author == comments[r.text].author and r.date)
    assert shown > 30
    assert stored == shown
    assert signed == shown


def test_a_comment_and_its_reply_alone_in_a_small_set_are_two_records() -> None:
    blog, now = farm_blog(3, "ja")
    articles = {a.id: a for a in blog.published(now)}
    pages = [Page(None, render.article_page(blog, articles[i], now).encode()) for i in (2, 1)]
    records = extract_site(pages, DEFAULT)[1].comment_records
    shown = articles[1].visible_comments(now)
    assert [(r.text, r.author, r.parent) for r in records] == [
        (shown[0].text, shown[0].author, None),
        (shown[1].text, shown[1].author, 0),
    ]


def test_comment_blocks_without_a_unit_keep_their_text_without_labels() -> None:
    html = """<html><body><div id="post"><p>The post.</p></div><div id="comments">
<h3>3 Responses to “The post”</h3><div class="c"><p>Chloe Tan says:</p><p>I tried it and it works.</p>
<p><a href="#r">Reply</a></p></div><form><p>Name * Email *</p><p>Notify me of new comments</p></form>
</div></body></html>"""
    blocks = parse_blocks(html, {})
    roles = [BOILERPLATE] * len(blocks)
    for b in blocks:
        if b.text and b.text != "The post.":
            roles[b.index] = COMMENT
    assert [r.text for r in loose_record(blocks, roles)] == ["I tried it and it works."]
    kept = [b.text for b in blocks if b.text and roles[b.index] == COMMENT and not not_comment_text(b, blocks)]
    assert kept == ["I tried it and it works."]
