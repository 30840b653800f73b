# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The compiled ``blocks.Block``: fields declared in ``_cblock.pxd``, so that the walk and the
compiled passes read and fill them as C struct members.

Fields (as the dataclass): index (preorder position in the page), tag, parent (index of the
enclosing block, -1 for the outermost), prev_sibling (previous block with the same parent, -1 if
none), element_id, element_class, xpath, text (the block's own text, one line per line, blank
lines dropped), text_chars, link_chars, tags, lines, attrs, datetimes (``<time datetime>``
values, for comment dates).
"""


cdef class Block:
    """One block of one page, with its measures (``blocks.Block``, compiled: a walk creates a
    hundred thousand of them per set, and a C struct is filled without attribute lookups)."""

    def __init__(
        self, index, tag, parent, prev_sibling, element_id=None, element_class=None, xpath="", text="",
        text_chars=0, link_chars=0, tags=None, lines=None, attrs=None, datetimes=(),
    ):
        fill_block(
            self, index, tag, parent, prev_sibling, element_id, element_class, xpath, text, text_chars, link_chars,
            {} if tags is None else tags, {} if lines is None else lines, {} if attrs is None else attrs, datetimes,
        )

    @property
    def link_density(self):
        return self.link_chars / self.text_chars if self.text_chars else 0.0

    @property
    def has_text(self):
        return bool(self.text)

    def __repr__(self):
        return (
            f"Block(index={self.index!r}, tag={self.tag!r}, parent={self.parent!r}, "
            f"prev_sibling={self.prev_sibling!r}, element_id={self.element_id!r}, "
            f"element_class={self.element_class!r}, xpath={self.xpath!r}, text={self.text!r})"
        )


cdef int fill_block(
    Block block, object index, str tag, object parent, object prev, object id_, object class_, str xpath, str text,
    object text_chars, object link_chars, dict tags, dict lines, dict attrs, tuple datetimes,
) except -1:
    block.index = index
    block.tag = tag
    block.parent = parent
    block.prev_sibling = prev
    block.element_id = id_
    block.element_class = class_
    block.xpath = xpath
    block.text = text
    block.text_chars = text_chars
    block.link_chars = link_chars
    block.tags = tags
    block.lines = lines
    block.attrs = attrs
    block.datetimes = datetimes
    return 0
