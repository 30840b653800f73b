"""Comments as records: split a page's comment blocks into individual comments.

    >>> from extractor import Page, extract_site
    >>> # extract_site(pages)[i].comment_records -> [CommentRecord(text, author, date, parent, ...)]

The papers stop at "these blocks are comments". Here the comment region is cut into its repeated
unit, language-independently, from structure alone:

1. **Unit signature (per set).** On each page, descend from the lowest common block ancestor of
   the comment blocks to the first level whose comment-bearing children repeat (two or more with
   the same tag); their tag and the class tokens most of them share form the unit signature. The
   set votes, so pages with a single comment use what the others showed.
2. **Units (per page).** Blocks matching the signature that hold comment blocks are comments;
   replies are units nested in units (parent = nearest enclosing unit). A dated block inside a
   unit of the unit root's kind is a reply too when the signature missed it (learned where every
   comment had depth 1, it holds "depth-1", not "depth-2"): ``replies.py``.
3. **Slots (per set).** Each block of a unit is placed by its path from the unit root (tags and
   first class token). Slots are typed over all units of the set: a *date* slot holds dates (a
   ``<time datetime>`` or a printed date); an *author* slot holds one short, varying line per unit
   before the content; constant slots ("Reply", "says:") and link-dense slots are chrome; the
   remaining comment blocks are the comment's text.
4. **Author cleanup.** Affixes shared by every author line of the set ("… says:", "… より") are cut
   at a word boundary.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..core.blocks import HEADINGS, Block
from ..core.dates import date_match, read_date, relative_match
from ..core.roles import COMMENT, POST
from .authors import cut_bylines, shared_affixes, shared_note
from .comment_words import author_line, labelled_name, signed_line
from .replies import split_replies, units_with_replies
from .units import (
    SHORT_SLOT_CHARS,
    DateLines,
    Unit,
    UnitSignature,
    date_line,
    learn_signature,
)

# A unit line whose text is mostly link text (the link-density bound) is navigation: a "Reply" link.
LINK_LINE_DENSITY = 0.5
# A constant line of this many words at most, shown under two comments alone, is chrome ("Reply",
# "Report this comment"); a longer one may be two readers' same words.
CHROME_WORDS = 3


@dataclass(slots=True)
class CommentRecord:
    """One reader comment."""

    text: str
    author: str | None = None
    date: str | None = None  # ISO 8601 when it parses (a day alone: YYYY-MM-DD)
    date_raw: str | None = None
    parent: int | None = None  # position of the comment replied to
    position: int = 0  # order on the page, from 0
    xpath: str = ""  # the unit's root element
    date_precision: str | None = None  # "day" (a date printed without a time: "2026-11-11"), "minute", "second"

    def as_json(self) -> dict[str, object]:
        return {
            "text": self.text,
            "author": self.author,
            "date": self.date,
            "date_precision": self.date_precision,
            "date_raw": self.date_raw,
            "parent": self.parent,
            "position": self.position,
        }


@dataclass(slots=True)
class SlotKinds:
    date: set[tuple[str, ...]] = field(default_factory=set)
    author: tuple[str, ...] | None = None
    chrome: set[tuple[str, ...]] = field(default_factory=set)
    text: set[tuple[str, ...]] = field(default_factory=set)  # slots holding the comments' words
    author_prefix: str = ""
    author_suffix: str = ""
    # A trailing label most (not all) names carry: Drupal's "Name (not verified)" for guests.
    author_note: str = ""
    # No author slot of its own: the name precedes the date in a date slot ("Ann August 1, 2026").
    author_before_date: bool = False


def _slot(block: Block, unit: Unit, blocks: Sequence[Block]) -> tuple[str, ...]:
    """Where a block sits in its unit: the tags (and first class) from the unit's head down.

    ``unit.slots`` holds the slots already computed: a block's slot is its parent's plus its own
    step, so a unit's blocks cost one step each, once for slot typing and record building alike.
    """
    memo, heads, root = unit.slots, unit.heads, unit.root.index
    chain: list[Block] = []
    node = block
    while True:
        i = node.index
        hit = memo.get(i)
        if hit is not None:
            base = hit
            break
        if i in heads:
            # inside the paired sibling (<dd> after <dt>) when the head is not the unit's root
            base = memo[i] = () if i == root else (_paired_step(node),)
            break
        chain.append(node)
        parent = node.parent
        if parent < 0:
            base = () if i == root else (_paired_step(node),)
            break
        node = blocks[parent]
    for step in reversed(chain):
        tokens = step.element_class.split() if step.element_class else None
        base = (*base, f"{step.tag}.{tokens[0] if tokens else ''}")
        memo[step.index] = base
    return base


def _paired_step(node: Block) -> str:
    """The slot step of a sibling paired with the unit root (two <dd>s after a <dt>: text, date)."""
    tokens = node.element_class.split() if node.element_class else None
    return f"+{node.tag}.{tokens[0]}" if tokens else f"+{node.tag}"


def learn_slots(pages_units: Sequence[tuple[Sequence[Block], Sequence[str], Sequence[Unit]]]) -> SlotKinds:
    """Type the unit slots over the whole set: date, author, chrome, and the comments' text."""
    # per slot, numbered in first-seen order (one lookup per block: the slot tuples have no cached
    # hash): its texts, its blocks' positions in their units, how many hold comment words, how
    # many are date lines, the last unit it was seen in, and whether a unit held it twice
    number: dict[tuple[str, ...], int] = {}
    slot_texts: list[list[str]] = []
    slot_pos: list[list[int]] = []
    slot_commented: list[int] = []
    slot_dated: list[int] = []
    slot_linked: list[int] = []
    last_unit: list[int] = []
    twice: list[bool] = []
    n_units = 0
    for blocks, roles, units in pages_units:
        for unit in units:
            n_units += 1
            for pos, b in enumerate(unit.own):
                if b is unit.root and not b.text:
                    continue
                slot = _slot(b, unit, blocks)
                i = number.get(slot)
                if i is None:
                    i = number[slot] = len(slot_texts)
                    slot_texts.append([])
                    slot_pos.append([])
                    slot_commented.append(0)
                    slot_dated.append(0)
                    slot_linked.append(0)
                    last_unit.append(n_units)
                    twice.append(False)
                elif last_unit[i] == n_units:
                    twice[i] = True
                else:
                    last_unit[i] = n_units
                slot_texts[i].append(b.text)
                slot_pos[i].append(pos)
                if b.text and roles[b.index] == COMMENT:
                    slot_commented[i] += 1
                if date_line(b):
                    slot_dated[i] += 1
                if b.text and b.link_density > LINK_LINE_DENSITY:
                    slot_linked[i] += 1
    texts = {slot: slot_texts[i] for slot, i in number.items()}
    first_pos = {slot: slot_pos[i] for slot, i in number.items()}
    commented = Counter({slot: slot_commented[i] for slot, i in number.items()})
    dated = Counter({slot: slot_dated[i] for slot, i in number.items() if slot_dated[i]})
    multi = {slot for slot, i in number.items() if twice[i]}
    kinds = SlotKinds()
    if not n_units:
        return kinds
    for slot, values in texts.items():
        filled = [v for v in values if v]
        if dated[slot] * 2 >= len(values) and slot not in multi:
            kinds.date.add(slot)
        elif len(filled) >= 2 and len(set(filled)) == 1 and _chrome(filled, slot_linked[number[slot]]):
            kinds.chrome.add(slot)  # the same words under every comment: "Reply", "says:"
    lengths = {s: sorted(len(v) for v in vs if v) for s, vs in texts.items()}
    content = max(
        (s for s in texts if s not in kinds.date and s not in kinds.chrome),
        key=lambda s: sum(lengths[s]),
        default=None,
    )
    if n_units == 1:
        # one comment: lengths say little ("Good read." is shorter than its author line); its
        # words come after the author line, so the last slot holding comment words is the text
        worded = [s for s in texts if commented[s] and s not in kinds.date and s not in kinds.chrome]
        content = max(worded, key=lambda s: first_pos[s][0], default=content)
    candidates = [
        s
        for s, vs in texts.items()
        if s not in kinds.date
        and s not in kinds.chrome
        and s != content
        and s not in multi
        and len(vs) * 2 >= n_units
        and lengths[s]
        and lengths[s][len(lengths[s]) // 2] <= SHORT_SLOT_CHARS
    ]
    for slot, values in texts.items():
        n_filled = sum(1 for v in values if v)
        # one comment cannot show its "Reply" link as the same under every comment: a line that is
        # all link is its chrome (navigation by link density)
        all_link = n_units == 1 and slot_linked[number[slot]] == n_filled
        has_words = n_filled > 0 and commented[slot] * 2 >= n_filled
        if slot not in kinds.date and slot not in kinds.chrome and has_words and not all_link:
            kinds.text.add(slot)

    def median_pos(slot: tuple[str, ...]) -> int:
        return sorted(first_pos[slot])[len(first_pos[slot]) // 2]

    author = min(candidates, key=median_pos) if candidates else None
    dated_values = [v for slot in kinds.date for v in texts[slot]]
    names_first = author is None or _names_in_dates_first(author, kinds.date, dated_values, texts[author], median_pos)
    if names_first and _names_before_dates(kinds, dated_values, n_units):
        return kinds
    if author is not None:
        kinds.author = author
        names = [v for v in texts[author] if v]
        _learn_labels(kinds, names)
        kinds.text.discard(author)
    return kinds


def _chrome(filled: Sequence[str], linked: int) -> bool:
    """Whether a slot showing the same line in every unit is chrome: not an author line ("Ann says:"
    when Ann wrote every comment), and, under two comments alone, a link or a few words ("Reply",
    "Report this comment"): two readers may have written the same sentence ("Great write-up!")."""
    if labelled_name(filled[0]):
        return False
    return len(filled) > 2 or linked == len(filled) or len(filled[0].split()) <= CHROME_WORDS


def _names_in_dates_first(
    author: tuple[str, ...],
    date_slots: set[tuple[str, ...]],
    dated_values: Sequence[str],
    author_values: Sequence[str],
    median_pos: Callable[[tuple[str, ...]], int],
) -> bool:
    """Whether names printed in the date line win over the short slot ``author``.

    They do when the date line comes first ("Ann\nPosted: 11/6/2012" above the text, a "Vote"
    button below), when the slot is an ancestor of the date line (its own text follows its children:
    Blogger's "Reply Delete" after the header and the text), and when they vary more than the
    slot's values (people's names against a few button labels).
    """
    if any(date[: len(author)] == author for date in date_slots):
        return True
    if any(median_pos(date) < median_pos(author) for date in date_slots):
        return True
    names = {n for n in (_before_date(v) for v in dated_values) if n}
    return len(names) > len({v for v in author_values if v})


def _names_before_dates(kinds: SlotKinds, values: Sequence[str], n_units: int) -> bool:
    """Names printed before the date in the date line, when most units have a short text there
    and it varies (a constant one is a label such as "Posted on"); True when found."""
    names = [_before_date(v) for v in values]
    names = [n for n in names if n]
    # a lone comment (one unit) cannot show its name varying
    if len(names) * 2 < n_units or len(set(names)) < min(2, n_units):
        return False
    if sorted(map(len, names))[len(names) // 2] > SHORT_SLOT_CHARS:
        return False
    kinds.author_before_date = True
    _learn_labels(kinds, names)
    return True


def _learn_labels(kinds: SlotKinds, names: Sequence[str]) -> None:
    """The labels the set's author lines share: affixes ("… says:"), then a trailing note."""
    kinds.author_prefix, kinds.author_suffix = shared_affixes(names)
    kinds.author_note = shared_note([_author(n, kinds) or "" for n in names])


def _before_date(text: str) -> str:
    found = date_match(text)
    start = found[1] if found is not None else relative_match(text)
    return " ".join(text[:start].split()) if start is not None else ""


def _author(text: str, kinds: SlotKinds) -> str | None:
    if kinds.author_prefix and text.startswith(kinds.author_prefix):
        text = text[len(kinds.author_prefix) :]
    if kinds.author_suffix and text.endswith(kinds.author_suffix):
        text = text[: -len(kinds.author_suffix)]
    if kinds.author_note and text.rstrip().endswith(kinds.author_note):
        text = text.rstrip()[: -len(kinds.author_note)]
    words = text.split()
    if len(words) > 1 and words[-1].endswith((":", "：")):
        # a label the affixes did not catch (one page's few names share none): "says:", "より:"
        words = words[:-1]
    return " ".join(words) or None


def build_records(
    blocks: Sequence[Block], roles: Sequence[str], units: Sequence[Unit], kinds: SlotKinds
) -> list[CommentRecord]:
    records: list[CommentRecord] = []
    for position, unit in enumerate(units):
        lines: list[str] = []
        author = date = date_raw = precision = None
        for b in unit.own:
            slot = _slot(b, unit, blocks)
            if slot == kinds.author and author is None and b.text:
                author = _author(b.text.split("\n")[0], kinds)
            elif slot in kinds.date and date is None:
                if kinds.author_before_date and author is None:
                    author = _author(_before_date(b.text), kinds)
                date_raw = b.datetimes[0] if b.datetimes else b.text
                date, precision = read_date(date_raw) or read_date(b.text) or (None, None)
                if b.text:
                    date_raw = b.text if not b.datetimes else date_raw
            elif slot in kinds.text and roles[b.index] != POST and b.text:
                lines.append(b.text)
        if date is None:
            found = unit_date(unit, blocks, kinds)
            if found is not None:
                date, precision, date_raw = found
        records.append(
            CommentRecord("\n".join(lines), author, date, date_raw, unit.parent, position, unit.root.xpath, precision)
        )
    cut_bylines(records)
    return records


def unit_date(unit: Unit, blocks: Sequence[Block], kinds: SlotKinds) -> tuple[str, str, str] | None:
    """Any date line of the unit outside its text is its date, before or after the body,
    linked or not: (date, precision, raw text), or None. A theme that prints the author in a meta
    block above the text and the linked day in a block of the same kind below it gives one slot
    twice per unit, which ``learn_slots`` cannot type as the date slot."""
    for b in unit.own:
        if not date_line(b) or _slot(b, unit, blocks) in kinds.text:
            continue
        raw = b.datetimes[0] if b.datetimes else b.text
        read = read_date(raw) or read_date(b.text)
        if read is not None:
            return read[0], read[1], b.text or raw
    return None


@dataclass(slots=True)
class CommentLayout:
    """What a set taught about its comments: the unit signature and the slot types."""

    signature: UnitSignature
    kinds: SlotKinds

    def records(self, blocks: Sequence[Block], roles: Sequence[str]) -> list[CommentRecord]:
        """The comment records of one page of the site."""
        return build_records(blocks, roles, units_with_replies(blocks, roles, self.signature), self.kinds)

    def to_json(self) -> dict[str, object]:
        k = self.kinds
        return {
            "tag": self.signature.tag,
            "tokens": sorted(self.signature.tokens),
            "date": sorted(map(list, k.date)),
            "author": list(k.author) if k.author is not None else None,
            "chrome": sorted(map(list, k.chrome)),
            "text": sorted(map(list, k.text)),
            "author_prefix": k.author_prefix,
            "author_suffix": k.author_suffix,
            "author_note": k.author_note,
            "author_before_date": k.author_before_date,
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> CommentLayout:
        def slots(key: str) -> set[tuple[str, ...]]:
            raw = data.get(key) or []
            return {tuple(x) for x in raw} if isinstance(raw, list) else set()

        author = data.get("author")
        kinds = SlotKinds(
            date=slots("date"),
            author=tuple(author) if isinstance(author, list) else None,
            chrome=slots("chrome"),
            text=slots("text"),
            author_prefix=str(data.get("author_prefix") or ""),
            author_suffix=str(data.get("author_suffix") or ""),
            author_note=str(data.get("author_note") or ""),
            author_before_date=bool(data.get("author_before_date")),
        )
        tokens = data.get("tokens") or []
        return cls(UnitSignature(str(data["tag"]), frozenset(tokens if isinstance(tokens, list) else [])), kinds)


def _learn(
    pages: Sequence[Sequence[Block]], roles: Sequence[Sequence[str]], dated_only: bool = False
) -> tuple[CommentLayout | None, list[list[Unit]]] | None:
    """The layout and each page's units; None without repeated units, and no layout (None in the
    pair) when the units hold no words: they are not comments."""
    signature = learn_signature(pages, roles, dated_only)
    if signature is None:
        return None
    units = [units_with_replies(blocks, page_roles, signature) for blocks, page_roles in zip(pages, roles, strict=True)]
    kinds = learn_slots(list(zip(pages, roles, units, strict=True)))
    if not _worded(pages, units, kinds):
        return None, units
    return CommentLayout(signature, kinds), units


def _worded(pages: Sequence[Sequence[Block]], units: Sequence[Sequence[Unit]], kinds: SlotKinds) -> bool:
    """Whether most units hold words in a text slot: dated units of labels and links only (a
    related-posts list whose titles are links, the link-density filter drops them) are no comments."""
    total = worded = 0
    for blocks, page_units in zip(pages, units, strict=True):
        for unit in page_units:
            total += 1
            worded += any(b.text and _slot(b, unit, blocks) in kinds.text for b in unit.own)
    return worded * 2 >= total


def learn_layout(pages: Sequence[Sequence[Block]], roles: Sequence[Sequence[str]]) -> CommentLayout | None:
    """The set's comment layout, or None when no page shows a repeated comment unit."""
    learned = _learn(pages, roles)
    return learned[0] if learned is not None else None


def split_comments(
    pages: Sequence[Sequence[Block]], roles: Sequence[Sequence[str]], dated_only: bool = False
) -> list[list[CommentRecord]] | None:
    """Comment records per page, or None when the set shows no repeated comment unit.

    ``dated_only``: units must mostly carry a date (one page alone, where no vote outweighs a
    repeated "related posts" list).
    """
    learned = _learn(pages, roles, dated_only)
    if learned is None:
        return None
    layout, units = learned
    if layout is None:  # repeated units without words (a related-posts list): no comments
        return [[] for _ in pages]
    out = [
        build_records(blocks, page_roles, page_units, layout.kinds)
        for blocks, page_roles, page_units in zip(pages, roles, units, strict=True)
    ]
    cut_bylines([r for page in out for r in page])  # names the set's other pages show alone
    return out


# How far above the comment blocks a lone comment's unit (the block with its date) may be.
SINGLE_UNIT_REACH = 3
# A lone comment's unit holds at most this many text blocks (author, date, a few paragraphs, reply).
SINGLE_UNIT_BLOCKS = 15


def single_unit_records(blocks: Sequence[Block], roles: Sequence[str]) -> list[CommentRecord]:
    """One page's only comment, when nothing else is known: the block holding all the page's
    comment blocks (headings aside) is its unit if it holds a date; else no comment.

    A site profile learned before readers commented has no layout, and a page with one comment
    shows no repetition: its comment still has an author line and a date line of its own.
    """
    bearing = [b for b in blocks if b.text and roles[b.index] == COMMENT and b.tag not in HEADINGS]
    if not bearing:
        return []
    chains = [_ancestors(blocks, b.index) for b in bearing]
    common = set(chains[0]).intersection(*chains[1:])
    root = max(common) if common else -1  # preorder: the deepest common ancestor has the largest index
    dated = DateLines(blocks)  # (only the subtrees climbed through are read)
    for _ in range(SINGLE_UNIT_REACH):  # the date line may be boilerplate (a linked date)
        if root < 0 or dated.holds(root):
            break
        root = blocks[root].parent
    if root < 0 or not dated.holds(root):
        return []
    # a comment is a small block after the post, holding no post text, mostly its own words
    size = dated.sizes[root]
    texts = [b for b in blocks[root : root + size] if b.text]
    start = next((b.index for b in blocks if b.text and roles[b.index] == POST), -1)
    comment_blocks = sum(1 for b in texts if roles[b.index] == COMMENT)
    # mostly comment blocks; or, with a single date line (one comment, not a list of them), mostly
    # comment words besides its author, date and "Reply" lines (they may match other pages and be
    # boilerplate: a reader who commented on two articles, a short comment under them)
    worded = [b for b in texts if roles[b.index] == COMMENT or not _meta_line(b)]
    mostly = comment_blocks * 2 >= len(texts) or (
        dated.count(root) == 1
        and sum(b.text_chars for b in worded if roles[b.index] == COMMENT) * 2 >= sum(b.text_chars for b in worded)
    )
    if root <= start or len(texts) > SINGLE_UNIT_BLOCKS or any(roles[b.index] == POST for b in texts) or not mostly:
        return []
    # the unit is the whole block (a signature made from one element would also match the
    # unclassed blocks inside it and cut it into pieces)
    units = split_replies(blocks, [Unit(blocks[root], None, list(blocks[root : root + size]), {root})])
    return build_records(blocks, roles, units, learn_slots([(blocks, roles, units)]))


def _meta_line(block: Block) -> bool:
    """A comment's author line ("Ann says:"), date line or reply link: no words of its own."""
    return date_line(block) or author_line(block.text) or signed_line(block.text)


def _ancestors(blocks: Sequence[Block], index: int) -> list[int]:
    chain = []
    while index >= 0:
        chain.append(index)
        index = blocks[index].parent
    return chain
