"""The crawl bench's farm without a crawl: each blog's articles extracted as the crawl's provisional set.

    python bench/farm_sets.py [--blogs 1000] [--articles 5] [--age 6] [--lang en] [--check]

The blogs of `bench/crawl_workers.py` (blog `w{i:03d}`, seed i, its first article `--age` hours before
the crawl, one an hour), rendered without a server at the crawl's time: each blog's articles, each
with the comments its comment feed lists, as one set (`extract_and_learn`, as
`jobs.extraction.run_provisional` extracts a site without a full batch: what the crawl bench stores
for a blog of 5 articles; the farm's home pages link no previous article, so a set of two articles
or more holds the home page, a lone article none: `jobs.extraction.set_templates`).
The same comment check as the crawl bench (bench/comment_tally.py):
comments stored / shown, stored twice, rows that are no comment, authors right, and one line per
flagged comment or row. 1000 blogs take about half a minute, where the crawl takes ten or more: a
quick way to find what the full-size crawl gets wrong. `--check` exits 1 when anything is flagged.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from urllib.parse import unquote

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.comment_tally import comment_tally, explain  # noqa: E402
from extractor import Page, extract_and_learn  # noqa: E402
from farm.generated import BlogOptions, GeneratedArticle, GeneratedBlog  # noqa: E402
from store.comments import comment_dicts  # noqa: E402

CRAWLED_AT = 1_795_000_000.0  # the farm clock when the crawl fetches the pages (fixed: runs compare)


def _page(blog: GeneratedBlog, path: str, now: float, feed: tuple[str, ...] = ()) -> Page:
    response = blog.route(unquote(path), now)
    return Page(blog.origin + path, response.body, {"Content-Type": [response.content_type]}, feed_comments=feed)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blogs", type=int, default=1000)
    parser.add_argument("--articles", type=int, default=5, help="articles per blog")
    parser.add_argument("--age", type=float, default=6.0, help="hours from the first article to the crawl")
    parser.add_argument("--lang", choices=("en", "ja"), default="en")
    parser.add_argument("--check", action="store_true", help="exit 1 when a comment or row is flagged")
    args = parser.parse_args(argv)
    now = CRAWLED_AT
    rows: list[tuple[str, str | None, str | None, str]] = []
    published: list[GeneratedArticle] = []
    for i in range(args.blogs):
        origin = f"http://127.0.{1 + i // 250}.{2 + i % 250}:8080"  # as the crawl bench's hosts
        options = BlogOptions(articles=args.articles, start=now - args.age * 3600, seed=i, lang=args.lang)
        blog = GeneratedBlog(f"w{i:03d}", origin, options)
        shown = [a for a in blog.articles if a.published <= now]
        pages = [_page(blog, a.path, now, tuple(c.text for c in a.visible_comments(now))) for a in shown]
        home = [_page(blog, "/", now)] if len(pages) >= 2 else []  # the crawl's set_templates
        results, _profile = extract_and_learn([*pages, *home])
        for article, result in zip(shown, results, strict=False):
            for c in comment_dicts(result.comment_records, result.comments):
                rows.append((article.url, c["text"], c["author"], str(result.method)))
        published += shown
    tally = comment_tally(rows, published, now)
    made_of = "provisional sets (+ home page beside 2 articles or more)"
    print(f"{args.blogs} blogs x {args.articles} articles ({args.lang}), {made_of}: {tally}")
    print("\n".join(explain("sets", tally, limit=200)) if tally.flagged else "no comment flagged")
    return 1 if args.check and tally.flagged else 0


if __name__ == "__main__":
    raise SystemExit(main())
