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
import extractor.units as units
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


def test_a_pass_written_for_c_has_no_source_and_is_never_stale(tmp_path: Path) -> None:
    (tmp_path / f"_csax{importlib.machinery.EXTENSION_SUFFIXES[0]}").write_bytes(b"")
    assert C.stale_modules(tmp_path) == []
