"""A new site's first articles with and without template pages beside them (issue 28, "a site is never one page").

    python bench/template_pages.py [--blogs 20] [--articles 1,2]

Generated farm blogs (farm.generated, en and ja, rendered without a server half a day after their
last article, every comment out): each blog's first 1 or 2 articles extracted as the crawl's
provisional job does (`extract_and_learn` on the set), alone, with the blog's home page as a
template page of the set (its own extraction is not kept), and with the home page and the second
template page the crawl takes (crawler/templatelinks.py): a previous article (the blog's one
article older than the set, which the feed no longer lists) or an archive page (the category of
the set's newest article). Printed per set size and language: comments stored / shown, rows that
are no comment, comments with the wrong author, and posts that lost a paragraph of the article or
kept a line of the sidebar.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from extractor import Page, PageExtraction, extract_and_learn  # noqa: E402
from farm.generated import BlogOptions, GeneratedArticle, GeneratedBlog  # noqa: E402
from store.comments import comment_dicts  # noqa: E402

START = 1_700_000_000.0


@dataclass
class Tally:
    shown: int = 0
    stored: int = 0
    not_comments: int = 0
    wrong_author: int = 0
    posts: int = 0
    posts_short: int = 0  # a paragraph of the article missing from the post
    posts_noisy: int = 0  # the sidebar's "about" line kept in the post
    methods: Counter[str] = field(default_factory=Counter)

    def row(self) -> str:
        return (
            f"{self.stored:>5}/{self.shown:<6} {self.not_comments:>14} {self.wrong_author:>13}"
            f" {self.posts_short:>8}/{self.posts:<2} {self.posts_noisy:>8}/{self.posts:<2}  {dict(self.methods)}"
        )


def page(blog: GeneratedBlog, path: str, now: float) -> Page:
    response = blog.route(unquote(path), now)  # routes take the decoded path
    return Page(blog.origin + path, response.body, {"Content-Type": [response.content_type]})


def score(tally: Tally, blog: GeneratedBlog, article: GeneratedArticle, result: PageExtraction, now: float) -> None:
    visible = article.visible_comments(now)
    shown = {" ".join(c.text.split()): c.author for c in visible}
    post = " ".join(result.post.split())
    comments = comment_dicts(result.comment_records, result.comments)
    tally.shown += len(visible)
    tally.stored += len(comments)
    for c in comments:
        text = " ".join((c["text"] or "").split())
        if text not in shown:
            tally.not_comments += 1
        elif c["author"] != shown[text]:
            tally.wrong_author += 1
    tally.posts += 1
    tally.posts_short += any(" ".join(p.split()) not in post for p in article.paragraphs)
    tally.posts_noisy += any(line in post for line in (blog.title, "Proudly powered", blog.owner + " ·"))
    tally.methods[str(result.method)] += 1


# The template pages beside the articles, by variant.
VARIANTS: dict[str, tuple[str, ...]] = {
    "": (),
    " + home": ("home",),
    " + home + previous": ("home", "previous"),
    " + home + archive": ("home", "archive"),
}


def measure(blogs: int, size: int, lang: str, templates: tuple[str, ...]) -> Tally:
    tally = Tally()
    for b in range(blogs):
        # one article more than the set: the oldest is the previous article the feed no longer lists
        options = BlogOptions(
            articles=size + 1, start=START, interval=3600, seed=b, lang=lang, comments_per_article=(1, 6)
        )
        blog = GeneratedBlog(f"t{b}", f"http://t{b}.test", options)
        now = START + (size + 1) * 3600 + 2 * 86400  # every comment out
        previous, articles = blog.articles[0], blog.articles[1:]
        pages = [page(blog, a.path, now) for a in articles]
        paths = {
            "home": "/",
            "previous": previous.path,
            "archive": f"/category/{blog.category_number(articles[-1].category)}/",
        }
        pages += [page(blog, paths[kind], now) for kind in templates]
        results, _profile = extract_and_learn(pages)
        for article, result in zip(articles, results, strict=False):
            score(tally, blog, article, result, now)
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blogs", type=int, default=20)
    parser.add_argument("--articles", default="1,2", help="set sizes (articles per site)")
    args = parser.parse_args(argv)
    print(f"{'set':<36} stored/shown  not a comment  wrong author  post short  post noisy  decided by")
    for size in [int(n) for n in args.articles.split(",")]:
        for lang in ("en", "ja"):
            for name, templates in VARIANTS.items():
                label = f"{size} article(s){name}, {lang}"
                print(f"{label:<36} {measure(args.blogs, size, lang, templates).row()}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
