"""Worker plugin for the local Dask clusters this project starts (`--dask local:N`).

Imported only where a cluster is used: Dask costs every `scrapy` command 1-3 s to import.
"""

from __future__ import annotations

import logging

from distributed import Worker, WorkerPlugin
from distributed.core import Status

_HEARTBEAT_FAILED = "Failed to communicate with scheduler during heartbeat"


class QuietClosingWorker(WorkerPlugin):
    """A heartbeat cut short because its worker is closing (our own teardown: the cluster closes
    its workers as the job ends) is not logged as an ERROR with a traceback; a heartbeat that
    fails while the worker runs still is."""

    def setup(self, worker: Worker) -> None:
        logging.getLogger("distributed.worker").addFilter(_ClosingHeartbeatFilter(worker))


class _ClosingHeartbeatFilter(logging.Filter):
    def __init__(self, worker: Worker) -> None:
        super().__init__()
        self.worker = worker

    def filter(self, record: logging.LogRecord) -> bool:
        closing = self.worker.status not in (Status.running, Status.paused)
        return not (closing and str(record.msg).startswith(_HEARTBEAT_FAILED))
