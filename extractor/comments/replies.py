"""Replies inside comment units: each its own unit, with the enclosing unit as its parent.

    >>> from extractor.core.blocks import parse_blocks
    >>> from extractor.comments.units import Unit
    >>> blocks = parse_blocks(
    ...     '<ol><li class="comment depth-1"><div class="body"><p>Ann</p><p>May 2, 2024</p><p>Hi</p></div>'
    ...     '<ol><li class="comment depth-2"><div class="body"><p>Bo</p><p>May 3, 2024</p><p>Yes</p></div></li>'
    ...     "</ol></li></ol>"
    ... )
    >>> top = Unit(blocks[2], None, blocks[2:], {2})  # what a "depth-1" signature finds: the reply inside
    >>> [(u.root.element_class, u.parent, [b.text for b in u.own if b.text]) for u in split_replies(blocks, [top])]
    [('comment depth-1', None, ['Ann', 'May 2, 2024', 'Hi']), ('comment depth-2', 0, ['Bo', 'May 3, 2024', 'Yes'])]

``find_units`` (units.py) takes the blocks that match the set's unit signature; a reply that does not
match it stays inside its parent's unit. ``split_replies`` cuts such replies out (records.py calls
it on every page's units).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..core.blocks import Block
from .units import DateLines, Unit, UnitSignature, class_tokens, find_units, text_counts


def units_with_replies(blocks: Sequence[Block], roles: Sequence[str], signature: UnitSignature) -> list[Unit]:
    """The comment units of one page: ``find_units``, then the replies it left inside their parents."""
    return split_replies(blocks, find_units(blocks, roles, signature))


def split_replies(blocks: Sequence[Block], units: Sequence[Unit]) -> list[Unit]:
    """Units with the replies nested in them as units of their own (parent: the enclosing unit).

    A reply is a block inside a unit of the unit root's kind (``_kin``), holding text and a date
    line as every comment does: "li.comment.depth-2" inside "li.comment.depth-1". The signature
    misses such replies when the set it was learned from had only top-level comments: its tokens
    are then the ones they all share, "depth-1" among them, and a reply stays in its parent, its
    author line read as the parent's.
    """
    if not any(_has_nested_kin(u, blocks) for u in units):
        return list(units)
    texts = text_counts(blocks)
    dated = DateLines(blocks)
    out: list[Unit] = []
    new_index: dict[int, int] = {}  # id(original unit) -> its position in ``out``
    at: dict[int, int] = {}  # id(unit in ``out``) -> its position there
    originals: list[tuple[Unit, Unit]] = []  # (new unit, the original it came from)
    for unit in units:
        kin = _kin(unit.root, blocks)
        head = Unit(unit.root, unit.parent, [], set(unit.heads), {})
        new_index[id(unit)] = at[id(head)] = len(out)
        out.append(head)
        originals.append((head, unit))
        owner: dict[int, Unit] = {}  # block index -> the unit it belongs to (its innermost reply)
        for b in unit.own:
            enclosing = owner.get(b.parent, head)
            if b is not unit.root and texts[b.index] and kin(b) and dated.holds(b.index):
                reply = Unit(b, at[id(enclosing)], [], {b.index}, {})
                at[id(reply)] = len(out)
                out.append(reply)
                enclosing = reply
            owner[b.index] = enclosing
            enclosing.own.append(b)
    # back to document order (a unit of ``units`` nested in another one comes after the replies cut
    # out before it), the parents renumbered
    order = sorted(range(len(out)), key=lambda i: out[i].root.index)
    position = {old: new for new, old in enumerate(order)}
    for new_unit, unit in originals:
        new_unit.parent = new_index[id(units[unit.parent])] if unit.parent is not None else None
    for u in out:
        if u.parent is not None:
            u.parent = position[u.parent]
    return [out[i] for i in order]


def _has_nested_kin(unit: Unit, blocks: Sequence[Block]) -> bool:
    """Whether a block of the unit, not its root, is of the root's kind (``_kin``)."""
    kin = _kin(unit.root, blocks)
    return any(b is not unit.root and kin(b) for b in unit.own)


def _kin(root: Block, blocks: Sequence[Block]) -> Callable[[Block], bool]:
    """A test for blocks of ``root``'s kind: its tag, one of its class tokens, and a first child of
    the same tag and first class token (``li.comment > article.comment-body`` for a comment and its
    reply alike). Layout boxes nest in boxes of their own class (``div.group > div.group``): a root
    that opens with a child of its kind is such a box, no comment, and has no kin."""
    tokens = class_tokens(root)
    first = _first_child_step(root, blocks)
    child = blocks[root.index + 1] if first is not None else None
    if child is not None and child.tag == root.tag and not tokens.isdisjoint(class_tokens(child)):
        first = None

    def kin(b: Block) -> bool:
        return (
            b.tag == root.tag
            and bool(tokens)
            and not tokens.isdisjoint(class_tokens(b))
            and first is not None
            and _first_child_step(b, blocks) == first
        )

    return kin


def _first_child_step(block: Block, blocks: Sequence[Block]) -> str | None:
    """Tag and first class token of the block's first child block (preorder: the next block)."""
    i = block.index + 1
    if i >= len(blocks) or blocks[i].parent != block.index:
        return None
    child = blocks[i]
    tokens = child.element_class.split() if child.element_class else None
    return f"{child.tag}.{tokens[0] if tokens else ''}"
