"""URL policy: which URLs the crawler may request, and the normalized form used as natural key.

normalize_url("HTTP://Example.com:80/a/../b?utm_source=rss&x=1#c")  # 'http://example.com/b?x=1'
"""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit, urlunsplit

from w3lib.url import canonicalize_url

ALLOWED_SCHEMES = frozenset({"http", "https"})
_DEFAULT_PORTS = {"http": 80, "https": 443}
# Feed proxies (FeedBurner, Mailchimp, WordPress plugins) append these; they never select content.
_TRACKING_PREFIXES = ("utm_", "mc_")
_TRACKING_NAMES = frozenset({"fbclid", "gclid"})


def url_scheme(url: str) -> str:
    """Lower-cased scheme of `url`, "" when it has none: url_scheme("FTP://x/") == "ftp"."""
    try:
        return urlsplit(url.strip()).scheme.lower()
    except ValueError:
        return ""


def is_fetchable(url: str) -> bool:
    """True for absolute http(s) URLs with a host: is_fetchable("file:///etc/passwd") is False."""
    try:
        parts = urlsplit(url.strip())
        parts.port  # noqa: B018 -- raises ValueError on a malformed port
    except ValueError:
        return False
    return parts.scheme.lower() in ALLOWED_SCHEMES and bool(parts.hostname)


def _drop_tracking(query: str) -> str:
    pairs = parse_qsl(query, keep_blank_values=True)
    kept = [(k, v) for k, v in pairs if not k.lower().startswith(_TRACKING_PREFIXES) and k not in _TRACKING_NAMES]
    return query if len(kept) == len(pairs) else urlencode(kept)


def normalize_url(url: str, base: str | None = None) -> str:
    """The canonical form of `url` (resolved against `base`) used to recognise an article.

    Scheme and host are lower-cased, default ports, fragments and tracking parameters dropped,
    the query sorted and percent-encoding unified (w3lib's canonicalize_url).
    Non-http URLs are returned canonicalized but must be refused by callers via is_fetchable().
    """
    url = url.strip()
    if base:
        url = urljoin(base, url)
    if url_scheme(url) not in ALLOWED_SCHEMES:
        return url
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return url
    host = (parts.hostname or "").lower()
    if ":" in host:  # IPv6 literal
        host = f"[{host}]"
    if port == _DEFAULT_PORTS.get(parts.scheme.lower()):
        port = None
    netloc = host if port is None else f"{host}:{port}"
    if parts.username or parts.password:
        netloc = f"{parts.username or ''}:{parts.password or ''}@{netloc}"
    cleaned = urlunsplit((parts.scheme.lower(), netloc, parts.path or "/", _drop_tracking(parts.query), ""))
    try:
        return canonicalize_url(cleaned, keep_fragments=False)
    except ValueError:
        return cleaned
