"""How far the corpus' comment annotations let comments macro F1 go: comment records against the truth,
and the same pages with every comment block's text (author and date lines included), per site.

    python scripts/comment_ceiling.py [--corpus ../shared/corpus]

Dragnet's gold keeps each comment's author and date lines in the comment text; WordPress truth (and
issue 6's record definition) leaves them out. The last line prints comments macro F1 three ways:
as extracted (records), with all comment blocks' text on every site, and with all comment blocks on
Dragnet sites only (each source scored by its own convention: a bound no single rule can reach).
arstechnica's only comment truth is the article author's bio: 0 in every variant.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from extractor import Page, extract_site
from extractor.evaluation.corpus import iter_corpus
from extractor.evaluation.scoring import Counts, score_page


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", default=str(Path(__file__).resolve().parents[2] / "shared" / "corpus"))
    args = parser.parse_args()
    rows = []
    for site in iter_corpus(Path(args.corpus)):
        files = site.page_files()
        out = extract_site([Page(None, f.read_bytes()) for f in files])
        truth = {t["file"]: t for t in site.truth}
        records, blocks = Counts(), Counts()
        split = bool(site.meta.get("comments_split"))
        for f, x in zip(files, out, strict=True):
            t = truth[f.relative_to(site.dir).as_posix()]
            if t.get("comments_unlabeled"):
                continue
            as_json = x.as_json()
            records.add(score_page(t, as_json, split=split))
            full = [b.text for b in x.blocks if b.role == "comment" and b.text]
            blocks.add(score_page(t, {**as_json, "comments": ["\n".join(full)] if full else []}, split=split))
        a, b = records.comment_prf()[2], blocks.comment_prf()[2]
        if a is not None and b is not None:
            rows.append((site.source, site.site, a, b))
            print(f"{site.source}/{site.site:32s} records {a:.3f}   all comment blocks {b:.3f}")
    n = len(rows)
    as_extracted = sum(a for *_, a, _ in rows) / n
    all_blocks = sum(b for *_, b in rows) / n
    by_source = sum(b if source == "dragnet" else a for source, _, a, b in rows) / n
    print(
        f"comments macro F1 over {n} sites: records {as_extracted:.4f} | all comment blocks {all_blocks:.4f}"
        f" | all comment blocks on dragnet only {by_source:.4f}"
    )


if __name__ == "__main__":
    main()
