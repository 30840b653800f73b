"""Where a page's readers' comments live: in the served HTML, or in a comment system a script loads.

    >>> page = b'<div id="isso-thread"></div><script data-isso="//c.example.org/" src="//c.example.org/js/embed.js">'
    >>> detect_comment_system(page + b"</script>", "https://blog.example.org/2024/05/a/")
    CommentSystem(name='isso', server='https://c.example.org', thread='/2024/05/a/', site_id=None)

Pure (lxml and regular expressions, no network): it reads the markup the families document for
their embeds (script URLs, init calls, container ids and classes, iframes) and returns what a
connector needs to ask the comment system itself for the thread (server URL, thread id or path,
shortname or site id). A page without any of them is `html` (its comments, if any, are in the
markup); an empty comment container next to a script that fills it is `unknown-script`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import parse_qs, urljoin, urlsplit

from lxml import etree

HTML = "html"
UNKNOWN = "unknown-script"
# Families whose comments are in the served HTML although a script is involved (Jetpack swaps only the
# comment form for an iframe; Blogger renders the thread, its widget only adds "load more" past 200).
IN_HTML = frozenset({HTML, "jetpack", "blogger"})
FAMILIES = (
    "disqus",
    "giscus",
    "utterances",
    "isso",
    "remark42",
    "commento",
    "cusdis",
    "hyvor-talk",
    "facebook",
    "jetpack",
    "ghost",
    "substack",
    "blogger",
)
# An id or class naming a comment area (the generic case: such a container left empty for a script).
_COMMENT_CONTAINER = re.compile(r"comment|discussion|respon[sd]", re.I)
# Names of parts of a comment area that are no thread: an empty one says nothing.
_NOT_A_THREAD = re.compile(r"pagination|nav|header|count|form|respond|reply|link|button|title|meta|closed", re.I)
# A comment shown in the markup: the page's comments are in its HTML.
_COMMENT_ITEM_CLASS = re.compile(
    r"(^|[\s_-])(comment-(body|content|text|author|meta)|commentlist|comment-list|dsq-comment)(\s|$)", re.I
)
_CONTAINER_TAGS = frozenset({"div", "section", "aside", "ul", "ol"})
# Elements whose id or class may name a comment area (_COMMENT_CONTAINER decides), found in C.
_NAMED_FOR_COMMENTS = (
    "//*["
    + " or ".join(
        f"contains(translate(@{attr}, 'CDR', 'cdr'), '{word}')"
        for attr in ("id", "class")
        for word in ("comment", "discussion", "respon")
    )
    + "]"
)
_COMMENT_ITEM_ID = re.compile(r"^(comment|li-comment|div-comment)-[0-9]+$")
_JS_STRING = r"""\s*[:=]\s*["']([^"']+)["']"""


@dataclass(frozen=True, slots=True)
class CommentSystem:
    """The comment system of a page: `name` is `html`, a family of FAMILIES, or `unknown-script`.

    `server`: base URL of the comment server (no trailing slash); `thread`: the id or path the
    server keys the page's thread by; `site_id`: shortname, site or app id, or repository;
    `container`: id of the element the script fills (None: no element known), or the tag name of a web
    component without an id (the renderer gives it that id).
    """

    name: str
    server: str | None = None
    thread: str | None = None
    site_id: str | None = None
    # id of the element the script fills with the thread, where the page has one (pipelines.render)
    container: str | None = field(default=None, compare=False, repr=False)

    @property
    def loads_by_script(self) -> bool:
        """True when the served HTML does not hold the comments: they must be read elsewhere."""
        return self.name not in IN_HTML


@dataclass(slots=True)
class _Markup:
    """What detection looks at, gathered in one walk of the tree."""

    url: str
    text: str  # the raw markup, for init calls
    scripts: list[etree._Element]
    iframes: list[etree._Element]
    by_id: dict[str, etree._Element]
    tree: etree._Element | None

    def script_src(self, pattern: str) -> etree._Element | None:
        regex = re.compile(pattern, re.I)
        return next((s for s in self.scripts if regex.search(s.get("src") or "")), None)

    def first(self, xpath: str) -> etree._Element | None:
        if self.tree is None:
            return None
        found = self.tree.xpath(xpath)
        return found[0] if isinstance(found, list) and found and isinstance(found[0], etree._Element) else None

    def js(self, name: str) -> str | None:
        """A string assigned to `name` in an inline script (`name: "x"`, `name = 'x'`)."""
        match = re.search(re.escape(name) + _JS_STRING, self.text)
        return match.group(1) if match else None

    def path(self) -> str:
        return urlsplit(self.url).path or "/"


def _absolute(base: str, value: str | None) -> str | None:
    """`value` as an absolute URL without a trailing slash (protocol-relative takes the page's scheme)."""
    if not value:
        return None
    return urljoin(base, value.strip()).rstrip("/")


def _origin(url: str | None) -> str | None:
    if not url:
        return None
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.netloc else None


def _disqus(m: _Markup) -> CommentSystem | None:
    script = m.script_src(r"\.disqus\.com/(embed|count)\.js")
    holder = m.by_id.get("disqus_thread")
    if script is None and holder is None and "disqus_shortname" not in m.text:
        return None
    shortname = m.js("disqus_shortname")
    if script is not None and not shortname:
        shortname = urlsplit(urljoin(m.url, script.get("src") or "")).hostname.split(".")[0]  # type: ignore[union-attr]
    if holder is not None and not _is_empty(holder):
        return CommentSystem(HTML)  # the plugin rendered the thread into the page (its SEO fallback)
    identifier = m.js("this.page.identifier") or m.js("disqus_identifier")
    thread = identifier or m.js("this.page.url") or m.url
    return CommentSystem("disqus", "https://disqus.com", thread, shortname, container="disqus_thread")


def _giscus(m: _Markup) -> CommentSystem | None:
    if "giscus" not in m.text and "data-repo-id" not in m.text:
        return None
    # giscus.app's client, or a self-hosted one (its script carries data-repo-id)
    script = m.script_src(r"giscus\.app/client\.js")
    if script is None:
        script = next((s for s in m.scripts if s.get("data-repo-id")), None)
    if script is None:
        script = m.first("//giscus-widget")
    if script is None:
        return None
    mapping = script.get("data-mapping") or script.get("mapping") or "pathname"
    term = script.get("data-term") or script.get("term") or (m.path() if mapping == "pathname" else m.url)
    server = _origin(urljoin(m.url, script.get("src") or "https://giscus.app"))
    return CommentSystem("giscus", server, term, script.get("data-repo") or script.get("repo"))


def _utterances(m: _Markup) -> CommentSystem | None:
    script = m.script_src(r"utteranc\.es/client\.js")
    if script is None:
        return None
    term = script.get("issue-number") or script.get("issue-term") or "pathname"
    thread = m.path() if term == "pathname" else m.url if term == "url" else term
    return CommentSystem("utterances", "https://utteranc.es", thread, script.get("repo"))


def _isso(m: _Markup) -> CommentSystem | None:
    script = next((s for s in m.scripts if s.get("data-isso") is not None), None)
    script = script if script is not None else m.script_src(r"/js/embed(\.min|\.dev)?\.js")
    holder = m.by_id.get("isso-thread")
    if script is None or (holder is None and script.get("data-isso") is None):
        return None
    server = script.get("data-isso")
    if not server:  # documented default: the script's own location, less /js/embed.min.js
        server = re.sub(r"/js/embed(\.min|\.dev)?\.js.*$", "", script.get("src") or "")
    thread = (holder.get("data-isso-id") if holder is not None else None) or m.path()
    return CommentSystem("isso", _absolute(m.url, server or "/"), thread, container="isso-thread")


def _remark42(m: _Markup) -> CommentSystem | None:
    if "remark_config" not in m.text and m.by_id.get("remark42") is None:
        return None
    host = m.js("host")
    script = m.script_src(r"/web/embed\.js")
    if not host and script is not None:
        host = _origin(urljoin(m.url, script.get("src") or ""))
    site_id = m.js("site_id") or "remark"
    return CommentSystem("remark42", _absolute(m.url, host), m.js("url") or m.url, site_id, container="remark42")


def _commento(m: _Markup) -> CommentSystem | None:
    script = m.script_src(r"/js/commento\.js")
    if script is None:
        return None
    holder = m.by_id.get("commento")
    page_id = script.get("data-page-id") or (holder.get("data-page-id") if holder is not None else None)
    server = _origin(urljoin(m.url, script.get("src") or ""))
    return CommentSystem("commento", server, page_id or m.path(), container="commento")


def _cusdis(m: _Markup) -> CommentSystem | None:
    holder = m.by_id.get("cusdis_thread")
    if holder is None:
        return None
    host = holder.get("data-host") or "https://cusdis.com"
    page = holder.get("data-page-id") or m.path()
    return CommentSystem("cusdis", _absolute(m.url, host), page, holder.get("data-app-id"), container="cusdis_thread")


def _hyvor(m: _Markup) -> CommentSystem | None:
    if "hyvor" not in m.text:
        return None
    element = m.first("//hyvor-talk-comments")
    if element is not None:  # a web component without an id: the renderer names it by its tag
        page = element.get("page-id") or m.url
        container = element.get("id") or "hyvor-talk-comments"
        return CommentSystem("hyvor-talk", "https://talk.hyvor.com", page, element.get("website-id"), container)
    if m.script_src(r"talk\.hyvor\.com/") is None and m.by_id.get("hyvor-talk-view") is None:
        return None
    website = re.search(r"HYVOR_TALK_WEBSITE\s*=\s*['\"]?(\w+)", m.text)
    site_id = website.group(1) if website else None
    return CommentSystem("hyvor-talk", "https://talk.hyvor.com", m.url, site_id, container="hyvor-talk-view")


def _facebook(m: _Markup) -> CommentSystem | None:
    if "fb-comments" not in m.text:  # (each detector first asks the raw text: most pages have none)
        return None
    element = m.first("//*[contains(concat(' ', normalize-space(@class), ' '), ' fb-comments ')]")
    if element is None:
        return None
    return CommentSystem("facebook", "https://www.facebook.com", element.get("data-href") or m.url)


def _jetpack(m: _Markup) -> CommentSystem | None:
    if "jetpack" not in m.text:
        return None
    frame = next((f for f in m.iframes if "jetpack.wordpress.com/jetpack-comment" in (f.get("src") or "")), None)
    if frame is None and m.first("//*[@id='jetpack_remote_comment' or @class='jetpack_remote_comment']") is None:
        return None
    query = parse_qs(urlsplit(frame.get("src") or "").query) if frame is not None else {}
    blog, post = query.get("blogid", [None])[0], query.get("postid", [None])[0]
    return CommentSystem("jetpack", "https://jetpack.wordpress.com", post, blog)


def _ghost(m: _Markup) -> CommentSystem | None:
    if "data-ghost" not in m.text and "comments-ui" not in m.text:
        return None
    script = next((s for s in m.scripts if s.get("data-ghost-comments") is not None), None)
    if script is None:
        script = m.script_src(r"ghost/comments-ui")
    if script is None:
        return None
    server = script.get("data-ghost-comments") or script.get("data-ghost") or _origin(m.url)
    return CommentSystem("ghost", _absolute(m.url, server), script.get("data-post-id"))


def _substack(m: _Markup) -> CommentSystem | None:
    if m.script_src(r"substackcdn\.com/") is None and "substackcdn.com" not in m.text:
        return None
    section = m.first("//*[contains(@class, 'comments-page') or contains(@class, 'comments-section')]")
    if section is None and not re.search(r'"comment_count"|/comments["\']', m.text):
        return None
    post_id = re.search(r'"post_id"\s*:\s*(\d+)', m.text) or re.search(r'"post"\s*:\s*\{\s*"id"\s*:\s*(\d+)', m.text)
    return CommentSystem("substack", _origin(m.url), post_id.group(1) if post_id else m.path())


def _blogger(m: _Markup) -> CommentSystem | None:
    frame_src = next(
        (f.get("src") or "" for f in m.iframes if "blogger.com/comment" in (f.get("src") or "")), ""
    ) or next((s.get("src") or "" for s in m.scripts if "blogger.com/comment" in (s.get("src") or "")), "")
    threaded = "initThreadedComments" in m.text or "BLOG_CMT_createIframe" in m.text
    if not threaded and not frame_src and m.by_id.get("comment-holder") is None:
        return None
    ids = re.search(r"blogID=(\d+)&(?:amp;)?postID=(\d+)", frame_src or m.text, re.I)
    blog = ids.group(1) if ids else (re.search(r"['\"]blogId['\"]\s*:\s*['\"](\d+)", m.text) or [None, None])[1]
    post = ids.group(2) if ids else (re.search(r"['\"]postId['\"]\s*:\s*['\"](\d+)", m.text) or [None, None])[1]
    return CommentSystem("blogger", _origin(m.url), post, blog)


_DETECTORS: tuple[Callable[[_Markup], CommentSystem | None], ...] = (
    _disqus,
    _giscus,
    _utterances,
    _isso,
    _remark42,
    _commento,
    _cusdis,
    _hyvor,
    _facebook,
    _ghost,
    _substack,
    _blogger,
    _jetpack,  # last: a Jetpack form beside another system's thread is that system's page
)


def _is_empty(element: etree._Element) -> bool:
    """No readable text (headings and buttons aside) and no comment-like child with text."""
    text = "".join(str(t) for t in element.itertext())
    for heading in element.iter("h1", "h2", "h3", "h4", "button", "noscript"):
        text = text.replace("".join(str(t) for t in heading.itertext()), "", 1)
    return not text.strip()


def _shows_comments(tree: etree._Element) -> bool:
    """Whether some element is marked as a comment (class or id), as comment markup in HTML is."""
    candidates = tree.xpath("//*[contains(@class, 'omment') or contains(@id, 'comment-')]")
    for element in candidates if isinstance(candidates, list) else []:
        if not isinstance(element, etree._Element):
            continue
        classes, own_id = element.get("class"), element.get("id")
        if (classes and _COMMENT_ITEM_CLASS.search(classes)) or (own_id and _COMMENT_ITEM_ID.match(own_id)):
            return True
    return False


def _unknown_script(m: _Markup) -> CommentSystem | None:
    """An empty element named for a comment thread that a script fills (one the page's inline scripts
    name, or one beside a script whose URL says comments), on a page showing no comment in its markup;
    also an iframe whose URL says comments."""
    frame = next((f for f in m.iframes if _COMMENT_CONTAINER.search(f.get("src") or "")), None)
    if frame is not None:
        return CommentSystem(UNKNOWN, _origin(urljoin(m.url, frame.get("src") or "")), m.path())
    if m.tree is None or _shows_comments(m.tree):
        return None
    inline = " ".join(s.text or "" for s in m.scripts)
    # WordPress's comment-reply.js only moves the reply form: it loads no comment
    loaders = [
        src for src in (s.get("src") or "" for s in m.scripts) if _COMMENT_CONTAINER.search(src) and "reply" not in src
    ]
    if loaders:
        found = m.tree.xpath(_NAMED_FOR_COMMENTS)
        named = [el for el in (found if isinstance(found, list) else []) if isinstance(el, etree._Element)]
    else:  # only an element the inline scripts name by its id can be the container
        named = [el for key, el in m.by_id.items() if _COMMENT_CONTAINER.search(key) and key in inline]
    for element in named:
        if not isinstance(element, etree._Element) or element.tag not in _CONTAINER_TAGS:
            continue
        names = f"{element.get('id') or ''} {element.get('class') or ''}"
        if not _COMMENT_CONTAINER.search(names) or _NOT_A_THREAD.search(names) or not _is_empty(element):
            continue
        if any(child.tag in ("form", "textarea", "input") for child in element.iter()):
            continue  # an empty reply form is not an empty thread
        own_id = element.get("id")
        if own_id and re.search(rf"""['"#]{re.escape(own_id)}['"]""", inline):
            return CommentSystem(UNKNOWN, None, m.path(), container=own_id)
        if loaders:
            return CommentSystem(UNKNOWN, _origin(urljoin(m.url, loaders[0])), m.path(), container=own_id)
    return None


def _markup(html: bytes | str, url: str) -> _Markup:
    text = html.decode("utf-8", "replace") if isinstance(html, bytes) else html
    data = html if isinstance(html, bytes) else html.encode("utf-8")
    try:  # lxml.etree's parser, not lxml.html's: no per-element class lookup (detection runs on every page)
        tree = etree.fromstring(data, etree.HTMLParser()) if text.strip() else None
    except (etree.ParserError, ValueError):
        tree = None
    if tree is None:
        return _Markup(url, text, [], [], {}, None)
    with_id = tree.xpath("//*[@id]")
    by_id = {
        str(el.get("id")): el for el in (with_id if isinstance(with_id, list) else []) if isinstance(el, etree._Element)
    }
    return _Markup(url, text, list(tree.iter("script")), list(tree.iter("iframe")), by_id, tree)


def detect_comment_system(html: bytes | str, url: str) -> CommentSystem:
    """The comment system of a page fetched from `url` (see the module docstring); never raises."""
    m = _markup(html, url)
    for detector in _DETECTORS:
        found = detector(m)
        if found is not None:
            return found
    return _unknown_script(m) or CommentSystem(HTML)
