"""D17 (issue 30, item 5): lines a few posts share inside their post regions stay post
(extractor/separation/recurring.py).

Step 4 drops a line that another page also has. A sub-heading two posts share ("はじめに"), a closing
line the author repeats ("Start before you feel ready."), a caption: inside the post they are post,
at the post's edges too, where D11 (gaps between post blocks) does not reach. A line of the post
container on most pages ("Share this:") stays boilerplate.
"""

from __future__ import annotations

from extractor import DEFAULT, Page, extract_site

NAV = "<div id=nav><a href=/>Home</a> <a href=/about>About</a> <a href=/archive>Archive</a></div>"
TOPICS = ["gardening", "cycling", "baking", "astronomy", "woodwork", "sailing", "pottery", "running"]
CLOSING = "Start before you feel ready."
HEADING = "はじめに"


def _page(i: int) -> bytes:
    topic = TOPICS[i]
    heading = f"<h2>{HEADING}</h2>" if i in (1, 4) else ""
    closing = f"<p>{CLOSING}</p>" if i in (0, 3) else ""
    body = (
        f"<h1>Notes on {topic}</h1>"
        f'<ul class="toc"><li><a href="#a">{HEADING}</a></li><li><a href="#b">More</a></li></ul>{heading}'
        f"<p>Today I spent the whole afternoon on {topic}, and learned a great deal about it.</p>"
        f"<p>The second paragraph about {topic} explains what went wrong and what went right.</p>"
        f"{closing}<p>Share this:</p>"
    )
    return (
        f"<html><body>{NAV}<div class=entry-content>{body}</div><div id=foot><p>Copyright the author</p></div>"
        "</body></html>"
    ).encode()


def test_lines_two_posts_share_stay_in_their_posts() -> None:
    pages = [Page(None, _page(i)) for i in range(len(TOPICS))]
    without = extract_site(pages, DEFAULT.but(recurring_post_lines=False))
    assert CLOSING not in without[0].post and HEADING not in without[1].post.split("\n")  # lost before
    results = extract_site(pages, DEFAULT)
    for i, result in enumerate(results):
        lines = result.post.split("\n")
        assert (CLOSING in lines) == (i in (0, 3)), lines
        assert (HEADING in lines) == (i in (1, 4)), lines
        assert "Share this:" not in lines  # on every page: the template's
        assert f"Today I spent the whole afternoon on {TOPICS[i]}, and learned a great deal about it." in lines


def _titled(i: int, title: str) -> bytes:
    body = (
        f"<p>Today I spent the whole afternoon on {TOPICS[i]}, and learned a great deal about it.</p>"
        f"<p>The second paragraph about {TOPICS[i]} explains what went wrong and what went right.</p>"
    )
    return (
        f'<html><body>{NAV}<h2 class="site">Latest posts</h2><article><h1 class="entry-title">{title}</h1>'
        f"<div class=entry-content>{body}</div></article><div id=foot><p>Copyright the author</p></div></body></html>"
    ).encode()


def test_a_title_two_posts_share_stays_in_both() -> None:
    titles = [f"Notes on {t}" for t in TOPICS[:6]]
    titles[4] = titles[1]  # two posts, one title
    pages = [Page(None, _titled(i, title)) for i, title in enumerate(titles)]
    without = extract_site(pages, DEFAULT.but(shared_titles=False))
    assert titles[1] not in without[1].post.split("\n")  # lost before
    for i, result in enumerate(extract_site(pages, DEFAULT)):
        lines = result.post.split("\n")
        assert lines[0] == titles[i]
        assert "Latest posts" not in lines  # a heading over every post is the template's
