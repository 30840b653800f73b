"""A small test blog (four posts, two with a comment) shared by the extractor tests."""

from __future__ import annotations

POSTS = [
    ("Tomatoes in pots", "Cherry tomatoes grow well in deep pots.", "Water them every morning in July."),
    ("Winter beans", "Broad beans survive a mild winter outside.", "Sow them in late October or November."),
    ("Herb spiral", "A herb spiral packs many plants into one bed.", "Thyme and sage go on the dry top."),
    ("Rain barrels", "Two barrels collect the rain from the shed roof.", "A cheap pump empties them into cans."),
]
COMMENTS = [["Mine split after rain, any advice?"], [], ["Where do the mint plants go?"], []]


def blog_page(n, post, comments=()):
    title, p1, p2 = post
    comment_html = "".join(
        f'<div class="comment"><p>Reader {n}-{i}</p><p>{text}</p></div>' for i, text in enumerate(comments)
    )
    return f"""<html><head><title>{title}</title></head><body>
<div id="header"><h1>Gardening Notes</h1><p>A blog about small gardens</p></div>
<ul id="nav"><li><a href="/">Home</a></li><li><a href="/about">About</a></li></ul>
<div id="main"><div id="post"><h2>{title}</h2><p>{p1}</p><p>{p2}</p></div>
<div id="comments"><h3>Comments</h3>{comment_html}</div></div>
<div id="footer"><p>Copyright Gardening Notes</p></div>
</body></html>""".encode()
