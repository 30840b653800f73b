# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The compiled ``blocks.Block``: fields declared in ``_cblock.pxd``, so that the walk and the
compiled passes read and fill them as C struct members.

Fields (as the dataclass): index (preorder position in the page), tag, parent (index of the
enclosing block, -1 for the outermost), prev_sibling (previous block with the same parent, -1 if
none), element_id, element_class, xpath, text (the block's own text, one line per line, blank
lines dropped), text_chars, link_chars, tags, lines, attrs, datetimes (``<time datetime>``
values, for comment dates), element_label (aria-label, itemtype and itemprop values).
"""

cimport cython


# Untracked by the cyclic collector: a block's fields are numbers, strings and dicts of them, never
# a container that could lead back to it; a set's hundred thousand blocks would otherwise be
# walked by every collection that runs while they live, and tracked and untracked one by one.
@cython.no_gc
cdef class Block:
    """One block of one page, with its measures (``blocks.Block``, compiled: a walk creates a
    hundred thousand of them per set, and a C struct is filled without attribute lookups)."""

    def __init__(
        self, index, tag, parent, prev_sibling, element_id=None, element_class=None, xpath="", text="",
        text_chars=0, link_chars=0, tags=None, lines=None, attrs=None, datetimes=(), element_label=None,
    ):
        fill_block(
            self, index, tag, parent, prev_sibling, element_id, element_class, xpath, text, text_chars, link_chars,
            {} if tags is None else tags, {} if lines is None else lines, {} if attrs is None else attrs, datetimes,
        )
        self.element_label = element_label

    @property
    def tags(self):
        if self._tags is None:
            self._tags = {} if self.tag_pairs is None else _pairs_dict(self.tag_pairs)
        return self._tags

    @tags.setter
    def tags(self, value):
        self._tags = value
        self.tag_pairs = None

    def __reduce__(self):
        # the tag counts travel as a dict: tag numbers belong to this process
        return (
            Block,
            (
                self.index, self.tag, self.parent, self.prev_sibling, self.element_id, self.element_class,
                self.xpath, self.text, self.text_chars, self.link_chars, self.tags, self.lines, self.attrs,
                self.datetimes, self.element_label,
            ),
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
    block._tags = tags
    block.tag_pairs = None
    block.lines = lines
    block.attrs = attrs
    block.datetimes = datetimes
    return 0


cdef list _TAG_NAMES = []
cdef dict _TAG_NUMBERS = {}
cdef Py_ssize_t MAX_TAG_NAMES = 65536


cdef Py_ssize_t tag_number(str name) except -2:
    # the name's process-wide number, -1 once MAX_TAG_NAMES names are numbered
    n = _TAG_NUMBERS.get(name)
    if n is not None:
        return n
    if len(_TAG_NAMES) >= MAX_TAG_NAMES:
        return -1
    _TAG_NUMBERS[name] = len(_TAG_NAMES)
    _TAG_NAMES.append(name)
    return len(_TAG_NAMES) - 1


cdef str tag_name(Py_ssize_t number):
    return <str>_TAG_NAMES[number]


cdef dict _pairs_dict(bytes pairs):
    cdef const unsigned int* p = <const unsigned int*><const char*>pairs
    cdef Py_ssize_t i, n = len(pairs) // (2 * sizeof(unsigned int))
    cdef dict out = {}
    for i in range(n):
        out[tag_name(p[2 * i])] = <Py_ssize_t>p[2 * i + 1]
    return out
