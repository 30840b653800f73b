"""Extraction speed as ratios to lxml parse time, measured in one run on the same pages.

    python bench/extract_speed.py [--corpus ../shared/corpus] [--repeat 5] [--large 1000]

Prints (medians over --repeat runs, CPU time of this process so that other load on a shared
machine disturbs the ratios less):
1. set extraction of every corpus site (decode + parse + blocks + match + separate, then comment
   records) / lxml.html parse-only time of the same pages (target <= 2.5), and the same without
   comment records (the stages issue 3 names);
2. per-page cost of a 1,000-page set / per-page cost of a 20-page set, both generated from corpus
   templates with fresh article text (target <= 1.5);
3. single-page extraction with a learned site profile / parse time of the same pages (target <= 1.5),
   and the same without comment records (the set's stages, as in 1.); then the floor under it:
   reading those pages alone (decode, blocks, vectors, with the profile's shared read cache) and
   libxml2's parse of them with callbacks that do nothing (the tokenizer the reader runs on);
4. peak memory (max RSS) of extracting the 1,000-page set, measured in a child process.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import re
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import lxml.html

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from extractor import DEFAULT, Options, Page, SiteProfile, extract_site, learn_profile  # noqa: E402
from extractor.core.blocks import reader_bytes  # noqa: E402
from extractor.core.dates import clear_memos  # noqa: E402
from extractor.core.decode import decode_html  # noqa: E402
from extractor.evaluation.corpus import iter_corpus  # noqa: E402
from extractor.separation.method import read_page  # noqa: E402

try:
    from extractor import _csax  # type: ignore[attr-defined]
except ImportError:  # not built: no tokenizer floor to print
    _csax = None

WORDS = [
    "garden",
    "window",
    "coffee",
    "bicycle",
    "river",
    "morning",
    "letter",
    "kitchen",
    "winter",
    "market",
    "station",
    "library",
    "paint",
    "shelf",
    "lantern",
    "harbour",
    "violin",
    "pocket",
    "ladder",
    "meadow",
    "thunder",
    "pepper",
    "candle",
    "orchard",
]
_PARA = re.compile(rb"(<p[^>]*>)(.*?)(</p>)", re.S)


def cpu(fn: Callable[[], object]) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def median_ratio(
    fn: Callable[[], object], base: Callable[[], object], repeat: int, setup: Callable[[], object] = clear_memos
) -> tuple[float, float, float]:
    """Median of per-run ratios, interleaving the two so both see the same machine state.

    ``setup`` runs untimed before each run: every run starts cold, as a crawl meets new pages,
    instead of finding the previous run's texts memoised (which flattered the ratios)."""
    ratios, a, b = [], [], []
    for _ in range(repeat):
        setup()
        tb = cpu(base)
        tf = cpu(fn)
        ratios.append(tf / tb)
        a.append(tf)
        b.append(tb)
    return statistics.median(ratios), statistics.median(a), statistics.median(b)


def parse_each(raws: list[bytes]) -> None:
    """lxml.html parse of every page, each tree dropped at once (as extraction drops its trees):
    keeping hundreds of trees alive would add memory-growth costs to the baseline and flatter
    the ratios."""
    for raw in raws:
        lxml.html.document_fromstring(raw)


def generated_set(templates: list[bytes], n: int, seed: int) -> list[Page]:
    """n pages from corpus templates, each paragraph's text replaced by fresh random words."""
    rnd = random.Random(seed)

    def fresh(m: re.Match[bytes]) -> bytes:
        words = " ".join(rnd.choice(WORDS) for _ in range(rnd.randint(8, 40)))
        return m.group(1) + words.encode() + m.group(3)

    return [Page(None, _PARA.sub(fresh, templates[i % len(templates)])) for i in range(n)]


def child_peak_rss(n: int) -> int:
    """Max RSS (KiB) of a child process that extracts an n-page generated set."""
    code = (
        f"import sys,resource; sys.path.insert(0, {str(ROOT)!r}); sys.argv=['x']\n"
        "import bench.extract_speed as b\n"
        f"pages = b.generated_set(b.wordpress_templates(), {n}, 7)\n"
        "from extractor import extract_site; extract_site(pages)\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return int(out.stdout.strip().splitlines()[-1])


def wordpress_templates(corpus: Path | None = None) -> list[bytes]:
    corpus = corpus or ROOT.parent / "shared" / "corpus"
    site = next(iter_corpus(corpus, ["wordpress"], ["tt21"]))
    return [p.read_bytes() for p in site.page_files()]


def later_halves(sets: list[list[Page]]) -> Iterator[tuple[list[Page], list[Page]]]:
    """(first half, later half) of every site of 4+ pages: the profile is learned from the first,
    the later one is timed."""
    for s in sets:
        if len(s) >= 4:
            yield s[: len(s) // 2], s[len(s) // 2 :]


def profile_ratio(sets: list[list[Page]], options: Options, repeat: int) -> tuple[float, int]:
    """Median over the sites of 4+ pages of (single-page extraction of the later half with a
    profile learned from the first half) / (parse time of those pages), and the site count."""
    ratios = []
    for first, rest in later_halves(sets):
        learned = learn_profile(first, options)
        learned.index()  # built once in a profile's life, not per page
        # each run extracts with the profile as learned: what earlier runs read of these very
        # pages is not kept (pages read earlier in the same run still share their boilerplate)
        fresh = [learned]

        def reset(learned: SiteProfile = learned, fresh: list[SiteProfile] = fresh) -> None:
            clear_memos()
            fresh[0] = dataclasses.replace(learned, _read_cache={})

        ratios.append(
            median_ratio(
                lambda rest=rest, fresh=fresh: [fresh[0].extract(p) for p in rest],
                lambda rest=rest: parse_each([p.body for p in rest]),
                repeat,
                reset,
            )[0]
        )
    return statistics.median(ratios), len(ratios)


def reading_ratios(sets: list[list[Page]], options: Options, repeat: int) -> tuple[float, float | None]:
    """Median over the sites of 4+ pages of (reading the later half as profile extraction reads it,
    one read cache shared by the pages) / (parse time), and of (libxml2's parse of the same bytes
    with idle callbacks) / (parse time): None when the streaming reader is not built."""
    reading, floor = [], []
    for _, rest in later_halves(sets):

        def parse(rest: list[Page] = rest) -> None:
            parse_each([p.body for p in rest])

        def read(rest: list[Page] = rest) -> None:
            cache: dict[object, object] = {}
            for page in rest:
                read_page(page, options, cache)

        reading.append(median_ratio(read, parse, repeat)[0])
        if _csax is not None and _csax.AVAILABLE:
            utf8 = [reader_bytes(d.text, d.utf8) for d in (decode_html(p.body, p.headers) for p in rest)]

            def tokenize(utf8: list[bytes] = utf8) -> None:
                for data in utf8:
                    _csax.tokenize(data)

            floor.append(median_ratio(tokenize, parse, repeat)[0])
    return statistics.median(reading), (statistics.median(floor) if floor else None)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--large", type=int, default=1000)
    a = ap.parse_args()
    corpus = Path(a.corpus)
    sets = [[Page(None, p.read_bytes()) for p in s.page_files()] for s in iter_corpus(corpus)]
    raws = [p.body for s in sets for p in s]
    parse_all = lambda: parse_each(raws)  # noqa: E731
    r, t_ex, t_parse = median_ratio(lambda: [extract_site(s) for s in sets], parse_all, a.repeat)
    print(f"corpus sets: {len(sets)} sets, {len(raws)} pages, {sum(map(len, raws)) / 1e6:.1f} MB")
    print(f"  set extraction / lxml parse      = {r:5.2f}  (median of {a.repeat}; {t_ex:.2f}s vs {t_parse:.2f}s CPU)")
    # issue 3's stages alone (decode + parse + blocks + match + separate): comment records off
    bare = DEFAULT.but(comment_records=False)
    r, t_ex, t_parse = median_ratio(lambda: [extract_site(s, bare) for s in sets], parse_all, a.repeat)
    print(f"    without comment records        = {r:5.2f}  ({t_ex:.2f}s vs {t_parse:.2f}s CPU)")

    templates = wordpress_templates(corpus)
    small = generated_set(templates, 20, 1)
    large = generated_set(templates, a.large, 2)
    small_runs = max(3, a.large // 20)
    per_small = statistics.median(
        cpu(lambda: [(clear_memos(), extract_site(small)) for _ in range(small_runs)]) / (20 * small_runs)
        for _ in range(a.repeat)
    )
    per_large = statistics.median(
        cpu(lambda: (clear_memos(), extract_site(large))) / a.large for _ in range(max(1, a.repeat // 2))
    )
    print(
        f"  per-page cost {a.large}-page set / 20-page set = {per_large / per_small:5.2f}"
        f"  ({per_large * 1e3:.2f} ms vs {per_small * 1e3:.2f} ms per page)"
    )

    ratio, n = profile_ratio(sets, DEFAULT, a.repeat)
    print(f"  profile extraction / lxml parse  = {ratio:5.2f}  (median over {n} sites)")
    ratio, n = profile_ratio(sets, bare, a.repeat)
    print(f"    without comment records        = {ratio:5.2f}  (profiles learned without them)")
    reading, floor = reading_ratios(sets, DEFAULT, a.repeat)
    print(f"    its reading alone              = {reading:5.2f}  (decode + blocks + vectors)")
    if floor is not None:
        print(f"    libxml2's tokenizer alone      = {floor:5.2f}  (the parse the reader runs on, idle callbacks)")
    rss = child_peak_rss(a.large)
    print(
        f"  peak memory, {a.large}-page set: {rss / 1024:.0f} MiB max RSS"
        f" (this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
