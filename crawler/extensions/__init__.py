"""The crawl run's Scrapy extensions, one component per module, wired by signals (see crawler/settings.py)."""
