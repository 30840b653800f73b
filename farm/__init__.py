"""A local blog farm for tests, demos and benchmarks: HTTP servers on 127.0.0.1, random ports.

    from farm import BlogFarm, Clock

    with BlogFarm(clock=Clock(start=t0)) as farm:
        tt21 = farm.serve_corpus_site("tt21")        # corpus replay, original paths
        gen = farm.add_generated_blog("gen1", articles=20, start=t0)
        farm.clock.advance(3600)                     # the next article appears
        farm.misbehave(gen.feed_url, "status", status=503, retry_after=120)
        farm.requests_for(gen)                       # what the crawler fetched, and when

* Corpus sites (`<corpus_root>/wordpress/<site>`) are replayed at their original paths, one
  port per site. Post pages are byte-identical to the files; feeds, comment feeds and the home
  page get the original origin (`http://127.0.0.1:180xx`) rewritten to the farm's.
* Generated blogs publish articles and receive comments by the farm clock (`Clock`); pages
  are rendered per request, so blogs of thousands of articles are cheap.
* Every request is logged (`RequestRecord`); every 200 carries ETag and Last-Modified and
  conditional requests get 304.
* `misbehave()` makes a URL or path fail in a chosen way; `add_route()` serves any body.

`python -m farm --help` runs a farm in the foreground for demos and benchmarks.
"""

from farm.clock import Clock
from farm.corpus import DEFAULT_CORPUS_ROOT
from farm.generated import GeneratedArticle, GeneratedBlog, GeneratedComment
from farm.hostile import MODES
from farm.log import RequestRecord
from farm.server import BlogFarm, FarmSite

__all__ = [
    "DEFAULT_CORPUS_ROOT",
    "MODES",
    "BlogFarm",
    "Clock",
    "FarmSite",
    "GeneratedArticle",
    "GeneratedBlog",
    "GeneratedComment",
    "RequestRecord",
]
