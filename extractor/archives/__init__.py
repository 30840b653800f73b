"""Web archives (WARC/ARC): pages read and grouped by site, and `python -m extractor warc`."""
