"""The harvester's Scrapy add-on: the User-Agent from BLOGS_CONTACT, unless USER_AGENT is set explicitly."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

PRODUCT = "blog-harvester"
VERSION = "0.1"


def user_agent(contact: str | None) -> str:
    """The User-Agent: user_agent("mailto:me@example.org").endswith("+mailto:me@example.org)")."""
    contact = (contact or "").strip()
    tail = f"+{contact}" if contact else "contact not configured"
    return f"{PRODUCT}/{VERSION} (research feed harvester; {tail})"


class BlogsAddon:
    """Scrapy add-on: USER_AGENT from BLOGS_CONTACT, unless USER_AGENT was given with higher priority."""

    def update_settings(self, settings: BaseSettings) -> None:
        priority = settings.getpriority("USER_AGENT") or 0
        if priority < 20:  # below "project": nobody chose a User-Agent on purpose
            settings.set("USER_AGENT", user_agent(settings.get("BLOGS_CONTACT")), priority="addon")
