"""Counts and facts about a loaded model, for `bow3d inspect` and the benchmarks."""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass

from bow3d.ldraw.model import Model


@dataclass(frozen=True)
class ModelStats:
    """What `bow3d inspect` reports; sizes at full LDraw detail, bounds in the world frame (LDU)."""

    file: str
    library: str
    parts: int
    unique_parts: int
    triangles: int
    vertices: int
    edge_lines: int
    optional_lines: int
    bounds_min: tuple[float, float, float]
    bounds_max: tuple[float, float, float]
    colours: dict[str, int]
    part_counts: dict[str, int]
    missing_parts: list[str]
    diagnostics: list[str]
    load_seconds: float
    cache_hits: int

    def as_dict(self) -> dict:
        return asdict(self)


def model_stats(model: Model) -> ModelStats:
    """Gather the stats without building the merged mesh (sums over distinct parts)."""
    sizes = {key: part for key, part in model.parts.items()}
    per_instance = [sizes[key] for key in model.instance_part]
    lo, hi = model.bounds()
    colours = Counter(i.colour_name for i in model.instances)
    missing = sorted({f"{i.name} ({i.file} line {i.line})" for i in model.missing_parts})
    return ModelStats(
        file=model.path,
        library=model.library.describe(),
        parts=len(model.instances),
        unique_parts=len({i.name for i in model.instances}),
        triangles=sum(p.triangles.shape[0] for p in per_instance),
        vertices=sum(p.positions.shape[0] for p in per_instance),
        edge_lines=sum(p.edges.shape[0] for p in per_instance),
        optional_lines=sum(p.optional_edges.shape[0] for p in per_instance),
        bounds_min=tuple(round(float(v), 3) for v in lo),
        bounds_max=tuple(round(float(v), 3) for v in hi),
        colours=dict(colours.most_common()),
        part_counts=dict(Counter(i.name for i in model.instances).most_common()),
        missing_parts=missing,
        diagnostics=[str(d) for d in model.diagnostics],
        load_seconds=round(model.load_seconds, 4),
        cache_hits=model.cache_hits,
    )
