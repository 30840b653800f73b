"""Read a labeled corpus in the ``../shared/corpus`` format (see its README).

    >>> sites = list(iter_corpus("../shared/corpus"))  # doctest: +SKIP

A corpus root holds ``<source>/<site>/{site.json,truth.jsonl,pages/}``; every site's ``pages/``
folder is one set for extraction.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(slots=True)
class CorpusSite:
    root: Path
    source: str
    site: str
    meta: dict[str, object]
    truth: list[dict[str, object]] = field(default_factory=list)

    @property
    def dir(self) -> Path:
        return self.root / self.source / self.site

    def key(self, rel: str) -> str:
        """Root-relative page name used in prediction files: ``<source>/<site>/pages/x.html``."""
        return f"{self.source}/{self.site}/{rel}"

    def page_files(self) -> list[Path]:
        """The set's pages: every file of ``pages/`` (truth order first, then any others)."""
        listed = [self.dir / str(t["file"]) for t in self.truth]
        extra = sorted(p for p in (self.dir / "pages").glob("*") if p.is_file() and p not in set(listed))
        return [p for p in listed if p.is_file()] + extra

    @property
    def comments_split(self) -> bool:
        return bool(self.meta.get("comments_split"))


def iter_corpus(
    root: str | Path, sources: list[str] | None = None, sites: list[str] | None = None
) -> Iterator[CorpusSite]:
    """Every site of a corpus, sorted by source then site."""
    root = Path(root)
    if not root.is_dir():
        raise FileNotFoundError(f"corpus root not found: {root}")
    for meta_path in sorted(root.glob("*/*/site.json")):
        source, site = meta_path.parent.parent.name, meta_path.parent.name
        if (sources and source not in sources) or (sites and site not in sites):
            continue
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        truth_path = meta_path.parent / "truth.jsonl"
        truth = []
        if truth_path.is_file():
            with truth_path.open(encoding="utf-8") as fh:
                truth = [json.loads(line) for line in fh if line.strip()]
        yield CorpusSite(root, source, site, meta, truth)
