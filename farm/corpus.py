"""Replay the WordPress sites of the shared evaluation corpus at their original paths.

Each site's `manifest.json` maps original URLs (origin `http://127.0.0.1:180xx`) to files.
Post pages are served byte-identical. Feeds, comment feeds and the home page hold absolute
links to the original origin; in those (the kinds in `REWRITTEN_KINDS`) the origin is
replaced by the farm's, so a crawler can follow them. WordPress also wrote the feeds'
`atom:link rel="self"` without the port (`http://127.0.0.1/feed/`); that is rewritten too.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from farm.log import normalize_path
from farm.response import Response

DEFAULT_CORPUS_ROOT = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
REWRITTEN_KINDS = frozenset({"feed", "comment-feed", "home"})


@dataclass(frozen=True)
class CorpusEntry:
    """One manifest line, with the URL it has on the farm."""

    url: str
    original_url: str
    path: str  # original path as in the manifest (percent-encoded)
    file: Path
    kind: str
    status: int
    content_type: str


@dataclass(frozen=True)
class CorpusSiteData:
    """A loaded corpus site: its entries and the responses keyed by decoded path."""

    name: str
    directory: Path
    original_origin: str
    facts: dict[str, object]
    entries: list[CorpusEntry]
    routes: dict[str, Response]


def wordpress_sites(corpus_root: Path) -> list[str]:
    """Names of the replayable sites (those with a manifest) under `corpus_root/wordpress`."""
    base = corpus_root / "wordpress"
    if not base.is_dir():
        raise FileNotFoundError(f"no WordPress corpus at {base}")
    return sorted(p.parent.name for p in base.glob("*/manifest.json"))


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def rewrite_origin(body: bytes, original_origin: str, farm_origin: str) -> bytes:
    """Point absolute links at the farm: plain, JSON-escaped, and WordPress's port-less self link."""
    out = body.replace(original_origin.encode(), farm_origin.encode())
    escaped_old = original_origin.replace("/", "\\/").encode()
    out = out.replace(escaped_old, farm_origin.replace("/", "\\/").encode())
    host_only = f"{urlsplit(original_origin).scheme}://{urlsplit(original_origin).hostname}/"
    return out.replace(host_only.encode(), farm_origin.encode() + b"/")


def load_site(
    corpus_root: Path,
    name: str,
    farm_origin: str,
    rewrite_kinds: frozenset[str] = REWRITTEN_KINDS,
) -> CorpusSiteData:
    """Read one site's manifest and files; the bodies stay in memory (a few MB per site)."""
    directory = corpus_root / "wordpress" / name
    manifest_path = directory / "manifest.json"
    if not manifest_path.is_file():
        raise FileNotFoundError(f"corpus site {name!r} has no manifest at {manifest_path}")
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    facts = json.loads((directory / "site.json").read_text(encoding="utf-8"))
    original_origin = _origin(str(facts.get("url") or manifest[0]["url"]))
    entries: list[CorpusEntry] = []
    routes: dict[str, Response] = {}
    for item in manifest:
        path = urlsplit(item["url"]).path or "/"
        file = directory / item["file"]
        body = file.read_bytes()
        if item["kind"] in rewrite_kinds:
            body = rewrite_origin(body, original_origin, farm_origin)
        entries.append(
            CorpusEntry(
                url=farm_origin + path,
                original_url=item["url"],
                path=path,
                file=file,
                kind=item["kind"],
                status=int(item["status"]),
                content_type=item["content_type"],
            )
        )
        routes[normalize_path(path)] = Response(
            int(item["status"]),
            body,
            content_type=item["content_type"],
            last_modified=file.stat().st_mtime,
        )
    return CorpusSiteData(name, directory, original_origin, facts, entries, routes)
