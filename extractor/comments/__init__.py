"""The comment wing: comment records and their units, replies and authors, the evidence that a
block is a comment, the comment-feed fallback, page shapes, post metadata, comment feeds and systems.
Imports core and speedups, never the method (separation)."""
