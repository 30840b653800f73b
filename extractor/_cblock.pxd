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
    cdef public dict tags
    cdef public dict lines
    cdef public dict attrs
    cdef public tuple datetimes


cdef int fill_block(
    Block block, object index, str tag, object parent, object prev, object id_, object class_, str xpath, str text,
    object text_chars, object link_chars, dict tags, dict lines, dict attrs, tuple datetimes,
) except -1
