"""Work on what the store holds, outside Scrapy's item flow.

- extraction: the extraction jobs (a full batch, pages with their site's profile, a comment feed),
  run by the crawl's worker pool (pipelines.extract), by `reextract` and by `import-warc`;
- commentfeeds, commentapi: stored comment feeds and comment-system reads parsed into records;
- reextract (+ reextract_dask): every post and comment rebuilt from the stored snapshots;
- warcimport (+ warcimport_dask): web archives into the store; warcwriter: pages out as WARC.

Layers (tests/test_layers.py): below pipelines/ (Scrapy's item pipelines run these jobs) and above
crawler/ (a comment feed is read with crawler.feedreader).
"""
