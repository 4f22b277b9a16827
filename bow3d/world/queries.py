"""Measures by convention, bases, and the area queries rulesets ask: radius, cone, template, segment.

Layer: world. Units: positions and lengths given in studs (or in `unit`, see bow3d.units) at the
API, LDU inside; results in the unit asked for. Plan-view queries (radius, cone, template) work
on bases seen from above (`World.base`); `bodies_along` works on the real 3D meshes. Every query
looks at placed bodies only; results are ordered nearest first (ties by id).
"""

from __future__ import annotations

import math

import numpy as np

from bow3d.errors import UserInputError
from bow3d.i18n import _
from bow3d.units import LDU_PER_STUD as STUD, from_unit, to_unit
from bow3d.world import plan
from bow3d.world.raycast import CONTINUE_LDU, near_bodies
from bow3d.world.report import Crossing

MEASURES = ("heads", "bases", "front_edge", "bodies", "centres")
WITHIN = ("centres", "bases", "heads")
MAX_DECOR_CROSSINGS = 4096  # decor triangles a segment goes on past in bodies_along (then it stops)


def bases(world, rows) -> np.ndarray:
    """(B, 4, 2) float64 world XY corners (LDU) of the bases of body rows (B,): front-left first, CCW."""
    rows = np.asarray(rows, np.int64).reshape(-1)
    x0, x1, y0, y1 = world._base_local[rows].T
    local = np.stack([np.stack([x0, y0], -1), np.stack([x1, y0], -1), np.stack([x1, y1], -1),
                      np.stack([x0, y1], -1)], axis=1)
    return np.einsum("bij,bkj->bki", world.poses[rows, :2, :2], local) + world.poses[rows, None, :2, 3]


def footprints(world, rows) -> np.ndarray:
    """(B, 4, 2) world XY corners (LDU) of the model footprints of body rows: front-left first, CCW."""
    rows = np.asarray(rows, np.int64).reshape(-1)
    x0, x1, y0, y1 = np.stack([world._rows[r].template.footprint for r in rows]).T if len(rows) else \
        np.zeros((4, 0))
    local = np.stack([np.stack([x0, y0], -1), np.stack([x1, y0], -1), np.stack([x1, y1], -1),
                      np.stack([x0, y1], -1)], axis=1)
    return np.einsum("bij,bkj->bki", world.poses[rows, :2, :2], local) + world.poses[rows, None, :2, 3]


def heads(world, rows) -> np.ndarray:
    """(B, 3) world head points (eyes) of body rows, LDU."""
    rows = np.asarray(rows, np.int64).reshape(-1)
    local = np.stack([world._rows[r].template.head for r in rows]) if len(rows) else np.zeros((0, 3))
    return np.einsum("bij,bj->bi", world.poses[rows, :3, :3], local) + world.poses[rows, :3, 3]


def measure(world, a: str, b: str, between: str = "heads", unit: str = "studs") -> float:
    """See World.measure."""
    ra, rb = world.body(a).index, world.body(b).index
    if between == "heads":
        ldu = float(np.linalg.norm(world.head(a) - world.head(b)))
    elif between == "centres":
        ldu = float(np.linalg.norm(world.poses[ra, :2, 3] - world.poses[rb, :2, 3]))
    elif between in ("bases", "front_edge"):
        shape = bases(world, [ra])[0]
        ldu = float(plan.gaps(shape if between == "bases" else shape[:2], bases(world, [rb]))[0])
    elif between == "bodies":
        flat = float(plan.gaps(footprints(world, [ra])[0], footprints(world, [rb]))[0])
        (za0, za1), (zb0, zb1) = _heights(world, ra), _heights(world, rb)
        ldu = math.hypot(flat, max(0.0, za0 - zb1, zb0 - za1))  # two upright prisms: plan and height apart
    else:
        raise UserInputError(_("unknown measuring convention {between!r}; use one of {value}")
                             .format(between=between, value=', '.join(MEASURES)))
    return float(to_unit(ldu, unit))


def _heights(world, row: int) -> tuple[float, float]:
    z = float(world.poses[row, 2, 3])
    return z, z + world._rows[row].template.height


def _candidates(world, kinds, exclude) -> np.ndarray:
    """Rows of placed bodies of the given kinds (None: all), ids in `exclude` left out."""
    kinds = None if kinds is None else ({kinds} if isinstance(kinds, str) else set(kinds))
    skip = {exclude} if isinstance(exclude, str) else set(exclude)
    return np.array([b.index for b in world._rows if world.active[b.index] and b.id not in skip and
                     (kinds is None or b.kind in kinds)], np.int64)


def _origin(world, origin) -> tuple[np.ndarray, int | None, float]:
    """A body id or a point (x, y) in studs -> (XY in LDU, the body's row or None, its facing)."""
    if isinstance(origin, str):
        body = world.body(origin)
        return world.poses[body.index, :2, 3].copy(), body.index, body.facing
    xy = np.asarray(origin, np.float64).reshape(-1)
    if xy.shape != (2,):
        raise UserInputError(_("a point on the field is (x, y) in studs, got {origin!r}").format(origin=origin))
    return xy * STUD, None, math.nan


def _result(world, rows: np.ndarray, distance_ldu: np.ndarray, keep: np.ndarray, unit: str) -> dict[str, float]:
    rows, distance_ldu = rows[keep], distance_ldu[keep]
    ids = [world._rows[r].id for r in rows]
    order = sorted(range(len(ids)), key=lambda k: (round(float(distance_ldu[k]), 6), ids[k]))
    return {ids[k]: float(to_unit(distance_ldu[k], unit)) for k in order}


def bodies_within(world, origin, radius: float, unit: str = "studs", kinds=None, between: str = "centres",
                  exclude=()) -> dict[str, float]:
    """See World.bodies_within. 'heads' (3D, eye to eye) needs a body as the origin."""
    xy, row, _unused = _origin(world, origin)
    skip = (*([exclude] if isinstance(exclude, str) else exclude), *([origin] if row is not None else []))
    rows = _candidates(world, kinds, skip)
    if between == "centres":
        dist = np.linalg.norm(world.poses[rows, :2, 3] - xy, axis=1) if len(rows) else np.zeros(0)
    elif between == "bases":
        shape = bases(world, [row])[0] if row is not None else np.repeat(xy[None], 2, axis=0)
        dist = plan.gaps(shape, bases(world, rows))
    elif between == "heads" and row is not None:
        dist = np.linalg.norm(heads(world, rows) - world.head(origin), axis=1)
    else:
        raise UserInputError(_("unknown convention {between!r} for bodies_within (use {value}; 'heads' "
                               "from a body)").format(between=between, value=', '.join(WITHIN)))
    return _result(world, rows, dist, dist <= from_unit(radius, unit) + 1e-9, unit)


def bodies_in_cone(world, apex, heading_deg: float | None, half_angle_deg: float, length: float,
                   unit: str = "studs", kinds=None, exclude=()) -> dict[str, float]:
    """See World.bodies_in_cone. Distance: from the apex to the nearest point of the base (plan view)."""
    xy, row, facing = _origin(world, apex)
    heading = facing if heading_deg is None else float(heading_deg)
    if not 0.0 < half_angle_deg <= 180.0 or not math.isfinite(heading):
        raise UserInputError(_("a cone needs 0 < half angle <= 180 degrees and a heading, got "
                               "{half_angle_deg!r}, {heading_deg!r}")
                             .format(half_angle_deg=half_angle_deg, heading_deg=heading_deg))
    skip = (*([exclude] if isinstance(exclude, str) else exclude), *([apex] if row is not None else []))
    rows = _candidates(world, kinds, skip)
    polys = bases(world, rows)
    inside = np.zeros(len(rows), bool)
    for piece in plan.sector(xy, heading, half_angle_deg, float(from_unit(length, unit))):  # at most 2 pieces
        inside |= plan.overlaps(piece, polys)
    return _result(world, rows, plan.point_gaps(xy, polys), inside, unit)


def bodies_in_template(world, origin, heading_deg: float | None, length: float, width: float,
                       near_width: float | None = None, unit: str = "studs", kinds=None,
                       exclude=()) -> dict[str, float]:
    """See World.bodies_in_template. Distance: along the heading from the origin to the base's nearest
    corner (0 when the base reaches back over the origin)."""
    xy, row, facing = _origin(world, origin)
    heading = facing if heading_deg is None else float(heading_deg)
    near = width if near_width is None else near_width
    if length <= 0 or width < 0 or near < 0 or not math.isfinite(heading):
        raise UserInputError(_("a template needs a length > 0, widths >= 0 and a heading; got "
                               "{length!r}, {width!r}, {near!r}, {heading_deg!r}")
                             .format(length=length, width=width, near=near, heading_deg=heading_deg))
    shape = plan.trapezoid(xy, heading, *(float(from_unit(v, unit)) for v in (length, width, near)))
    skip = (*([exclude] if isinstance(exclude, str) else exclude), *([origin] if row is not None else []))
    rows = _candidates(world, kinds, skip)
    polys = bases(world, rows)
    return _result(world, rows, np.maximum(plan.along(xy, heading, polys), 0.0), plan.overlaps(shape, polys), unit)


def _end(world, end) -> tuple[np.ndarray, str | None]:
    if isinstance(end, str):
        return world.head(end), end
    point = np.asarray(end, np.float64).reshape(-1)
    if point.shape != (3,):
        raise UserInputError(_("a segment's end is a body id or a world point (x, y, z) in LDU, got "
                               "{end!r}").format(end=end))
    return point, None


def bodies_along(world, a, b, kinds=None, decor: bool = False) -> tuple[Crossing, ...]:
    """See World.bodies_along."""
    start, id_a = _end(world, a)
    end, id_b = _end(world, b)
    delta = end - start
    length = float(np.linalg.norm(delta))
    if length < 1e-9:
        return ()
    direction = (delta / length).astype(np.float32)
    origin = start.astype(np.float32)[None]
    tfar = np.array([length], np.float32)
    rows = _candidates(world, kinds, [i for i in (id_a, id_b) if i])
    crossings = []
    near = near_bodies(origin, direction[None], tfar, world._shapes, world.poses, rows)[:, 0] if len(rows) else np.zeros(0, bool)
    for row in rows[np.asarray(near, bool)]:  # a loop over the few bodies near the segment
        pose = world.poses[row]
        local_o = ((origin - pose[:3, 3]) @ pose[:3, :3]).astype(np.float32)
        local_d = (direction[None] @ pose[:3, :3]).astype(np.float32)
        t, _unused = world._shapes[row].scene.first_hit(local_o, local_d, tfar)
        if np.isfinite(t[0]):
            body = world._rows[row]
            crossings.append(Crossing(body.kind, float(t[0]) / STUD, id=body.id, material=body.material,
                                      point=_point(start, direction, t[0])))
    if decor:
        crossings += _decor_crossings(world, start, direction, length)
    return tuple(sorted(crossings, key=lambda c: (c.distance_studs, c.id or "", c.instance or -1)))


def _decor_crossings(world, start: np.ndarray, direction: np.ndarray, length: float) -> list[Crossing]:
    """Every decor part along one segment: hit, go on past the hit, again (one ray, a few rounds)."""
    first: dict[int, float] = {}
    travelled = 0.0
    for _unused in range(MAX_DECOR_CROSSINGS):
        origin = (start + travelled * direction).astype(np.float32)[None]
        t, prim = world.decor_scene.first_hit(origin, direction[None], np.array([length - travelled], np.float32))
        if not np.isfinite(t[0]):
            break
        instance = int(world.decor.tri_instance[prim[0]])
        first.setdefault(instance, travelled + float(t[0]))
        travelled += float(t[0]) + CONTINUE_LDU
        if travelled >= length:
            break
    out = []
    for instance, t in first.items():
        part = world.instances[instance].name if 0 <= instance < len(world.instances) else "decor"
        material = str(world.decor_materials[instance]) if instance >= 0 else world.material_table.default
        out.append(Crossing("decor", t / STUD, instance=instance if instance >= 0 else None, part=part,
                            material=material, point=_point(start, direction, t)))
    return out


def _point(start: np.ndarray, direction: np.ndarray, t: float) -> tuple[float, float, float]:
    x, y, z = (round(float(v), 3) for v in start + float(t) * direction.astype(np.float64))
    return x, y, z
