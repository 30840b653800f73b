"""Synthetic WordPress blogs in the comment markup of themes that are not in the dev corpus.

Each site is a small blog (posts, threaded comments, sidebar, menus, comment form) rendered the way the
theme renders it, in the corpus format of ``../shared/corpus/README.md``::

    ROOT/wordpress/<theme>/site.json, truth.jsonl, pages/<post id>.html

Truth and HTML come from the same data (text unescaped in truth, escaped in the page the way wptexturize /
esc_html print it), so the pages test how the extractor generalises to other comment markup.  Themes:
twentytwenty, twentynineteen, twentyseventeen (core html5 comments and a Recent Comments widget),
classic-xhtml (Kubrick-era XHTML comments), astra-like, lightning-ja (Japanese, Lightning-like), generatepress,
oceanwp, kadence (their comment callbacks / core walker), twentytwentyfour (block theme, core/comments blocks),
swell-ja (Japanese, SWELL), and the default themes twentyten, twentyeleven, twentytwelve (their comment callbacks),
twentythirteen, twentyfifteen (core html5 walker) and twentytwentythree (block theme); and (``extra``) neve,
blocksy, divi-like, storefront, hello-elementor, sango-ja, jin-ja and affinger-ja (Japanese: SANGO, JIN,
AFFINGER).

Modules: ``words`` (word lists), ``model`` (data and generator), ``comments`` and ``markup`` (shared
markup), ``pages_twenty``, ``pages_other``, ``pages_more``, ``pages_oceanwp``, ``pages_tt4_swell``,
``pages_classic_defaults``, ``pages_html5_defaults`` and ``pages_block_defaults`` (the themes' pages),
``sites_defaults`` (the default-theme blogs' settings), ``pages_more2``, ``pages_more3``, ``pages_ja2``,
``pages_ja3`` and ``extra`` (the eight further themes and their settings), ``localize`` (other languages'
dates and labels, relative dates), ``write`` (the corpus files).
Command line: ``scripts/make_theme_corpus.py``.
"""

from __future__ import annotations

from .write import THEMES, build_corpus

__all__ = ["THEMES", "build_corpus"]
