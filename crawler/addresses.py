"""Safe by default: the crawl connects to public addresses only (BLOGS_ALLOW_PRIVATE_ADDRESSES).

A feed, a redirect or a DNS answer must not turn the crawler into a way into the network it runs
in (cloud metadata at 169.254.169.254, 10.x, 127.x ...). The check is on the addresses a host
name resolves to, just before the connection is made to one of them: `PublicAddressResolver`
filters what the reactor's resolver returns, so IP literals in any form (2130706433, 0177.0.0.1,
::ffff:127.0.0.1), names that resolve to internal addresses and DNS rebinding (a name that
answers differently the next time) all meet the same check, as does every redirect (a new
request, a new resolution). The download handler (crawler.politehandler.PoliteDownloadHandler)
turns the resulting lookup failure into one AddressRefused, counts it, and also drops any response
that came from a refused address anyway (a TWISTED_DNS_RESOLVER of one's own without the filter).

address_refusal("10.1.2.3") == "private"; address_refusal("93.184.216.34") is None
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from scrapy.exceptions import IgnoreRequest
from scrapy.resolver import CachingThreadedResolver
from twisted.internet.interfaces import IHostnameResolver, IHostResolution, IResolutionReceiver
from zope.interface import implementer

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from twisted.internet.base import ReactorBase
    from twisted.internet.interfaces import IAddress

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
# Carrier-grade NAT (RFC 6598): not "private" to Python before 3.11.4, internal all the same.
SHARED_ADDRESS_SPACE = ipaddress.ip_network("100.64.0.0/10")

# Host name -> why its last resolution was refused ("127.0.0.1 is loopback"). Written by the
# resolver, read by the download handler: the reactor reports a filtered lookup as an empty answer.
refused_hosts: dict[str, str] = {}


def parse_networks(value: str | Sequence[str] | None) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    """BLOGS_ALLOWED_NETWORKS ("10.0.0.0/8, 192.168.1.7") as networks; ValueError names a bad one."""
    items = value.split(",") if isinstance(value, str) else list(value or [])
    networks = []
    for item in items:
        if item.strip():
            try:
                networks.append(ipaddress.ip_network(item.strip(), strict=False))
            except ValueError:
                raise ValueError(f"BLOGS_ALLOWED_NETWORKS: {item.strip()!r} is not an address or network") from None
    return networks


def address_refusal(address: str | IPAddress, allowed: Sequence[Any] = ()) -> str | None:
    """Why the crawl must not connect to `address` (a word), or None for a public address.

    address_refusal("::ffff:169.254.169.254") == "link-local"; address_refusal("100.64.0.1") == "CGNAT"
    """
    try:
        ip = ipaddress.ip_address(str(address).split("%", 1)[0])  # an IPv6 zone id is no part of it
    except ValueError:
        return "not an IP address"
    if isinstance(ip, ipaddress.IPv6Address):
        embedded = ip.ipv4_mapped or ip.sixtofour or (ip.teredo[1] if ip.teredo else None)
        if embedded is not None:  # ::ffff:10.0.0.1 or 2002:7f00:1::... reaches the IPv4 address inside
            ip = embedded
    if any(ip in network for network in allowed):
        return None
    checks = (
        ("unspecified", ip.is_unspecified),
        ("loopback", ip.is_loopback),
        ("link-local", ip.is_link_local),
        ("multicast", ip.is_multicast),
        ("CGNAT", isinstance(ip, ipaddress.IPv4Address) and ip in SHARED_ADDRESS_SPACE),
        ("reserved", ip.is_reserved),
        ("private", ip.is_private),
        ("not global", not ip.is_global),
    )
    return next((word for word, hit in checks if hit), None)


@implementer(IResolutionReceiver)
class _FilteringReceiver:
    """Passes on the resolved addresses the crawl may connect to; remembers why the others were not."""

    def __init__(self, receiver: Any, host: str, allowed: Sequence[Any]) -> None:  # an IResolutionReceiver
        self.receiver = receiver
        self.host = host
        self.allowed = allowed
        self.passed = 0

    def resolutionBegan(self, resolution: IHostResolution) -> None:
        self.receiver.resolutionBegan(resolution)

    def addressResolved(self, address: IAddress) -> None:
        host = str(getattr(address, "host", ""))
        why = address_refusal(host, self.allowed)
        if why is None:
            self.passed += 1
            self.receiver.addressResolved(address)
        else:
            refused_hosts[self.host] = f"{host} is {why}"

    def resolutionComplete(self) -> None:
        if self.passed:
            refused_hosts.pop(self.host, None)
        self.receiver.resolutionComplete()


@implementer(IHostnameResolver)
class _FilteringNameResolver:
    def __init__(self, inner: Any, allowed: Sequence[Any]) -> None:  # the reactor's IHostnameResolver
        self.inner = inner
        self.allowed = allowed

    def resolveHostName(self, resolutionReceiver: Any, hostName: str, *args: Any, **kw: Any) -> Any:
        receiver = _FilteringReceiver(resolutionReceiver, hostName, self.allowed)
        return self.inner.resolveHostName(receiver, hostName, *args, **kw)


class PublicAddressResolver(CachingThreadedResolver):
    """Scrapy's default resolver (cache, DNS_TIMEOUT) whose answers are filtered by address_refusal,
    unless BLOGS_ALLOW_PRIVATE_ADDRESSES is on. The TWISTED_DNS_RESOLVER of crawler/settings.py."""

    def __init__(
        self, reactor: ReactorBase, cache_size: int, timeout: float, allow_private: bool, allowed: str
    ) -> None:
        super().__init__(reactor, cache_size, timeout)
        self.allow_private = allow_private
        self.allowed = parse_networks(allowed)

    @classmethod
    def from_crawler(cls, crawler: Crawler, reactor: ReactorBase) -> PublicAddressResolver:
        s = crawler.settings
        cache_size = s.getint("DNSCACHE_SIZE") if s.getbool("DNSCACHE_ENABLED") else 0
        return cls(
            reactor,
            cache_size,
            s.getfloat("DNS_TIMEOUT"),
            s.getbool("BLOGS_ALLOW_PRIVATE_ADDRESSES"),
            s.get("BLOGS_ALLOWED_NETWORKS") or "",
        )

    def install_on_reactor(self) -> None:
        super().install_on_reactor()
        if not self.allow_private:  # every connection resolves its host through reactor.nameResolver
            guarded: Any = _FilteringNameResolver(self.reactor.nameResolver, self.allowed)
            self.reactor.installNameResolver(guarded)


class AddressRefused(IgnoreRequest):
    """A request to an address the crawl must not connect to (crawler.responses.classify_failure)."""
