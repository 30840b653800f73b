# The compiled Block (blocks.Block), shared by the compiled modules.

cdef class Block:
    cdef public object index
    cdef public str tag
    cdef public object parent
    cdef public object prev_sibling
    cdef public object element_id
    cdef public object element_class
    cdef public str xpath
    cdef public str text
    cdef public object text_chars
    cdef public object link_chars
    # tag counts: a dict, or (from the compiled walk) None while ``tag_pairs`` holds them, read
    # into a dict when ``tags`` is first asked for (only the pure-Python features path asks)
    cdef dict _tags
    cdef readonly bytes tag_pairs
    cdef public dict lines
    cdef public dict attrs
    cdef public tuple datetimes
    cdef public object element_label


cdef int fill_block(
    Block block, object index, str tag, object parent, object prev, object id_, object class_, str xpath, str text,
    object text_chars, object link_chars, dict tags, dict lines, dict attrs, tuple datetimes,
) except -1


# Tag names numbered process-wide (tag_pairs holds (number, count) pairs as C unsigned ints), up to
# MAX_TAG_NAMES names: a page of made-up names beyond that keeps tag-count dicts instead.
cdef Py_ssize_t tag_number(str name) except -2
cdef str tag_name(Py_ssize_t number)
