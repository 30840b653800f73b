"""Comment markup shared by the themes: avatars, author links, reply links, the comment walker, the comment form.

They print what WordPress core prints (``Walker_Comment``, ``get_comment_reply_link``, ``comment_form``); each
theme passes its own callback for the markup of a single comment to ``walk``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from .model import Comment, Post, Site, eh, slugify, tx
from .words import W

CommentFn = Callable[[Comment, int, str], str]
"""``one(comment, depth, classes) -> html``: the opening markup of one comment for ``walk``."""


def avatar(c: Comment, size: int, old: bool = False) -> str:
    """get_avatar() of the comment's author (a Gravatar URL; ``old``: WordPress 3.x attributes)."""
    h = hashlib.md5((slugify(c.author) or c.author).encode() + b"@example.com").hexdigest()
    src = f"http://{int(h[0], 16) % 3}.gravatar.com/avatar/{h}?s="
    if old:
        return (
            f"<img alt='' src='{src}{size}&amp;d=mm&amp;r=G' class='avatar avatar-{size} photo' height='{size}' "
            f"width='{size}' />"
        )
    return (
        f"<img alt='' src='{src}{size}&#038;d=mm&#038;r=g' srcset='{src}{size * 2}&#038;d=mm&#038;r=g 2x' "
        f"class='avatar avatar-{size} photo' height='{size}' width='{size}' loading='lazy' decoding='async'/>"
    )


def author_link(c: Comment, old: bool = False) -> str:
    """get_comment_author_link(): the name, linked to the author's site if there is one."""
    rel = "external nofollow" if old else "external nofollow ugc"
    return f"<a href='{c.url}' rel='{rel}' class='url'>{eh(c.author)}</a>" if c.url else eh(c.author)


def ctext(c: Comment) -> str:
    """comment_text(): wptexturize + wpautop."""
    return "".join(f"<p>{tx(p)}</p>\n" for p in c.paras)


def reply_link(site: Site, post: Post, c: Comment, below: str = "div-comment", text: str = "Reply") -> str:
    """get_comment_reply_link() (WordPress 6.1)."""
    href = post.url + ("&#038;" if "?" in post.url else "?") + f"replytocom={c.id}#respond"
    lab = f"{eh(c.author)} に返信" if site.ja else f"Reply to {eh(c.author)}"
    return (
        f"<a rel='nofollow' class='comment-reply-link' href='{href}' data-commentid=\"{c.id}\" "
        f'data-postid="{post.id}" data-belowelement="{below}-{c.id}" data-respondelement="respond" '
        f"data-replyto=\"{lab}\" aria-label='{lab}'>{text}</a>"
    )


def walk(
    post: Post,
    one: CommentFn,
    lvl: tuple[str, str] = ('<ol class="children">', "</ol><!-- .children -->"),
    end: str = "</li><!-- #comment-## -->",
) -> str:
    """Walker_Comment: threads in date order, comment_class() counters, nested levels.

    ``one(comment, depth, classes)`` opens a comment; ``lvl`` wraps its replies, ``end`` closes it.
    """
    kids: dict[int | None, list[Comment]] = {}
    for c in post.comments:
        kids.setdefault(c.parent, []).append(c)
    out, st = [], [0, 0]

    def rec(c: Comment, depth: int) -> None:
        cls = ["comment"] + (["byuser", f"comment-author-{post.login}", "bypostauthor"] if c.mine else [])
        cls += ["odd", "alt"] if st[0] % 2 else ["even"]
        st[0] += 1
        if depth == 1:
            cls += ["thread-odd", "thread-alt"] if st[1] % 2 else ["thread-even"]
            st[1] += 1
        out.append(one(c, depth, " ".join(cls + [f"depth-{depth}"] + (["parent"] if c.id in kids else []))))
        if c.id in kids:
            out.append(lvl[0])
            for k in kids[c.id]:
                rec(k, depth + 1)
            out.append(lvl[1])
        out.append(end)

    for c in kids.get(None, []):
        rec(c, 1)
    return "\n".join(x for x in out if x)


def form_strings(site: Site) -> list[str]:
    """comment_form()'s strings: title, cancel, notes (2), labels comment/name/email/website, cookies, submit."""
    return (
        W(
            "コメントを残す|コメントをキャンセル|メールアドレスが公開されることはありません。|"
            "※ が付いている欄は必須項目です|コメント|名前|メール|サイト|"
            "次回のコメントで使用するためブラウザーに自分の名前、メールアドレス、サイトを保存する。|コメントを送信"
        )
        if site.ja
        else W(
            "Leave a Reply|Cancel reply|Your email address will not be published.|Required fields are marked|Comment|"
            "Name|Email|Website|Save my name, email, and website in this browser for the next time I comment.|"
            "Post Comment"
        )
    )


def reply_title(site: Site, post: Post, title: str, before: str, after: str) -> str:
    """comment_form()'s reply title: ``before`` title, the hidden cancel-reply link, ``after``."""
    return (
        f'{before}{title} <small><a rel="nofollow" id="cancel-comment-reply-link" href="'
        f'{post.url.replace(site.base, "/")}#respond" style="display:none;">{form_strings(site)[1]}</a>'
        f"</small>{after}"
    )


def theme_form(
    site: Site,
    post: Post,
    head: str,
    notes: str | None = None,
    comment: str | None = None,
    fields: str | None = None,
    cls: str = "comment-form",
    submit: tuple[str, str, str, str | None] = ("form-submit", "submit", "submit", None),
) -> str:
    """comment_form() (WordPress 6.1, html5) with a theme's pieces; None keeps core's default piece.

    ``head`` is the reply title's html, ``notes`` the notes before the fields, ``comment`` the comment field,
    ``fields`` the author, email and url fields; ``submit`` is (p class, input id, input class, label).
    """
    L = form_strings(site)
    req = f'<span class="required">{"※" if site.ja else "*"}</span>'
    if notes is None:
        notes = (
            f'<p class="comment-notes"><span id="email-notes">{L[2]}</span> <span class="required-field-message">'
            f"{L[3]} {req}</span></p>"
        )
    if comment is None:
        comment = (
            f'<p class="comment-form-comment"><label for="comment">{L[4]} {req}</label> <textarea id="comment" '
            f'name="comment" cols="45" rows="8" maxlength="65525" required></textarea></p>'
        )
    if fields is None:
        fields = "".join(
            f'<p class="comment-form-{k}"><label for="{k}">{lab}{" " + req if k != "url" else ""}</label> '
            f'<input id="{k}" name="{k}" type="{ty}" value="" size="30" maxlength="{ml}"{ex} '
            f'autocomplete="{ac}"{"" if k == "url" else " required"} />' + "</p>\n"
            for k, lab, ty, ml, ex, ac in [
                ("author", L[5], "text", 245, "", "name"),
                ("email", L[6], "email", 100, ' aria-describedby="email-notes"', "email"),
                ("url", L[7], "url", 200, "", "url"),
            ]
        )
    p_cls, sub_id, sub_cls, label = submit
    return (
        f'<div id="respond" class="comment-respond">\n\t\t{head}<form action="{site.base}wp-comments-post.php" '
        f'method="post" id="commentform" class="{cls}" novalidate>{notes}{comment}{fields}'
        f'<p class="comment-form-cookies-consent"><input id="wp-comment-cookies-consent" name="wp-comment-cookies-'
        f'consent" type="checkbox" value="yes" /> <label for="wp-comment-cookies-consent">{L[8]}</label></p>\n'
        f'<p class="{p_cls}"><input name="submit" type="submit" id="{sub_id}" class="{sub_cls}" value="'
        f"{label or L[9]}\" /> <input type='hidden' name='comment_post_ID' value='{post.id}' id='comment_post_ID' />"
        f"\n<input type='hidden' name='comment_parent' id='comment_parent' value='0' />\n</p></form>\t</div>"
        f"<!-- #respond -->"
    )


def comment_form(
    site: Site, post: Post, h: str = "h3", title: str | None = "Leave a Reply", cls: str = "comment-form"
) -> str:
    """comment_form() (WordPress 6.1, html5); ``title`` None leaves out the reply title."""
    head = (
        ""
        if title is None
        else reply_title(
            site,
            post,
            form_strings(site)[0] if site.ja else title,
            f'<{h} id="reply-title" class="comment-reply-title">',
            f"</{h}>",
        )
    )
    return theme_form(site, post, head, cls=cls)


def core_one(site: Site, post: Post, size: int = 60, reply: str = "Reply") -> CommentFn:
    """Walker_Comment::html5_comment() (WordPress 6.1), with the ja strings より: / 返信 on a Japanese blog."""
    says = "より:" if site.ja else "says:"

    def one(c: Comment, depth: int, cls: str) -> str:
        return (
            f'<li id="comment-{c.id}" class="{cls}">\n<article id="div-comment-{c.id}" class="comment-body">\n<footer '
            f'class="comment-meta">\n<div class="comment-author vcard">\n{avatar(c, size)}<b class="fn">'
            f'{author_link(c)}</b> <span class="says">{says}</span></div><!-- .comment-author -->\n\n<div class="'
            f'comment-metadata">\n<a href="{post.url}#comment-{c.id}"><time datetime="{site.iso(c.date)}">'
            f"{site.stamp(c.date)}</time></a></div><!-- .comment-metadata -->\n\n</footer><!-- .comment-meta -->\n\n"
            f'<div class="comment-content">\n{ctext(c)}</div><!-- .comment-content -->\n\n<div class="reply">'
            f"{reply_link(site, post, c, text=reply)}</div></article><!-- .comment-body -->"
        )

    return one
