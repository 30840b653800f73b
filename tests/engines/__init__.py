"""Synthetic blogs of engines other than WordPress, in the markup of each engine's default templates.

Each site is a small blog (posts, comments, sidebar, menus, comment form) rendered the way the engine renders
it, in the corpus format of ``../shared/corpus/README.md``::

    ROOT/<engine source>/<engine>/site.json, truth.jsonl, pages/<post id>.html

The blogs come from the themes' generator (``tests.themes.model``: same posts, threaded comments, authors, dates
and word lists, same seeds); each engine reshapes them the way it stores them (Blogger nests replies one level
deep, Movable Type lists them flat with a "replied to" line, Typepad, Hatena and classic Blogger are flat, Drupal
nests at any depth and gives every comment a subject, a static Hugo blog has its comments at Disqus).  Truth and
HTML come from the same data (text unescaped in truth, escaped in the page).  Engines (source folder):
``blogger-threaded`` and ``blogger-classic`` (blogger), ``movabletype``, ``hatena-ja`` (hatena, Japanese),
``drupal``, ``typepad``, ``static-disqus`` (static).

Modules: ``base`` (site settings, building and reshaping a blog, shared markup helpers), ``blogger_chrome`` and
``pages_blogger``, ``pages_mt``, ``pages_typepad``, ``pages_hatena``, ``pages_drupal``, ``pages_static`` (the
engines' pages), ``write`` (the corpus files).  Command line: ``scripts/make_engine_corpus.py``.
"""

from __future__ import annotations

from .write import ENGINES, build_corpus

__all__ = ["ENGINES", "build_corpus"]
