"""Words as the corpus README's scoring counts them, shared by the scorer, the comment-feed
evidence and the store's comment-feed check.

    >>> tokenize("Don't STOP—日本語")
    ['don', 't', 'stop', '日', '本', '語']
"""

from __future__ import annotations

import unicodedata

# Han, Hiragana and Katakana characters are one token each.
_CJK = (
    (0x3005, 0x3007),
    (0x3040, 0x309F),
    (0x30A0, 0x30FF),
    (0x31F0, 0x31FF),
    (0x3400, 0x4DBF),
    (0x4E00, 0x9FFF),
    (0xF900, 0xFAFF),
    (0xFF66, 0xFF9F),
    (0x20000, 0x2FA1F),
)


def _cjk(ch: str) -> bool:
    cp = ord(ch)
    return any(lo <= cp <= hi for lo, hi in _CJK)


def _word_char(ch: str) -> bool:
    cat = unicodedata.category(ch)
    return cat[0] in "LN" or cat in ("Mn", "Mc")


def tokenize(text: str) -> list[str]:
    """NFKC, casefold; runs of letters/digits/marks; each Han/Kana character alone."""
    tokens: list[str] = []
    run: list[str] = []
    for ch in unicodedata.normalize("NFKC", text or "").casefold():
        if not _word_char(ch):
            if run:
                tokens.append("".join(run))
                run = []
        elif _cjk(ch):
            if run:
                tokens.append("".join(run))
                run = []
            tokens.append(ch)
        else:
            run.append(ch)
    if run:
        tokens.append("".join(run))
    return tokens
