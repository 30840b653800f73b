"""The modules compiled from their Python sources (extractor/_compiled.py): built in CI, never
stale, and giving exactly the output of their sources."""

from __future__ import annotations

import importlib
import importlib.machinery
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from extractor import _compiled as C

ROOT = Path(__file__).resolve().parents[1]
# WordPress sets (with and without comment-free pages), and Dragnet sites whose comments take the
# record, fallback and near-duplicate paths
SITES = ["tt21", "cocoon", "paulocoelhoblog.com", "thecarconnection.com", "blog.ted.com", "mashable.com"]

EXTRACT = """
import json, os, sys
if os.environ.get("TEST_NO_COMPILED_PASSES"):
    for name in ("_cblock", "_cbuild", "_csax", "_cvectors", "_cunits", "_cmatch"):  # as installed without a C compiler
        sys.modules["extractor." + name] = None
from extractor import Page, extract_site, learn_profile
from extractor.evaluation.corpus import iter_corpus
out = []
for site in iter_corpus(sys.argv[1], sites=sys.argv[2:]):
    pages = [Page(None, p.read_bytes()) for p in site.page_files()]
    for r in extract_site(pages):
        out.append([r.post, r.comments, [c.as_json() for c in r.comment_records], r.warnings,
                    [(b.xpath, b.identifier, b.role) for b in r.blocks]])
    profile = learn_profile(pages[: len(pages) // 2])
    for page in pages[len(pages) // 2 :]:
        r = profile.extract(page)
        out.append([r.post, r.comments, r.template_match])
import extractor.comments.units as units
from extractor import speedups
print(json.dumps({"units": units.__file__, "compiled": speedups.COMPILED, "out": out}))
"""


def _run(corpus_root: Path, source_modules: bool, no_compiled_passes: bool = False) -> dict[str, object]:
    env = {
        **os.environ,
        C.SOURCE_ENV: "1" if source_modules else "0",
        "TEST_NO_COMPILED_PASSES": "1" if no_compiled_passes else "",
    }
    done = subprocess.run(
        [sys.executable, "-c", EXTRACT, str(corpus_root), *SITES],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=300,
        check=True,
    )
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def _is_extension(path: str) -> bool:
    return path.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def test_compiled_modules_are_built_where_a_compiler_is() -> None:
    # `pip install -e .` builds them whenever it finds a compiler (setup.py's extensions are optional)
    from test_cwalk import c_compiler

    if c_compiler() is None:
        pytest.skip("no C compiler here: the sources run")
    written_for_c = ("_cblock", "_cbuild", "_csax", "_cvectors", "_cunits", "_cmatch")
    for name in (*C.COMPILED, *written_for_c):
        module = importlib.import_module(f"extractor.{name}")
        assert module.__file__ is not None and _is_extension(module.__file__), name


def test_compiled_modules_give_their_sources_output(corpus_root: Path) -> None:
    compiled = _run(corpus_root, source_modules=False)
    source = _run(corpus_root, source_modules=True)
    assert str(source["units"]).endswith("units.py")
    assert len(source["out"]) > 100  # type: ignore[arg-type]
    assert compiled["out"] == source["out"]


def test_an_install_without_a_compiler_gives_the_same_output(corpus_root: Path) -> None:
    # no compiled code at all: the Python reader, vectors and block class
    compiled = _run(corpus_root, source_modules=False)
    pure = _run(corpus_root, source_modules=True, no_compiled_passes=True)
    assert pure["compiled"] is False
    assert compiled["out"] == pure["out"]


def _fake_build(tmp_path: Path, name: str, text: str) -> Path:
    # a dotted name is a module of a sub-package, as in COMPILED: "comments.units"
    source = C.source_path(tmp_path, name)
    source.parent.mkdir(parents=True, exist_ok=True)
    source.write_text(text)
    source.with_name(source.stem + importlib.machinery.EXTENSION_SUFFIXES[0]).write_bytes(b"")
    return source


def test_an_edited_source_makes_its_build_stale(tmp_path: Path) -> None:
    source = _fake_build(tmp_path, "comments.units", "X = 1\n")
    _fake_build(tmp_path, "comments.records", "Y = 1\n")
    digests = {name: C.source_digest(C.source_path(tmp_path, name)) for name in ("comments.units", "comments.records")}
    (tmp_path / C.HASHES_FILE).write_text(json.dumps(digests))
    assert C.stale_modules(tmp_path) == []
    source.write_text("X = 2\n")
    assert C.stale_modules(tmp_path) == ["comments.units"]


def test_a_build_without_recorded_digests_is_stale(tmp_path: Path) -> None:
    _fake_build(tmp_path, "comments.units", "X = 1\n")
    (tmp_path / "comments" / "records.py").write_text("Y = 1\n")  # a source without a build is not stale
    assert C.stale_modules(tmp_path) == ["comments.units"]


def test_a_build_of_a_module_not_compiled_by_setup_is_stale(tmp_path: Path) -> None:
    # an extension left by another build (not in COMPILED) must not shadow its source unnoticed
    for name in ("core.decode", "speedups"):
        _fake_build(tmp_path, name, "X = 1\n")
    digests = {name: C.source_digest(C.source_path(tmp_path, name)) for name in ("core.decode", "speedups")}
    (tmp_path / C.HASHES_FILE).write_text(json.dumps(digests))
    assert C.stale_modules(tmp_path) == ["core.decode", "speedups"]


def test_every_compiled_name_is_a_source() -> None:
    # setup.py builds extractor/comments/units.py as extractor.comments.units
    package = ROOT / "extractor"
    assert [name for name in C.COMPILED if not C.source_path(package, name).is_file()] == []


def test_a_pass_written_for_c_has_no_source_and_is_never_stale(tmp_path: Path) -> None:
    (tmp_path / f"_csax{importlib.machinery.EXTENSION_SUFFIXES[0]}").write_bytes(b"")
    assert C.stale_modules(tmp_path) == []
