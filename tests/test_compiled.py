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
if os.environ.get("TEST_NO_CWALK"):
    sys.modules["extractor._cwalk"] = None  # as installed without a C compiler
    sys.modules["extractor._csax"] = None
    sys.modules["extractor._cbuild"] = None
from extractor import Page, extract_site, learn_profile
from extractor.corpus import iter_corpus
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
import extractor.units as units
from extractor import blocks
print(json.dumps({"units": units.__file__, "cwalk": blocks._cwalk is not None, "csax": blocks._csax is not None,
                  "out": out}))
"""


def _run(corpus_root: Path, source_modules: bool, no_cwalk: bool = False) -> dict[str, object]:
    env = {**os.environ, C.SOURCE_ENV: "1" if source_modules else "0", "TEST_NO_CWALK": "1" if no_cwalk else ""}
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


def test_compiled_modules_are_built_in_ci() -> None:
    # CI installs through pyproject.toml/setup.py with a compiler: the compiled modules must load.
    if not os.environ.get("CI"):
        pytest.skip("only CI promises a compiler")
    written_for_c = ("_cblock", "_cbuild", "_cmatch", "_cpasses", "_csax", "_cwalk")
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
    # no compiled code at all: the Python walk, vectors, matching search and block classes
    compiled = _run(corpus_root, source_modules=False)
    pure = _run(corpus_root, source_modules=True, no_cwalk=True)
    assert pure["cwalk"] is False and pure["csax"] is False
    if os.environ.get("CI"):
        assert compiled["csax"] is True
    assert compiled["out"] == pure["out"]


def _fake_build(tmp_path: Path, name: str, text: str) -> Path:
    source = tmp_path / f"{name}.py"
    source.write_text(text)
    (tmp_path / f"{name}{importlib.machinery.EXTENSION_SUFFIXES[0]}").write_bytes(b"")
    return source


def test_an_edited_source_makes_its_build_stale(tmp_path: Path) -> None:
    source = _fake_build(tmp_path, "units", "X = 1\n")
    _fake_build(tmp_path, "records", "Y = 1\n")
    digests = {name: C.source_digest(tmp_path / f"{name}.py") for name in ("units", "records")}
    (tmp_path / C.HASHES_FILE).write_text(json.dumps(digests))
    assert C.stale_modules(tmp_path) == []
    source.write_text("X = 2\n")
    assert C.stale_modules(tmp_path) == ["units"]


def test_a_build_without_recorded_digests_is_stale(tmp_path: Path) -> None:
    _fake_build(tmp_path, "units", "X = 1\n")
    (tmp_path / "records.py").write_text("Y = 1\n")  # a source without a build is not stale
    assert C.stale_modules(tmp_path) == ["units"]


def test_a_build_of_a_module_not_compiled_by_setup_is_stale(tmp_path: Path) -> None:
    # an extension left by another build (not in COMPILED) must not shadow its source unnoticed
    _fake_build(tmp_path, "decode", "X = 1\n")
    (tmp_path / C.HASHES_FILE).write_text(json.dumps({"decode": C.source_digest(tmp_path / "decode.py")}))
    assert C.stale_modules(tmp_path) == ["decode"]


def test_the_compiled_walk_has_no_source_and_is_never_stale(tmp_path: Path) -> None:
    (tmp_path / f"_cwalk{importlib.machinery.EXTENSION_SUFFIXES[0]}").write_bytes(b"")
    assert C.stale_modules(tmp_path) == []
