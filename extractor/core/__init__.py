"""The words every part of the extractor shares: a page decoded and read into blocks, the block
vectors and their matching, roles, options, dates, tokens. Imports nothing else of the extractor."""
