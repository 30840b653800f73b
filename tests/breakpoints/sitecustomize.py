"""A breakpoint for crawl tests, loaded from outside: a test puts this directory first on the crawl's
PYTHONPATH (crawl_helpers.BREAKPOINTS) and names the breakpoint in BLOGS_TEST_BREAKPOINT; every
process of that crawl (the crawl and its spawned extraction workers) imports this file at start-up.

"batch-write": the process that marks a batch done stops itself (SIGSTOP) right after that UPDATE,
inside the batch's still open write transaction, after printing BATCH_WRITE_STOPPED to stderr. The
test then kills it or the crawl there; nothing in production code waits for a test.
"""

from __future__ import annotations

import os
import signal
import sys
from typing import Any

BATCH_WRITE_STOPPED = "breakpoint: batch write stopped"

if os.environ.get("BLOGS_TEST_BREAKPOINT") == "batch-write":
    from store.batches import BatchState  # both backends' batches

    _finish_batch = BatchState.finish_batch

    def _finish_then_stop(self: Any, batch_id: int, version: int, now: float) -> None:
        _finish_batch(self, batch_id, version, now)
        print(f"{BATCH_WRITE_STOPPED}: batch {batch_id}", file=sys.stderr, flush=True)
        os.kill(os.getpid(), signal.SIGSTOP)

    BatchState.finish_batch = _finish_then_stop  # type: ignore[method-assign]
