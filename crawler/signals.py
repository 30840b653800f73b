"""The crawl run's own signals: the blogs spider sends them, the run's extensions (crawler.extensions) connect.

crawler.signals.connect(handler, signal=run_opened)   # handler(spider=..., store=...)
"""

# The store is open and the run's clock set; nothing is requested yet. Arguments: spider, store.
run_opened = object()
# The spider is closing; the store closes right after the handlers return. Arguments: spider, store, reason.
run_closing = object()
