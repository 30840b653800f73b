"""Move extractor's flat modules into sub-packages and rewrite every reference (re-runnable).

    python tools/move_extractor_modules.py [ROOT]      # ROOT: the checkout, default the current directory

then check as before a commit (ruff, mypy, `pytest -m 'not slow' -n 2`) and rebuild (`make setup`:
the compiled modules' names changed with their paths). A merge that conflicts in the import lines of
a moved module is resolved by keeping the other branch's lines (the flat ``from .units import X``)
and running this again: it rewrites them.

Idempotent: a module already moved is left where it is, and a reference already rewritten no longer
matches, so running it again after a merge only fixes what the merge brought (a new import of an
old path, an edit to a moved module made on another branch).

What it rewrites:
- relative imports inside extractor/ (``from .blocks import X`` in a moved module becomes
  ``from ..core.blocks import X``; ``from . import a, b`` is split by where each module now lives);
- dotted names everywhere (``extractor.units`` -> ``extractor.comments.units``, imports, patch
  targets, docs), and ``from extractor import units`` -> ``from extractor.comments import units``;
- file paths (``extractor/units.py`` -> ``extractor/comments/units.py``) in code and docs;
- the names in ``COMPILED`` (extractor/_compiled.py), which are dotted below the package.

The compiled passes (``_c*.pyx``/``.pxd``), ``speedups.py`` (the seam that chooses them),
``_compiled.py``, ``cli.py``, ``__init__.py`` and ``__main__.py`` stay at the top of extractor/.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

# Imports go one way: core <- speedups <- comments <- separation <- (cli, evaluation, report, archives)
PACKAGES = {
    "core": "The words every part of the extractor shares: a page decoded and read into blocks, the block\n"
    "vectors and their matching, roles, options, dates, tokens. Imports nothing else of the extractor.",
    "comments": "The comment wing: comment records and their units, replies and authors, the evidence that a\n"
    "block is a comment, the comment-feed fallback, page shapes, post metadata, comment feeds and systems.\n"
    "Imports core and speedups, never the method (separation).",
    "separation": "The method that separates a post from its comments: the steps in order (steps.py), one output\n"
    "assembly (method.py), run on a set of pages or a page alone (context.py) or with a site profile\n"
    "(profile.py). Imports core, comments and speedups.",
}
MOVES = {
    **{
        name: f"core.{name}"
        for name in (
            "blocks",
            "charsets",
            "dates",
            "decode",
            "features",
            "hygiene",
            "matching",
            "options",
            "roles",
            "sitekeys",
            "tokens",
            "treepasses",
        )
    },
    **{
        name: f"comments.{name}"
        for name in (
            "authors",
            "comment_words",
            "commentfeed",
            "commentsystems",
            "evidence",
            "fallback",
            "lone_records",
            "postmeta",
            "records",
            "replies",
            "shapes",
            "units",
        )
    },
    **{
        name: f"separation.{name}"
        for name in (
            "context",
            "identifiers",
            "method",
            "profile",
            "recurring",
            "rendered",
            "robust",
            "separate",
            "single_page",
            "steps",
        )
    },
}
SKIP = {".git", ".venv", "build", "node_modules", "__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache"}
SUFFIXES = {".py", ".pyx", ".pxd", ".md", ".toml", ".cfg", ".sh", ".txt", ".yml", ".yaml", ".ini", ".rst"}
SELF = Path("tools/move_extractor_modules.py")


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=True).stdout


def text_files(root: Path) -> Iterator[Path]:
    names = git(root, "ls-files").split() + git(root, "ls-files", "-o", "--exclude-standard").split()
    for rel in sorted(set(names)):
        path = root / rel
        if Path(rel) == SELF or set(Path(rel).parts) & SKIP or not path.is_file():
            continue
        if path.suffix in SUFFIXES or path.name == "Makefile":
            yield path


def move(root: Path) -> None:
    for package, doc in PACKAGES.items():
        init = root / "extractor" / package / "__init__.py"
        if not init.exists():
            init.parent.mkdir(exist_ok=True)
            init.write_text(f'"""{doc}"""\n')
            git(root, "add", str(init))
    for old, new in MOVES.items():
        source = root / "extractor" / f"{old}.py"
        target = root / "extractor" / (new.replace(".", "/") + ".py")
        if source.exists() and not target.exists():
            git(root, "mv", str(source), str(target))


def exists(root: Path, dotted: str) -> bool:
    """Whether ``dotted`` (``extractor.core.blocks``) names a module or package in the checkout."""
    base = root.joinpath(*dotted.split("."))
    return base.is_dir() or any(base.with_name(base.name + s).exists() for s in (".py", ".pyx", ".pxd"))


def moved(dotted: str) -> str:
    """The new dotted name of an old one (``extractor.units.X`` -> ``extractor.comments.units.X``)."""
    parts = dotted.split(".")
    if len(parts) > 1 and parts[0] == "extractor" and parts[1] in MOVES:
        return ".".join(["extractor", *MOVES[parts[1]].split("."), *parts[2:]])
    return dotted


def resolve(package: str, dots: str, rest: str) -> str:
    parts = package.split(".")
    parts = parts[: len(parts) - (len(dots) - 1)]
    return ".".join(parts + ([rest] if rest else []))


def relative(package: str, target: str) -> str:
    """``target`` as a relative name seen from ``package`` (``..core.blocks``)."""
    here, there = package.split("."), target.split(".")
    common = 0
    while common < min(len(here), len(there)) and here[common] == there[common]:
        common += 1
    return "." * (len(here) - common + 1) + ".".join(there[common:])


def import_lines(m: re.Match[str], groups: dict[str, list[str]]) -> str:
    """One ``from X import ...`` line per module the names now come from; a trailing comment stays last."""
    lines = [f"{m['indent']}from {where} import {', '.join(items)}" for where, items in groups.items()]
    return "\n".join([*lines[:-1], lines[-1] + (m["comment"] or "")])


def fix_relative_imports(root: Path, path: Path, text: str) -> str:
    rel = path.relative_to(root).with_suffix("")
    parts = list(rel.parts)
    package = ".".join(parts[:-1])  # the package a relative import starts from (an __init__'s own)
    was_moved = len(parts) == 3 and f"{parts[1]}.{parts[2]}" in MOVES.values()
    old_package = "extractor" if was_moved else package

    def target_of(dots: str, rest: str) -> str | None:
        now = resolve(package, dots, rest)
        if exists(root, now):
            return None  # already right
        then = moved(resolve(old_package, dots, rest))
        return then if exists(root, then) else None

    def from_module(m: re.Match[str]) -> str:
        target = target_of(m["dots"], m["rest"])
        return m[0] if target is None else f"{m['indent']}from {relative(package, target)} import"

    def from_package(m: re.Match[str]) -> str:
        groups: dict[str, list[str]] = {}
        for item in (i.strip() for i in m["names"].split(",")):
            target = target_of(m["dots"], item.split()[0])
            where = m["dots"] if target is None else relative(package, target.rsplit(".", 1)[0])
            groups.setdefault(where, []).append(item)
        return import_lines(m, groups)

    text = re.sub(r"^(?P<indent>[ \t]*)from (?P<dots>\.+)(?P<rest>\w[\w.]*) import", from_module, text, flags=re.M)
    return re.sub(
        r"^(?P<indent>[ \t]*)from (?P<dots>\.+) import (?P<names>[\w ,]+?)(?P<comment>\s*#.*)?$",
        from_package,
        text,
        flags=re.M,
    )


def fix_absolute(text: str) -> str:
    def from_extractor(m: re.Match[str]) -> str:
        groups: dict[str, list[str]] = {}
        for item in (i.strip() for i in m["names"].split(",")):
            new = MOVES.get(item.split()[0])
            groups.setdefault("extractor" if new is None else f"extractor.{new.rsplit('.', 1)[0]}", []).append(item)
        return import_lines(m, groups)

    text = re.sub(
        r"^(?P<indent>[ \t]*)from extractor import (?P<names>[\w ,]+?)(?P<comment>\s*#.*)?$",
        from_extractor,
        text,
        flags=re.M,
    )
    names = "|".join(sorted(MOVES, key=len, reverse=True))
    text = re.sub(rf"(?<![\w.])extractor\.({names})\b", lambda m: f"extractor.{MOVES[m[1]]}", text)
    return re.sub(
        rf"(?<![\w.])extractor/({names})\.py\b", lambda m: f"extractor/{MOVES[m[1]].replace('.', '/')}.py", text
    )


def fix_compiled_list(text: str) -> str:
    # only the one-name lines of the COMPILED tuple
    return re.sub(r'^(    )"(\w+)",$', lambda m: f'{m[1]}"{MOVES.get(m[2], m[2])}",', text, flags=re.M)


def main() -> None:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    move(root)
    changed = []
    for path in text_files(root):
        try:
            text = path.read_text()
        except UnicodeDecodeError:
            continue
        new = text
        rel = path.relative_to(root)
        if rel.parts[0] == "extractor" and path.suffix in (".py", ".pyx", ".pxd"):
            new = fix_relative_imports(root, path, new)
        new = fix_absolute(new)
        if rel == Path("extractor/_compiled.py"):
            new = fix_compiled_list(new)
        if new != text:
            path.write_text(new)
            changed.append(str(rel))
    print(f"rewrote {len(changed)} files" + "".join(f"\n  {name}" for name in changed))
    # rewritten imports are sorted again the way the house lints them (isort rules of ruff)
    ruff = root / ".venv" / "bin" / "ruff"
    python = [name for name in changed if name.endswith(".py")]
    if python and ruff.exists():
        subprocess.run([str(ruff), "check", "--select", "I", "--fix", "--quiet", *python], cwd=root, check=False)
        subprocess.run([str(ruff), "format", "--quiet", *python], cwd=root, check=False)


if __name__ == "__main__":
    main()
