"""D6, D10, D11 (robust.py): which blocks besides the paper's every-page post identifiers are the post's."""

from __future__ import annotations

from extractor import DEFAULT, PAPER, Page, extract_site

WORDS = ["harbour", "lantern", "orchard", "violin", "meadow", "pepper", "thunder", "ladder"]


def _page(i: int, note: str = "", comment: str = "") -> Page:
    body = " ".join(WORDS[(i + k) % len(WORDS)] for k in range(12))
    html = f"""<html><body>
<div id="nav"><a href="/">Home</a> <a href="/about">About</a></div>
<div id="main">
  <h1 class="title">Post number {i} about {WORDS[i % len(WORDS)]}</h1>
  <div class="note">{note}</div>
  <div class="body"><p>{body} first paragraph {i}.</p><p>Second paragraph of post {i}, {body}.</p></div>
</div>
<div id="comments"><h3>Leave a comment</h3><div class="list">{comment}</div></div>
<div id="footer">Copyright the garden blog</div>
</body></html>"""
    return Page(f"http://blog.test/{i}", html.encode())


def _set() -> list[Page]:
    return [
        _page(0, note="Editor's note: this post was updated after readers wrote in"),
        _page(1, comment="<p>I planted the same orchard last spring and it thrived, thank you</p>"),
        _page(2),
        _page(3),
        _page(4),
    ]


def test_identifier_with_content_on_one_page_before_the_body_is_post() -> None:
    out = extract_site(_set())
    assert "Editor's note" in out[0].post
    assert not out[0].comments


def test_identifier_with_content_on_one_page_after_the_body_stays_comment() -> None:
    out = extract_site(_set())
    assert out[1].comments == ["I planted the same orchard last spring and it thrived, thank you"]
    assert "orchard last spring" not in out[1].post
    assert len(out) > 2 and all(not page.comments for page in out[2:])


def test_the_paper_calls_the_note_a_comment() -> None:
    # the published rule: a post identifier carries content on every page; the note's does not
    out = extract_site(_set(), PAPER)
    assert any("Editor's note" in c for c in out[0].comments)


def _linked_title_page(i: int) -> Page:
    body = " ".join(WORDS[(i * 3 + k) % len(WORDS)] for k in range(14))
    html = f"""<html><body>
<div id="nav"><a href="/">Home</a> <a href="/archive">Archive</a></div>
<div class="post">
  <h2><a href="/post/{i}">The {WORDS[i % len(WORDS)]} story, part {i}</a></h2>
  <p class="byline">By <a href="/author/ann">Ann</a></p>
  <div class="entry"><p>{body} opening {i}.</p><p>More about {body}, closing {i}.</p></div>
</div>
<div class="nav-links"><h3><a href="/post/{i + 1}">Next: the {WORDS[(i + 1) % len(WORDS)]} story</a></h3></div>
<div id="footer">Garden blog footer</div>
</body></html>"""
    return Page(None, html.encode())


def test_linked_title_before_the_body_is_post() -> None:
    out = extract_site([_linked_title_page(i) for i in range(5)])
    for i, page in enumerate(out):
        assert page.post.split("\n")[0] == f"The {WORDS[i % len(WORDS)]} story, part {i}"
        assert "Next:" not in page.post  # a linked heading after the body is navigation


def test_without_d10_the_linked_title_is_dropped_as_a_link() -> None:
    # (D20 gives back a title that no other occurrence of its text contradicts, a unique one too)
    out = extract_site([_linked_title_page(i) for i in range(5)], DEFAULT.but(linked_titles=False, shared_titles=False))
    assert len(out) == 5 and all("story, part" not in page.post.split("\n")[0] for page in out)


def _gap_page(i: int, heading: str, related: str = "") -> Page:
    body = " ".join(WORDS[(i * 5 + k) % len(WORDS)] for k in range(16))
    html = f"""<html><body>
<div id="nav"><a href="/">Home</a> <a href="/archive">Archive</a></div>
<div class="entry">
  <p>{body} opening paragraph {i}.</p>
  <h3>{heading}</h3>
  <p>Closing thoughts on {body}, number {i}.</p>
  {related}
</div>
<div id="footer">Garden blog footer</div>
</body></html>"""
    return Page(None, html.encode())


def test_a_subheading_other_posts_share_is_part_of_the_post() -> None:
    # "The verdict" occurs on every page, so step 4 calls it boilerplate: it sits between post blocks
    pages = [_gap_page(i, "The verdict") for i in range(5)]
    for page in extract_site(pages):
        assert page.post.split("\n")[1] == "The verdict"
    without = extract_site(pages, DEFAULT.but(post_gaps=False))
    assert len(without) == len(pages) and all("The verdict" not in page.post for page in without)


def test_a_heading_above_links_is_not_a_gap() -> None:
    links = '<h4>Related posts:</h4><ul><li><a href="/a">A post on orchards and more orchards</a></li></ul>'
    pages = [_gap_page(i, f"Part {i} of the series", links.replace("/a", f"/a{i}")) for i in range(5)]
    for page in extract_site(pages):
        assert "Related posts:" not in page.post


def _dated_page(i: int) -> Page:
    body = " ".join(WORDS[(i * 3 + k) % len(WORDS)] for k in range(16))
    html = f"""<html><body><div id="nav"><a href="/">Home</a></div>
<article class="post"><h1 class="title">Story {i} of the {WORDS[i % len(WORDS)]}</h1>
<div class="meta">Published November {i + 3}, 2026 by Margaret Holloway</div>
<div class="entry"><p>{body} opening {i}.</p><p>More on {body}, closing {i}.</p></div></article>
<div id="footer">Garden blog footer</div></body></html>"""
    return Page(None, html.encode())


def test_date_lines_option_sets_the_byline_apart_and_keeps_the_title() -> None:
    pages = [_dated_page(i) for i in range(5)]
    out = extract_site(pages)
    assert len(out) == len(pages) and all("Published November" in page.post for page in out)
    for i, page in enumerate(extract_site(pages, DEFAULT.but(date_lines=True))):
        assert "Published" not in page.post
        assert page.post.split("\n")[0] == f"Story {i} of the {WORDS[i % len(WORDS)]}"
        assert not page.comments


def _footer_page(i: int) -> Page:
    body = " ".join(WORDS[(i * 3 + k) % len(WORDS)] for k in range(16))
    html = f"""<html><body><div id="nav"><a href="/">Home</a></div>
<article class="post"><h1 class="title">Story {i} of the {WORDS[i % len(WORDS)]}</h1>
<div class="entry"><p>{body} opening {i}.</p><p>More on {body}, closing {i}.</p></div>
<footer class="entry-utility">This entry was posted in <a href="/c{i}">{WORDS[(i + 2) % len(WORDS)]}</a>.
Bookmark the <a href="/p{i}">permalink</a>.</footer></article>
<div id="footer">Garden blog footer</div></body></html>"""
    return Page(None, html.encode())


def test_a_footer_line_after_the_body_on_every_page_is_metadata() -> None:
    out = extract_site([_footer_page(i) for i in range(5)])
    for i, page in enumerate(out):
        assert "This entry was posted" not in page.post
        assert page.post.split("\n")[0] == f"Story {i} of the {WORDS[i % len(WORDS)]}"
        assert not page.comments
    paper = extract_site([_footer_page(i) for i in range(5)], PAPER)
    assert len(paper) == 5 and all("This entry was posted" in p.post for p in paper)


def _echo_page(i: int) -> Page:
    body = " ".join(WORDS[(i * 3 + k) % len(WORDS)] for k in range(16))
    title = f"The {WORDS[i % len(WORDS)]} and the {WORDS[(i + 3) % len(WORDS)]}, part {i}"
    html = f"""<html><body><div id="nav"><a href="/">Home</a></div>
<div class="crumbs"><a href="/">Home</a> / {title}</div>
<article class="post"><h1 class="title">{title}</h1>
<div class="entry"><p>{body} opening {i}.</p><p>More on {body}, closing {i}.</p></div></article>
<div id="footer">Garden blog footer</div></body></html>"""
    return Page(None, html.encode())


def test_a_breadcrumb_quoting_the_title_is_not_post() -> None:
    pages = [_echo_page(i) for i in range(5)]
    for i, page in enumerate(extract_site(pages)):
        assert not any(line.startswith("Home /") for line in page.post.split("\n"))
        assert (
            page.post.split("\n")[0] == f"The {WORDS[i % len(WORDS)]} and the {WORDS[(i + 3) % len(WORDS)]}, part {i}"
        )
    without = extract_site(pages, DEFAULT.but(title_echoes=False))
    assert len(without) == len(pages) and all(page.post.startswith("Home /") for page in without)


def _one_response_page(i: int, comment: bool) -> Page:
    body = " ".join(WORDS[(i * 3 + k) % len(WORDS)] for k in range(16))
    title = f"The {WORDS[i % len(WORDS)]} and the {WORDS[(i + 3) % len(WORDS)]}, part {i}"
    said = " ".join(WORDS[(i * 5 + k) % len(WORDS)] for k in range(12))
    region = (
        f"""<div id="comments"><h3>One Response to “{title}”</h3><ol class="commentlist"><li class="comment">
<p class="says">Reader {i} says:</p><p>{said}, thanks {i}.</p></li></ol></div>"""
        if comment
        else ""
    )
    html = f"""<html><body><div id="nav"><a href="/">Home</a></div>
<article class="post"><h1 class="title">{title}</h1>
<div class="entry"><p>{body} opening {i}.</p><p>More on {body}, closing {i}.</p></div></article>
{region}<div id="footer">Garden blog footer</div></body></html>"""
    return Page(None, html.encode())


def test_a_comments_heading_quoting_the_title_is_not_a_comment() -> None:
    # pages with a single comment each show no repeated unit: the heading would be a comment of its own
    pages = [_one_response_page(i, comment=i % 2 == 1) for i in range(6)]
    for i, page in enumerate(extract_site(pages)):
        assert not any(c.startswith("One Response to") for c in page.comments)
        assert bool(page.comments) == (i % 2 == 1)
    # D17 (records only, issue 28) keeps such a heading out of the comments on its own too
    for page in extract_site(pages, DEFAULT.but(title_echoes=False)):
        assert not any(c.startswith("One Response to") for c in page.comments)
    without = extract_site(pages, DEFAULT.but(title_echoes=False, records_only=False))
    assert any(c.startswith("One Response to") for page in without for c in page.comments)
