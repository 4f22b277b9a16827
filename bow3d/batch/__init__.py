"""bow3d.batch: one executor for batch work (games, heatmaps, films) on local processes or on Ray.

Layer: base (every layer may use it; it imports none: each layer brings its own jobs, such as
bow3d.replay.simulate.GameJob). Public surface:

    with open_executor("local" | "ray", workers=None, address=None) as executor:
        for result in executor.map(job, items, total=n, label="simulating", unit="game"):
            ...                                  # in the items' order, streamed, a progress bar on stderr
    Job                                          # frozen dataclass: open() once per worker -> runner.run(item)
    Spool(encode, decode, path=None)             # results streamed to disk, read back in order
"""

from bow3d.batch.engines import ENGINES, open_executor
from bow3d.batch.executor import (
                                  MAX_WORKERS,
                                  Executor,
                                  Job,
                                  LocalExecutor,
                                  SerialExecutor,
                                  WorkerFailed,
                                  check_workers,
                                  default_workers,
)
from bow3d.batch.spool import Spool

__all__ = ["ENGINES", "MAX_WORKERS", "Executor", "Job", "LocalExecutor", "SerialExecutor", "Spool", "WorkerFailed",
           "check_workers", "default_workers", "open_executor"]
