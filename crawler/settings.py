"""Scrapy settings of the blog harvester. Every value can be overridden with `-s NAME=VALUE`.

The BLOGS_* settings are the harvester's own (see the README's table; older names without the prefix are still
accepted with a warning, crawler.validation.OLD_NAMES).
"""

BOT_NAME = "blog-harvester"
SPIDER_MODULES = ["crawler.spiders"]
NEWSPIDER_MODULE = "crawler.spiders"

# -- the harvester's own settings -------------------------------------------------------------
# SQLite store; "" means blogs.db in the project directory (next to scrapy.cfg).
BLOGS_DB = ""
# Feeds file; "" means feeds.txt in the project directory. `-a feeds=PATH` wins.
BLOGS_FEEDS = ""
# Who to contact about this crawler; goes into the User-Agent (e.g. "mailto:you@example.org").
BLOGS_CONTACT = ""
# Re-fetch offsets after publication (s, m, h, d, w units); after the last one the article is done.
BLOGS_REFETCH_AFTER = "1h,6h,1d,3d,7d,30d"
# Feed poll interval bounds (seconds): about a week / entries of the last week, clamped.
BLOGS_FEED_MIN_INTERVAL = 300
BLOGS_FEED_MAX_INTERVAL = 86400
# First delay of the exponential backoff after a failed poll (seconds; doubled per failure, jittered).
BLOGS_BACKOFF_BASE = 300
# Mute a feed after this many consecutive failed polls (a 410 mutes at once).
BLOGS_MUTE_AFTER = 8
# Give up an article page after this many failed fetches.
BLOGS_ARTICLE_MAX_FAILURES = 5
# Entries read from one feed response at most.
BLOGS_MAX_ENTRIES = 500
# Watch mode re-reads the feeds file and the schedule at least this often (seconds).
BLOGS_WATCH_MAX_SLEEP = 300
# Added to the system clock (seconds); lets tests and demos replay a farm whose clock is shifted.
BLOGS_CLOCK_OFFSET = 0
# robots.txt Crawl-delay is honoured up to this many seconds per request.
# A progress line at INFO this often (seconds; 0: none): feeds polled/due/failing, articles, backlog.
BLOGS_PROGRESS_INTERVAL = 60
BLOGS_OBEY_CRAWL_DELAY = True
BLOGS_CRAWL_DELAY_MAX = 60

# -- politeness and safety ---------------------------------------------------------------------
ROBOTSTXT_OBEY = True
ROBOTSTXT_USER_AGENT = "blog-harvester"
# Seconds a host has to answer for its robots.txt; one that does not is taken as down for the run.
BLOGS_ROBOTS_TIMEOUT = 10
# USER_AGENT is built from BLOGS_CONTACT by crawler.addon.BlogsAddon (set it to override).
ADDONS = {"crawler.addon.BlogsAddon": 0}
CONCURRENT_REQUESTS = 16
CONCURRENT_REQUESTS_PER_DOMAIN = 2
AUTOTHROTTLE_ENABLED = True
AUTOTHROTTLE_START_DELAY = 1.0
AUTOTHROTTLE_MAX_DELAY = 30.0
AUTOTHROTTLE_TARGET_CONCURRENCY = 1.0
DOWNLOAD_DELAY = 0
DOWNLOAD_TIMEOUT = 30
DOWNLOAD_MAXSIZE = 32 * 1024 * 1024  # also caps decompressed size: gzip bombs are dropped
DOWNLOAD_WARNSIZE = 8 * 1024 * 1024
DNS_TIMEOUT = 10
RETRY_TIMES = 1
# The spider logs every failure once with its feed or article URL; no second ERROR from Scrapy.
RETRY_GIVE_UP_LOG_LEVEL = "DEBUG"
# Only http(s) is ever requested: the other schemes have no download handler at all.
# http(s): Scrapy's handler plus Retry-After holds and the address check (crawler.politehandler).
DOWNLOAD_HANDLERS = {
    "file": None,
    "data": None,
    "ftp": None,
    "s3": None,
    "http": "crawler.politehandler.PoliteDownloadHandler",
    "https": "crawler.politehandler.PoliteDownloadHandler",
}
COOKIES_ENABLED = False
METAREFRESH_ENABLED = False
REDIRECT_MAX_TIMES = 10

DOWNLOADER_MIDDLEWARES = {
    "crawler.crawldelay.CrawlDelayMiddleware": 110,
    # robots.txt as Scrapy obeys it, and a host that does not answer for it fails fast (crawler.robots).
    "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": None,
    "crawler.robots.HostAwareRobotsTxtMiddleware": 100,
}
# A full disk (or any store fault) raised in a spider callback or an item pipeline stops the
# crawl in one line (crawler.outcome); Scrapy's traceback of it goes to DEBUG.
LOG_FORMATTER = "crawler.outcome.StoreFaultLogFormatter"
# The crawl run around the spider, one extension each (crawler/extensions/): the lock, the run record
# and summary, the site leases, watch mode's timer; their handlers of a signal run in this order.
# crawler.progress's harvest line replaces Scrapy's "Crawled N pages (at N pages/min)".
EXTENSIONS = {
    "crawler.extensions.runlock.CrawlLock": 10,
    "crawler.extensions.runrecord.RunRecord": 20,
    "crawler.extensions.leases.LeaseKeeper": 30,
    "crawler.extensions.watch.WatchTimer": 40,
    "crawler.extensions.quietlogs.QuietDuplicateErrorsExtension": 0,
    "crawler.progress.HarvestProgress": 0,
    "scrapy.extensions.logstats.LogStats": None,
}
# Persist first; then batches per site and extraction, off the reactor (pipelines.extract).
ITEM_PIPELINES = {
    "pipelines.persist.PersistPagePipeline": 100,
    "pipelines.warcpipeline.WarcPipeline": 150,  # only with BLOGS_WARC_DIR
    "pipelines.render.RenderCommentsPipeline": 160,  # off unless BLOGS_RENDER_COMMENTS > 0
    "pipelines.extract.ExtractPipeline": 200,
}
# Also write every stored page as WARC into this folder (pipelines.warcpipeline), files rotated at this size.
BLOGS_WARC_DIR = ""
BLOGS_WARC_MAX_SIZE = 1 << 30
# Comments that load by script (issue 31): endpoint requests per site and run (crawler.commentapi),
# comments per request; renders in headless Chromium per minute (0: off) and seconds per render.
BLOGS_COMMENT_API_BUDGET = 200
BLOGS_COMMENT_API_PAGE_SIZE = 100
# Disqus answers its thread API only with the forum's public API key (empty: Disqus threads say so).
BLOGS_DISQUS_API_KEY = ""
# utterances threads are GitHub issues, read from GitHub's REST API (another base: GitHub Enterprise);
# a token only raises its rate limit (60 requests an hour without one).
BLOGS_GITHUB_API = "https://api.github.com"
BLOGS_GITHUB_TOKEN = ""
BLOGS_RENDER_COMMENTS = 0
BLOGS_RENDER_TIMEOUT = 30
BLOGS_RENDER_SITE_BUDGET = 0  # renders per site and run (0: no limit beyond the per-minute one)
# `scrapy sites|posts|comments|search|export|reextract` (commands), and `scrapy crawl`
# itself (commands/crawl.py: lock first, summary last, exit codes).
COMMANDS_MODULE = "commands"

# -- extraction (pipelines.extract) -------------------------------------------------------------
# First fetches of distinct articles per site extracted together as one set; each full batch
# also teaches the site's next profile version.
BLOGS_BATCH_SIZE = 10
# Where extraction runs: "process" (worker processes) or "thread"; see pipelines/extract.py.
BLOGS_EXTRACT_MODE = "process"
BLOGS_EXTRACT_WORKERS = 1
# A page matching less than this share of its site's profile (template drift) makes it re-learn.
BLOGS_EXTRACT_DRIFT_THRESHOLD = 0.5
# Off: pages are only stored (`scrapy reextract` extracts them later).
BLOGS_EXTRACT_ENABLED = True
# Comment feeds as a check: warn when a site's agreement (count exactness or token F1) falls
# below this, or by more than the drop since the last run.
BLOGS_COMMENT_FEED_AGREEMENT_MIN = 0.8
BLOGS_COMMENT_FEED_AGREEMENT_DROP = 0.15

# No listening sockets: neither the telnet console nor the remote-control HTTP server.
TELNETCONSOLE_ENABLED = False
REMOTE_CONTROL_ENABLED = False

# Scrapy checks a generator callback's source for `return value` (inspect.getsource + ast.parse)
# on every response: its cache is keyed by the bound method, a new object per request, so it
# never hits: ~15% of the reactor's busy time in bench/crawl_speed.py. Our callbacks return nothing.
WARN_ON_GENERATOR_RETURN_VALUE = False

# -- safety and politeness promises (issue 32) ------------------------------------------------
# Off: no connection to loopback, private, link-local, CGNAT, multicast, unspecified or reserved
# addresses (checked on the resolved address, every redirect too); the farm, demo and tests turn it on.
BLOGS_ALLOW_PRIVATE_ADDRESSES = False
# Addresses or networks allowed even when private ("10.1.0.0/16, 192.168.1.7"): an intranet blog.
BLOGS_ALLOWED_NETWORKS = ""
TWISTED_DNS_RESOLVER = "crawler.addresses.PublicAddressResolver"

LOG_LEVEL = "INFO"
FEED_EXPORT_ENCODING = "utf-8"
