"""The `scrapy search` query language, parsed once and run either as FTS5 or as a substring scan.

parse_search('"shooting board" OR jig*').fts()  # '("shooting board" OR "jig")'

Words and "quoted phrases" match as case-insensitive substrings (what the trigram tokenizer
does), adjacent items must all match (AND), `OR` and `NOT` (binary: `A NOT B`, A without B) are
upper-case operators, parentheses group, and a `*` after a word or phrase is accepted as a
prefix marker, which substring matching already implies. Trigram FTS5 cannot match items under
3 characters, so such queries run as a scan with the same meaning (`Query.sql`); both paths
are built from one parse, so a query means the same thing whichever runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

MIN_FTS_TERM = 3  # trigram: shorter items match nothing in FTS5
FOLD_FUNCTION = "hv_fold"  # registered on the connection by `register_fold`
_OPERATORS = frozenset({"AND", "OR", "NOT"})


class SearchSyntaxError(ValueError):
    """A query `scrapy search` cannot read; the message is one line for the user."""


def fold(text: str | None) -> str:
    """Case folding as the trigram tokenizer does it (Unicode lower case); NULL reads as ''."""
    return "" if text is None else text.lower()


def register_fold(conn: Any) -> None:
    """Make `hv_fold(x)` available to the scan path on this sqlite3 connection."""
    conn.create_function(FOLD_FUNCTION, 1, fold, deterministic=True)


@dataclass(frozen=True)
class Leaf:
    text: str


@dataclass(frozen=True)
class Op:
    op: str  # AND, OR, NOT
    left: Node
    right: Node


Node = Leaf | Op


@dataclass(frozen=True)
class Query:
    """A parsed search query: `fts()` for FTS5 MATCH, `sql(cols)` for the scan, `leaves` to choose."""

    root: Node

    @property
    def leaves(self) -> list[str]:
        out: list[str] = []
        stack: list[Node] = [self.root]
        while stack:
            node = stack.pop()
            if isinstance(node, Leaf):
                out.append(node.text)
            else:
                stack += [node.right, node.left]
        return out

    @property
    def positive(self) -> list[str]:
        """Items whose presence makes a hit (not the right side of a NOT): snippet anchors."""
        out: list[str] = []

        def walk(node: Node) -> None:
            if isinstance(node, Leaf):
                out.append(node.text)
            else:
                walk(node.left)
                if node.op != "NOT":
                    walk(node.right)

        walk(self.root)
        return out

    def fits_fts(self) -> bool:
        return all(len(text) >= MIN_FTS_TERM for text in self.leaves)

    def fts(self) -> str:
        """An FTS5 MATCH expression, fully parenthesized so FTS5's own precedence never matters."""

        def emit(node: Node) -> str:
            if isinstance(node, Leaf):
                return '"' + node.text.replace('"', '""') + '"'
            return f"({emit(node.left)} {node.op} {emit(node.right)})"

        return emit(self.root)

    def sql(self, columns: list[str], alias: str = "t", dialect: str = "sqlite") -> tuple[str, list[str]]:
        """A WHERE condition with the same meaning as `fts()`: an item matches in any of `columns`.

        SQLite: instr over the folded text (hv_fold, `register_fold`); PostgreSQL: ILIKE with the
        item's LIKE wildcards escaped, which pg_trgm's GIN indexes serve."""
        params: list[str] = []

        def emit(node: Node) -> str:
            if isinstance(node, Leaf):
                if dialect == "postgresql":
                    params.extend([f"%{_like_escape(node.text)}%"] * len(columns))
                    return "(" + " OR ".join(f"{alias}.{c} ILIKE ?" for c in columns) + ")"
                params.extend([fold(node.text)] * len(columns))
                return "(" + " OR ".join(f"instr({FOLD_FUNCTION}({alias}.{c}), ?) > 0" for c in columns) + ")"
            joiner = "AND NOT" if node.op == "NOT" else node.op
            return f"({emit(node.left)} {joiner} {emit(node.right)})"

        return emit(self.root), params


def _like_escape(text: str) -> str:
    """_like_escape("100%_a") == "100\\%\\_a": LIKE wildcards as plain characters (backslash is PostgreSQL's escape)."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _tokens(query: str) -> list[tuple[str, str]]:
    """(kind, text) with kind in word, phrase, op, (, )."""
    out: list[tuple[str, str]] = []
    i, n = 0, len(query)
    while i < n:
        ch = query[i]
        if ch.isspace():
            i += 1
        elif ch in "()":
            out.append((ch, ch))
            i += 1
        elif ch == '"':
            end = query.find('"', i + 1)
            if end < 0:
                raise SearchSyntaxError(f'unclosed quote in {query[i:]!r}: end a phrase with another "')
            phrase = query[i + 1 : end]
            if not phrase.strip():
                raise SearchSyntaxError('empty phrase "": put words between the quotes')
            i = end + 1
            if i < n and query[i] == "*":  # "phrase"* : prefix marker
                i += 1
            out.append(("phrase", phrase))
        else:
            j = i
            while j < n and not query[j].isspace() and query[j] not in '()"':
                j += 1
            word = query[i:j]
            i = j
            if word in _OPERATORS:
                out.append(("op", word))
                continue
            body = word[:-1] if word.endswith("*") else word
            if "*" in body or not body:
                raise SearchSyntaxError(f"{word!r}: * goes only at the end of a word (prefix), e.g. shoot*")
            out.append(("word", body))
    return out


def _describe(token: tuple[str, str] | None) -> str:
    return "the end of the query" if token is None else repr(token[1])


class _Parser:
    # or := and (OR and)* ; and := not ([AND] not)* ; not := primary (NOT primary)* ; primary := item | ( or )
    def __init__(self, tokens: list[tuple[str, str]]) -> None:
        self.tokens = tokens
        self.pos = 0

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> tuple[str, str] | None:
        token = self.peek()
        self.pos += 1
        return token

    def parse(self) -> Node:
        node = self.or_()
        token = self.peek()
        if token is not None:
            if token[0] == ")":
                raise SearchSyntaxError("unbalanced ')': no '(' opens it")
            raise SearchSyntaxError(f"unexpected {_describe(token)}")
        return node

    def or_(self) -> Node:
        node = self.and_()
        while self.peek() == ("op", "OR"):
            self.take()
            node = Op("OR", node, self.and_())
        return node

    def and_(self) -> Node:
        node = self.not_()
        while True:
            token = self.peek()
            if token == ("op", "AND"):
                self.take()
            elif token is None or token[0] not in ("word", "phrase", "("):
                return node
            node = Op("AND", node, self.not_())

    def not_(self) -> Node:
        node = self.primary()
        while self.peek() == ("op", "NOT"):
            self.take()
            node = Op("NOT", node, self.primary())
        return node

    def primary(self) -> Node:
        token = self.take()
        if token is not None and token[0] in ("word", "phrase"):
            return Leaf(token[1])
        if token is not None and token[0] == "(":
            node = self.or_()
            closing = self.take()
            if closing is None or closing[0] != ")":
                raise SearchSyntaxError(f"unbalanced '(': expected ')' before {_describe(closing)}")
            return node
        if token is not None and token[0] == "op":
            if token[1] == "NOT":
                raise SearchSyntaxError("NOT needs an item before it: A NOT B finds A without B")
            raise SearchSyntaxError(f"{token[1]} needs a word or phrase on both sides")
        if token is not None and token[0] == ")":
            raise SearchSyntaxError("empty or unbalanced parentheses")
        raise SearchSyntaxError("the query ends where a word or phrase is expected")


def parse_search(query: str) -> Query:
    """The query as a tree of items and AND/OR/NOT; SearchSyntaxError (one line) when unreadable."""
    tokens = _tokens(query)
    if not tokens:
        raise SearchSyntaxError("empty query: give words or a \"phrase\", e.g. scrapy search 'shooting board'")
    return Query(_Parser(tokens).parse())


def scan_snippet(text: str | None, items: list[str], width: int = 120) -> str:
    """About `width` characters of `text` around the first of `items`, marked [like this] as FTS5's snippet()."""
    text = text or ""
    folded = fold(text)
    hits = [(folded.find(fold(item)), len(item)) for item in items]
    found = [(at, size) for at, size in hits if at >= 0]
    if not found or len(folded) != len(text):  # folding changed lengths: positions would be off
        return text[:width]
    at, size = min(found)
    start = max(0, at - 20)  # little lead: narrow table cells still show the hit
    end = min(len(text), start + width)
    return (
        ("…" if start else "")
        + text[start:at]
        + "["
        + text[at : at + size]
        + "]"
        + text[at + size : end]
        + ("…" if end < len(text) else "")
    )
