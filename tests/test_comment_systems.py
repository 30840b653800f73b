"""Detection of a page's comment system from the embed snippets the families document (issue 31).

No network: each page is a blog page carrying the family's snippet as its documentation gives it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from extractor.comments.commentsystems import FAMILIES, HTML, IN_HTML, UNKNOWN, CommentSystem, detect_comment_system
from extractor.separation.rendered import rendered_comments

URL = "https://blog.example.org/2024/05/shooting-board/"


def page(snippet: str) -> str:
    return (
        "<!doctype html><html><head><title>Shooting board</title></head><body>"
        "<article><h1>Shooting board</h1><p>A jig for square ends.</p></article>"
        f"{snippet}<footer>© blog</footer></body></html>"
    )


# family -> (documented snippet, expected CommentSystem)
SNIPPETS: dict[str, tuple[str, CommentSystem]] = {
    "disqus": (
        """<div id="disqus_thread"></div><script>
        var disqus_config = function () { this.page.url = "https://blog.example.org/2024/05/shooting-board/";
        this.page.identifier = "post-42"; };
        (function() { var d = document, s = d.createElement('script');
        s.src = 'https://woodshop.disqus.com/embed.js'; s.setAttribute('data-timestamp', +new Date());
        (d.head || d.body).appendChild(s); })();</script>
        <script id="dsq-count-scr" src="//woodshop.disqus.com/count.js" async></script>""",
        CommentSystem("disqus", "https://disqus.com", "post-42", "woodshop"),
    ),
    "giscus": (
        """<script src="https://giscus.app/client.js" data-repo="ann/blog" data-repo-id="R_kgDO"
        data-category="Comments" data-category-id="DIC_kw" data-mapping="pathname" data-strict="0"
        data-reactions-enabled="1"
        data-theme="preferred_color_scheme" crossorigin="anonymous" async></script>""",
        CommentSystem("giscus", "https://giscus.app", "/2024/05/shooting-board/", "ann/blog"),
    ),
    "utterances": (
        """<script src="https://utteranc.es/client.js" repo="ann/blog" issue-term="pathname" theme="github-light"
        crossorigin="anonymous" async></script>""",
        CommentSystem("utterances", "https://utteranc.es", "/2024/05/shooting-board/", "ann/blog"),
    ),
    "isso": (
        """<script data-isso="//comments.example.org/" src="//comments.example.org/js/embed.min.js"></script>
        <section id="isso-thread"><noscript>Javascript needs to be activated to view comments.</noscript></section>""",
        CommentSystem("isso", "https://comments.example.org", "/2024/05/shooting-board/"),
    ),
    "remark42": (
        """<div id="remark42"></div><script>
        var remark_config = { host: 'https://remark42.example.org', site_id: 'woodshop', components: ['embed'] };
        </script><script>!function(e,n){for(var o=0;o<e.length;o++){var r=n.createElement("script"),c=".js",
        d=n.head||n.body;
        "noModule"in r?(r.type="module",c=".mjs"):r.async=!0,r.defer=!0,r.src=remark_config.host+"/web/"+e[o]+c,
        d.appendChild(r)}}(remark_config.components||["embed"],document);</script>""",
        CommentSystem("remark42", "https://remark42.example.org", URL, "woodshop"),
    ),
    "commento": (
        """<script defer src="https://cdn.commento.io/js/commento.js"></script><div id="commento"></div>""",
        CommentSystem("commento", "https://cdn.commento.io", "/2024/05/shooting-board/"),
    ),
    "cusdis": (
        """<div id="cusdis_thread" data-host="https://cusdis.com" data-app-id="a1b2" data-page-id="42"
        data-page-url="https://blog.example.org/2024/05/shooting-board/" data-page-title="Shooting board"></div>
        <script async defer src="https://cusdis.com/js/cusdis.es.js"></script>""",
        CommentSystem("cusdis", "https://cusdis.com", "42", "a1b2"),
    ),
    "hyvor-talk": (
        """<script async src="https://talk.hyvor.com/embed/embed.js" type="module"></script>
        <hyvor-talk-comments website-id="1234" page-id="shooting-board"></hyvor-talk-comments>""",
        CommentSystem("hyvor-talk", "https://talk.hyvor.com", "shooting-board", "1234"),
    ),
    "facebook": (
        """<div id="fb-root"></div><script async defer crossorigin="anonymous"
        src="https://connect.facebook.net/en_US/sdk.js#xfbml=1&version=v19.0"></script>
        <div class="fb-comments" data-href="https://blog.example.org/2024/05/shooting-board/" data-width=""
        data-numposts="5"></div>""",
        CommentSystem("facebook", "https://www.facebook.com", URL),
    ),
    "jetpack": (
        """<div id="respond" class="comment-respond"><iframe src="https://jetpack.wordpress.com/jetpack-comment/?blogid=123&amp;postid=42&amp;comment_registration=0"
        title="Comment Form" style="width:100%" class="jetpack_remote_comment" id="jetpack_remote_comment"
        sandbox="allow-same-origin allow-top-navigation allow-scripts allow-forms allow-popups"></iframe></div>""",
        CommentSystem("jetpack", "https://jetpack.wordpress.com", "42", "123"),
    ),
    "ghost": (
        """<script defer src="https://cdn.jsdelivr.net/ghost/comments-ui@~0.17/umd/comments-ui.min.js"
        data-ghost-comments="https://blog.example.org/" data-api="https://blog.example.org/ghost/api/content/"
        data-admin="https://blog.example.org/ghost/" data-key="abc" data-title="" data-count="true"
        data-post-id="6630b1c2" data-color-scheme="auto" crossorigin="anonymous"></script>""",
        CommentSystem("ghost", "https://blog.example.org", "6630b1c2"),
    ),
    "substack": (
        """<script src="https://substackcdn.com/bundle/static/js/main.js"></script>
        <script>window._preloads = JSON.parse("{}"); window._analyticsConfig = {"post_id":140123};</script>
        <div class="comments-section"><a href="/p/shooting-board/comments">Comments</a></div>""",
        CommentSystem("substack", "https://blog.example.org", "140123"),
    ),
    "blogger": (
        """<div class='comments threaded' id='comments'><h4>2 comments:</h4><div class='comments-content'>
        <div id='comment-holder'><div class="comment-thread"><ol><li class="comment" id="c1">
        <div class="comment-block"><cite class="user">Ann</cite><p class="comment-content">Nice jig.</p></div></li></ol>
        </div></div></div><a href='https://www.blogger.com/comment-iframe.g?blogID=9876&amp;postID=5432'
        id='comment-editor-src'></a><script>BLOG_CMT_createIframe('https://www.blogger.com/rpc_relay.html');</script>
        </div>""",
        CommentSystem("blogger", "https://blog.example.org", "5432", "9876"),
    ),
}


def test_every_family_has_a_snippet() -> None:
    assert sorted(SNIPPETS) == sorted(FAMILIES)


@pytest.mark.parametrize("family", sorted(SNIPPETS))
def test_documented_embed_is_detected(family: str) -> None:
    snippet, expected = SNIPPETS[family]
    assert detect_comment_system(page(snippet), URL) == expected


def test_isso_server_defaults_to_the_script_location_and_takes_data_isso_id() -> None:
    snippet = (
        '<script src="/isso/js/embed.min.js"></script><section id="isso-thread" data-isso-id="thread-7"></section>'
    )
    found = detect_comment_system(page(snippet), URL)
    assert found == CommentSystem("isso", "https://blog.example.org/isso", "thread-7")
    assert found.loads_by_script


def test_self_hosted_commento_server_is_the_script_origin() -> None:
    snippet = (
        '<div id="commento" data-page-id="/p/42"></div><script src="https://talk.example.net/js/commento.js"></script>'
    )
    assert detect_comment_system(page(snippet), URL) == CommentSystem("commento", "https://talk.example.net", "/p/42")


def test_empty_container_filled_by_an_unknown_script() -> None:
    snippet = (
        '<div id="talkyard-comments"></div><script src="https://cdn.example.net/widget.js"></script>'
        "<script>Widget.mount(document.getElementById('talkyard-comments'), {server: 'https://t.example.net'});</script>"
    )
    found = detect_comment_system(page(snippet), URL)
    assert found.name == UNKNOWN and found.loads_by_script


def test_comment_iframe_from_elsewhere_is_unknown_script() -> None:
    snippet = '<iframe src="https://widgets.example.net/comments/embed?page=42" title="Comments"></iframe>'
    found = detect_comment_system(page(snippet), URL)
    assert found == CommentSystem(UNKNOWN, "https://widgets.example.net", "/2024/05/shooting-board/")


def test_comments_in_the_html_are_html() -> None:
    snippet = (
        '<div id="comments" class="comments-area"><h2>2 thoughts</h2><ol class="comment-list">'
        '<li class="comment"><p>Nice jig, thanks.</p></li><li class="comment"><p>Mine uses oak.</p></li></ol>'
        '<div id="respond" class="comment-respond"><form id="commentform"><textarea name="comment"></textarea>'
        "</form></div></div><script src='/wp-includes/js/comment-reply.min.js'></script>"
    )
    found = detect_comment_system(page(snippet), URL)
    assert found == CommentSystem(HTML) and not found.loads_by_script


def test_page_without_comments_or_with_only_a_form_is_html() -> None:
    assert detect_comment_system(page(""), URL) == CommentSystem(HTML)
    form = '<div id="respond" class="comment-respond"><form><textarea></textarea></form></div>'
    form += '<script src="/a.js"></script>'
    assert detect_comment_system(page(form), URL) == CommentSystem(HTML)


@pytest.mark.parametrize("junk", [b"", b"\x00\xff\xfe", "<<<>>>", b"<html><body>" + b"<div>" * 3000])
def test_junk_never_raises(junk: bytes | str) -> None:
    assert detect_comment_system(junk, URL).name == HTML


def test_families_with_comments_in_the_html() -> None:
    assert {HTML, "jetpack", "blogger"} == IN_HTML


def test_corpus_pages_with_html_comments_stay_html(corpus_root: Path) -> None:
    """Pages whose comments are in the HTML are left to the extractor: no corpus page loads by script."""
    pages = sorted((corpus_root / "wordpress").glob("*/pages/*.html"))[:400]
    assert len(pages) >= 40
    found = {p.name: detect_comment_system(p.read_bytes(), "https://corpus.example/" + p.name) for p in pages}
    assert [name for name, system in found.items() if system.loads_by_script] == []


def isso_rendered(comments: list[tuple[str, str, str, list[tuple[str, str, str]]]]) -> bytes:
    """A page as Isso's embed.js leaves the DOM: the reply form, then each comment with its replies."""

    def one(cid: int, author: str, when: str, text: str, replies: str = "") -> str:
        return (
            f'<div class="isso-comment" id="isso-{cid}"><div class="isso-avatar"></div><div class="isso-text-wrapper">'
            f'<div class="isso-comment-header" role="meta"><span class="isso-author">{author}</span>'
            f'<span class="isso-spacer">•</span><a class="isso-permalink" href="#isso-{cid}">'
            f'<time datetime="{when}" title="{when}">right now</time></a></div>'
            f'<div class="isso-text"><p>{text}</p></div><div class="isso-comment-footer">0 | Reply</div></div>'
            f'<div class="isso-follow-up">{replies}</div></div>'
        )

    thread, cid = "", 0
    for author, when, text, replies in comments:
        cid += 1
        top = cid
        below = ""
        for r_author, r_when, r_text in replies:
            cid += 1
            below += one(cid, r_author, r_when, r_text)
        thread += one(top, author, when, text, below)
    form = (
        '<div class="isso-postbox"><div class="isso-form-wrapper"><textarea placeholder="Type Comment Here">'
        '</textarea><p class="isso-input-wrapper"><label>Name (optional)</label><input type="text"></p>'
        '<p class="isso-post-action"><input type="submit" value="Submit"></p></div></div>'
    )
    return page(
        f'<section id="isso-thread"><h4 class="isso-thread-heading">3 Comments</h4>{form}'
        f'<div id="isso-root">{thread}</div></section>'
    ).encode()


def test_rendered_thread_becomes_records_with_authors_dates_and_parents() -> None:
    html = isso_rendered(
        [
            ("Ann", "2026-11-27T10:00:00Z", "Nice jig, what angle?", [("Bob", "2026-11-27T10:05:00Z", "Ninety.")]),
            ("Cy", "2026-11-27T11:00:00Z", "I glued sandpaper under mine.", []),
        ]
    )
    records = rendered_comments(html, URL, "isso-thread")
    assert [(r.author, r.text, r.date, r.parent) for r in records] == [
        ("Ann", "Nice jig, what angle?", "2026-11-27T10:00:00Z", None),
        ("Bob", "Ninety.", "2026-11-27T10:05:00Z", 0),
        ("Cy", "I glued sandpaper under mine.", "2026-11-27T11:00:00Z", None),
    ]


def test_rendered_thread_without_comments_has_none() -> None:
    assert rendered_comments(isso_rendered([]), URL, "isso-thread") == []
    assert rendered_comments(page("<p>no thread here</p>").encode(), URL, "isso-thread") == []
