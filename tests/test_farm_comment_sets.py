"""Issues 28/35: the farm's comment tally at full size. A new site's provisional set (its 5 articles and
its home page, as `jobs.extraction.run_provisional` extracts them) stores every comment the farm
shows, once, with its author, and nothing that is not a comment.

Each blog below is one the full-size crawl bench (`bench/crawl_workers.py --blogs 1000`, blog
`w{i:03d}` with seed i, crawled six hours after its first article) got wrong, rendered here without
a server at the same age:

* 88, 450: two readers wrote the same words on two articles; step 4 dropped them as lines the pages
  share (the first kept them as post: `recurring_post_lines` took them for lines the posts share),
  and the author line alone was stored, or nothing;
* 378: a comment-free article in a set whose other articles all have comments showed "No comments
  yet", stored as a comment;
* 609: two comments with the same words on one page, the set's only comments: their text slot,
  the same under both, was typed chrome ("Reply") and the author lines were stored as the comments;
* 333: a comment with two replies, the set's only comments: the signature learned from the replies
  (`li.comment.depth-2`), and the parent's `<li>`, left post by the identifier step (it has no text
  of its own), was no unit: the comment was lost;
* 601: a reader who commented on two articles with a short comment: her author line, matched on the
  other page, was boilerplate, and the lone comment's unit did not hold mostly comment words (its
  author, date and "Reply" lines counted against them): the comment was stored without its author;
* 351, as a blog of 2 articles 20 hours old, both commented (`bench/farm_sets.py --articles 2 --age
  20`): the dated units the set voted for were the two replies' "bypostauthor" (both by the post's
  author), so the comment they answer and the other page's lone comment stayed post.
"""

from __future__ import annotations

from urllib.parse import unquote

import pytest

from extractor import Page, extract_and_learn
from farm.generated import BlogOptions, GeneratedBlog
from store.comments import comment_dicts

NOW = 1_795_000_060.0  # the crawl's clock when it fetched the pages
START = 1_795_000_000 - 6 * 3600  # the first article: five hours before the last, an hour apart


def farm_blog(i: int, articles: int = 5, start: float = START) -> GeneratedBlog:
    """Blog `w{i:03d}` of the crawl bench's farm."""
    origin = f"http://127.0.{1 + i // 250}.{2 + i % 250}:8080"
    return GeneratedBlog(f"w{i:03d}", origin, BlogOptions(articles=articles, start=float(start), seed=i))


def page(blog: GeneratedBlog, path: str, feed: tuple[str, ...] = ()) -> Page:
    response = blog.route(unquote(path), NOW)
    return Page(blog.origin + path, response.body, {"Content-Type": [response.content_type]}, feed_comments=feed)


@pytest.mark.parametrize(
    ("blog_number", "articles", "start"),
    [
        *[(number, 5, START) for number in (88, 450, 378, 609, 333, 601)],
        (351, 2, NOW - 60 - 20 * 3600),
    ],
)
def test_a_provisional_set_stores_every_shown_comment_once_with_its_author(
    blog_number: int, articles: int, start: float
) -> None:
    blog = farm_blog(blog_number, articles, start)
    # each article with the comments its comment feed listed (the crawl reads it at first fetch)
    pages = [page(blog, a.path, tuple(c.text for c in a.visible_comments(NOW))) for a in blog.articles]
    results, _profile = extract_and_learn([*pages, page(blog, "/")])
    for article, result in zip(blog.articles, results, strict=False):
        stored = sorted((c["text"], c["author"]) for c in comment_dicts(result.comment_records, result.comments))
        shown = sorted((c.text, c.author) for c in article.visible_comments(NOW))
        assert stored == shown, article.url
    assert any(len(a.visible_comments(NOW)) for a in blog.articles)
