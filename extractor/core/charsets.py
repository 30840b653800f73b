"""Which legacy encoding undeclared bytes are in: strict decodes, ranked by how plausible their text is.

    >>> from extractor.core.charsets import guess_cjk
    >>> guess_cjk("文字コードの宣言がない記事。".encode("euc_jp"))
    'euc_jp'

A detector that scores byte statistics can prefer a single-byte code page for a short CJK text
(charset-normalizer 3.5.3 reads EUC-JP as Thai cp874). Here each CJK encoding that decodes the bytes
without an error is judged by the text it yields: the share of clean characters (kana, common
ideographs, Hangul syllables, CJK punctuation) against those real text hardly ever holds (half-width
katakana, private-use and unassigned code points, rare ideographs, stray jamo or Cyrillic from a
symbol row), and whether the script mix fits the encoding's language (kana means Japanese, Hangul
means Korean, ideographs separated by spaces are Korean words read in the wrong code page).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

# Tried in this order; on a tie the earlier wins (Japanese blogs are the corpus' CJK majority).
CJK_ENCODINGS = ("euc_jp", "cp932", "gb18030", "big5", "cp949")
LANGUAGE = {"euc_jp": "ja", "cp932": "ja", "gb18030": "zh", "big5": "zh", "cp949": "ko"}
# A decode at least this plausible is taken: a detector's guess never overrules it.
PLAUSIBLE = 0.9
# Characters scored per candidate: enough to judge a page, bounded on a huge one.
_SAMPLE_CHARS = 20_000
_TIE = 0.02
_ISO2022_ESCAPES = {"iso2022_jp": (b"\x1b$B", b"\x1b$@", b"\x1b(J"), "iso2022_kr": (b"\x1b$)C",)}
_LANG = re.compile(rb"""<html\b[^>]*?\blang\s*=\s*["']?\s*([a-zA-Z]{2})""", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class ScriptMix:
    """What a decoded text is made of, counted over its non-ASCII characters."""

    kana: int = 0
    han: int = 0
    rare_han: int = 0  # ideographs outside the common sets of GB2312, Big5 and JIS level 1
    hangul: int = 0
    rare_hangul: int = 0  # syllables outside KS X 1001's 2,350
    odd: int = 0  # characters real CJK text hardly ever holds
    spaced_han: int = 0  # ideographs with a space on one side and an ideograph beyond it

    @property
    def letters(self) -> int:
        return self.kana + self.han + self.hangul

    def cleanness(self) -> float:
        """1.0 for text of common CJK characters only, lower as odd and rare ones appear."""
        if self.letters == 0:
            return 0.0
        odd = self.odd + self.rare_han + self.rare_hangul
        return max(0.0, 1.0 - odd / (self.letters + self.odd))

    def fits(self, language: str) -> float:
        """How well the script mix fits a language: 1.0 fits, 0.0 cannot be."""
        if self.letters == 0:
            return 0.0
        spacing = max(0.0, 1.0 - 4.0 * self.spaced_han / max(self.han, 1))
        if language == "ko":
            return self.hangul / self.letters
        if self.hangul:
            return 0.0
        if language == "ja":
            return spacing if self.kana else 0.5 * spacing
        return spacing * max(0.0, 1.0 - 10.0 * self.kana / self.letters)  # "zh"


@cache
def _common_han() -> frozenset[str]:
    """The level-1 ideographs of GB2312, Big5 and JIS X 0208: the few thousand in daily use."""
    chars: set[str] = set()
    chars.update(_code_page_range("gb2312", range(0xB0, 0xD8), range(0xA1, 0xFF)))
    chars.update(_code_page_range("euc_jp", range(0xB0, 0xD0), range(0xA1, 0xFF)))
    chars.update(_code_page_range("big5", range(0xA4, 0xC7), [*range(0x40, 0x7F), *range(0xA1, 0xFF)]))
    return frozenset(c for c in chars if _is_han(ord(c)))


@cache
def _common_hangul() -> frozenset[str]:
    """KS X 1001's Hangul syllables (EUC-KR rows 16-40)."""
    return frozenset(_code_page_range("euc_kr", range(0xB0, 0xC9), range(0xA1, 0xFF)))


def _code_page_range(encoding: str, leads: Iterable[int], trails: Iterable[int]) -> set[str]:
    found = set()
    trail_bytes = list(trails)
    for lead in leads:
        for trail in trail_bytes:
            try:
                found.add(bytes((lead, trail)).decode(encoding))
            except UnicodeDecodeError:
                continue
    return found


def _is_han(cp: int) -> bool:
    return 0x4E00 <= cp <= 0x9FFF


def _is_odd(ch: str, cp: int) -> bool:
    if 0x80 <= cp <= 0x9F or 0xFF61 <= cp <= 0xFF9F or 0xE000 <= cp <= 0xF8FF:
        return True  # C1 controls, half-width katakana, private use
    if 0x3100 <= cp <= 0x318F or 0x3400 <= cp <= 0x4DBF or 0xF900 <= cp <= 0xFAFF:
        return True  # bopomofo and compatibility jamo, extension A and compatibility ideographs
    if 0x00C0 <= cp <= 0x024F or 0x0370 <= cp <= 0x052F or 0x2500 <= cp <= 0x257F:
        return True  # Latin letters, Greek and Cyrillic, box drawing: symbol rows read as text
    return unicodedata.category(ch) in ("Cn", "Co", "Cs")


def script_mix(text: str) -> ScriptMix:
    """Count ``text``'s non-ASCII characters by kind (see ScriptMix)."""
    common_han, common_hangul = _common_han(), _common_hangul()
    kana = han = rare_han = hangul = rare_hangul = odd = spaced = 0
    for i, ch in enumerate(text):
        cp = ord(ch)
        if cp < 0x80:
            continue
        if 0x3041 <= cp <= 0x30FF:
            kana += 1
        elif _is_han(cp):
            han += 1
            rare_han += ch not in common_han
            if _spaced(text, i):
                spaced += 1
        elif 0xAC00 <= cp <= 0xD7A3:
            hangul += 1
            rare_hangul += ch not in common_hangul
        elif _is_odd(ch, cp):
            odd += 1
    return ScriptMix(kana, han, rare_han, hangul, rare_hangul, odd, spaced)


def _spaced(text: str, i: int) -> bool:
    """An ideograph followed by one space and another ideograph: Korean words, not Chinese."""
    return i + 2 < len(text) and text[i + 1] == " " and _is_han(ord(text[i + 2]))


def declared_language(data: bytes) -> str | None:
    """The two-letter ``<html lang>`` of the page, lower case, if it has one."""
    match = _LANG.search(data[:4096])
    return match.group(1).decode("ascii").lower() if match else None


def iso2022(data: bytes) -> str | None:
    """The 7-bit ISO-2022 encoding the bytes switch into, when they decode in it."""
    for encoding, escapes in _ISO2022_ESCAPES.items():
        if any(e in data for e in escapes):
            try:
                data.decode(encoding)
            except UnicodeDecodeError:
                continue
            return encoding
    return None


def plausibility(data: bytes, encoding: str) -> float:
    """0-1: how plausible the text of a strict decode of ``data`` in a CJK ``encoding`` is; 0 if it fails."""
    try:
        mix = _mix(data, encoding)
    except LookupError:
        return 0.0
    return 0.0 if mix is None else mix.cleanness() * mix.fits(LANGUAGE.get(encoding, "zh"))


def guess_cjk(data: bytes, prefer: str | None = None) -> str | None:
    """The CJK encoding whose strict decode of ``data`` reads as clean text, or None.

    ``prefer``: the encoding of the site's other pages; it wins whenever it is plausible. A page
    whose ``<html lang>`` names Japanese, Chinese or Korean is read in that language's encoding when
    one gives clean text, even if the script mix alone is ambiguous (kanji without kana). Otherwise
    the most plausible wins, on a tie the earlier in CJK_ENCODINGS.
    """
    if prefer in LANGUAGE and _clean_for(_mix(data, prefer), LANGUAGE[prefer]) >= PLAUSIBLE:
        return prefer
    mixes = {e: _mix(data, e) for e in CJK_ENCODINGS}
    lang = declared_language(data)
    own = [(_clean_for(m, lang), e) for e, m in mixes.items() if LANGUAGE[e] == lang]
    best_own = max(own, key=lambda scored: scored[0], default=(0.0, ""))
    if best_own[0] >= PLAUSIBLE:
        return best_own[1]
    scored = [(m.cleanness() * m.fits(LANGUAGE[e]) if m is not None else 0.0, e) for e, m in mixes.items()]
    best = max(score for score, _ in scored)
    if best < PLAUSIBLE:
        return None
    return next(e for score, e in scored if score >= best - _TIE)


def _clean_for(mix: ScriptMix | None, language: str | None) -> float:
    """The cleanness of a decode whose language other evidence names, if its script mix can be that
    language (kanji without kana can be Japanese; kana cannot be Chinese)."""
    if mix is None or language is None or mix.fits(language) == 0.0:
        return 0.0
    return mix.cleanness()


def _mix(data: bytes, encoding: str) -> ScriptMix | None:
    try:
        return script_mix(data.decode(encoding)[:_SAMPLE_CHARS])
    except UnicodeDecodeError:
        return None
