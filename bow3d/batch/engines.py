"""The engines of the batch executor by name: `open_executor("local" | "ray", workers, address)`.

Layer: base (imports no bow3d layer). The local processes are bow3d.batch.executor's, the Ray actors
bow3d.batch.ray_engine's (importing that module needs no Ray: Ray is imported when a Ray executor opens).
"""

from __future__ import annotations

from bow3d.batch.executor import Executor, LocalExecutor, SerialExecutor, check_workers, default_workers
from bow3d.batch.ray_engine import RayExecutor
from bow3d.errors import UserInputError
from bow3d.i18n import _

ENGINES = ("local", "ray")


def open_executor(engine: str = "local", workers: int | None = None, address: str | None = None) -> Executor:
    """An executor: `local` (processes on this machine; `workers` default its cores, 1 runs in this
    process) or `ray` (a local Ray instance, or the cluster at `address`; `workers` default every CPU
    Ray has). Raises UserInputError for an unknown engine or a Ray that cannot be had."""
    check_workers(workers)
    if engine == "local":
        if address is not None:
            raise UserInputError(_("--address goes with --engine ray (the Ray cluster to run on)"))
        count = workers or default_workers()
        return SerialExecutor() if count == 1 else LocalExecutor(count)
    if engine == "ray":
        return RayExecutor(workers=workers, address=address)
    raise UserInputError(_("--engine {engine!r}: choose one of {value}")
                         .format(engine=engine, value=', '.join(ENGINES)))
