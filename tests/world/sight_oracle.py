"""An independent oracle for sight, and the sight lines it judges (tests and benchmarks/bench_sight.py).

The oracle is brute force and shares nothing with bow3d.world's sight code but the LDraw reader and
the poses the world gives its bodies: a pin-hole camera at the firer's eye looks at the centre of the
target's vertices, a dense regular grid of rays (512 x 512 = 262,144 by default) covers the target's
projected vertices, and one raw embreex scene of every triangle of the battlefield and the bodies
(studs and tubes included, as LDraw draws them) says, per ray, what it meets first. Silhouette = the
rays that meet the target when it stands alone; visible = those whose first hit is the target;
transparent = those whose first hit is the target once every transparent triangle (colour alpha
below 255) is taken away, but not before.

Sight lines: small battlefields written on the fly (a 32 x 32 baseplate and a few bricks) with two
standing minifigs (tests/data/world/minifig.ldr) and sometimes a third one in the way: walls near
the target and near the firer, corners, windows, a fence, profile and back views, height
differences and steep views.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from embreex import mesh_construction, rtcore_scene

DATA = Path(__file__).resolve().parents[1] / "data" / "world"
ORACLE_SIDE = 512
GREY, GLASS = 71, 47   # Light_Bluish_Grey; Trans_Clear


def brick(part: str, x: float, y: float, level: float, along_y: bool = False, colour: int = GREY,
          height: float = 1) -> str:
    """An LDraw line placing a brick-like part whose origin is its top centre, `height` bricks tall:
    centred on stud coordinates (x, y), its bottom `level` bricks above the baseplate; long side along
    X, or along Y."""
    matrix = "0 0 1 0 1 0 -1 0 0" if along_y else "1 0 0 0 1 0 0 0 1"
    return f"1 {colour} {20 * x:g} {-24 * (level + height):g} {20 * y:g} {matrix} {part}"


def column(x: float, y: float, bricks: int, part: str = "3003.dat") -> list[str]:
    """A stack of 2 x 2 bricks centred on (x, y) (a tower or a plateau to stand on)."""
    return [brick(part, x, y, k) for k in range(bricks)]


def wall(x: float, y0: float, y1: float, bricks: int, part: str = "3010.dat") -> list[str]:
    """A wall one stud thick along Y at x (a stud column's centre), from y0 to y1 (studs, a multiple of 4 long)."""
    return [brick(part, x, y0 + 2 + 4 * k, level, along_y=True) for level in range(bricks)
            for k in range(int(round((y1 - y0) / 4)))]


@dataclass(frozen=True)
class SightLine:
    """One line of sight: the decor's LDraw lines, and where the firer, the target and any other
    minifig stand ((x, y) studs, facing degrees)."""

    name: str
    decor: tuple[str, ...]
    firer: tuple[float, float, float] = (6.5, 16.5, 0.0)
    target: tuple[float, float, float] = (16.5, 16.5, 180.0)
    others: tuple[tuple[float, float, float], ...] = field(default_factory=tuple)


def _lines() -> list[SightLine]:
    low = tuple(wall(15, 14, 22, 1))
    plateau = tuple(b for y in (14, 16, 18, 20) for x in (18, 20, 22) for b in column(x, y, 4))
    lines = [
        SightLine("open ground, front view", ()),
        SightLine("open ground, profile", (), target=(16.5, 16.5, 90.0)),
        SightLine("open ground, back view", (), target=(16.5, 16.5, 0.0)),
        SightLine("open ground, three-quarter view", (), target=(16.5, 16.5, 135.0)),
        SightLine("1-brick wall near the target", low),
        SightLine("1-brick wall near the target, profile", low, target=(16.5, 16.5, 90.0)),
        SightLine("1-brick wall near the target, back view", low, target=(16.5, 16.5, 0.0)),
        SightLine("2-brick wall near the target", tuple(wall(15, 14, 22, 2))),
        SightLine("2-brick wall 2 studs before the target", tuple(wall(14, 14, 22, 2))),
        SightLine("3-brick wall just before the firer", tuple(wall(8, 14, 22, 3))),
        SightLine("2-brick wall just before the firer", tuple(wall(8, 14, 22, 2))),
        SightLine("3-brick wall half way", tuple(wall(11, 14, 22, 3))),
        SightLine("wall's end: half the target behind a corner", tuple(wall(14, 17, 25, 5))),
        SightLine("wall's end: the other half", tuple(wall(14, 8, 16, 5))),
        SightLine("wall's end, target in profile", tuple(wall(14, 17, 25, 5)), target=(16.5, 16.5, 90.0)),
        SightLine("corner of two walls, target tucked in", tuple(wall(14, 18, 26, 4)) + tuple(
            brick("3010.dat", 16, 18.5, level) for level in range(2))),
        SightLine("window without panes", (brick("3853.dat", 14, 16.5, 0, along_y=True, height=3),
                                           brick("3010.dat", 14, 16.5, 3, along_y=True))),
        SightLine("window with glass panes", (brick("3853.dat", 14, 16.5, 0, along_y=True, height=3),
                                              brick("3854.dat", 14, 15.5, 0, along_y=True, colour=GLASS, height=3),
                                              brick("3854.dat", 14, 17.5, 0, along_y=True, colour=GLASS, height=3),
                                              brick("3010.dat", 14, 16.5, 3, along_y=True))),
        SightLine("fence before the target", (brick("3633.dat", 15, 16.5, 0, along_y=True),)),
        SightLine("another minifig half way", (), others=((11.5, 16.5, 180.0),)),
        SightLine("another minifig beside the line", (), others=((12.5, 17.5, 90.0),)),
        SightLine("firer on a 5-brick tower, target behind a 1-brick wall", low + tuple(column(6, 16, 5)),
                  firer=(6.5, 16.5, 0.0)),
        SightLine("firer on a 10-brick tower, target 4 studs away behind a 3-brick wall (steep)",
                  tuple(column(12, 16, 10)) + tuple(wall(15, 14, 22, 3)), firer=(12.5, 16.5, 0.0)),
        SightLine("firer on a 10-brick tower, target in profile (steep)", tuple(column(12, 16, 10)),
                  firer=(12.5, 16.5, 0.0), target=(16.5, 16.5, 90.0)),
        SightLine("firer on a 10-brick tower, target right below (very steep)", tuple(column(12, 16, 10)),
                  firer=(12.5, 16.5, 0.0), target=(14.5, 16.5, 180.0)),
        SightLine("target 2 studs back from a 4-brick plateau's edge", plateau,
                  target=(19.5, 16.5, 180.0)),
        SightLine("target on a 4-brick plateau's edge, back view", plateau, target=(17.5, 16.5, 0.0)),
        SightLine("30 studs, 1-brick wall", tuple(wall(29, 14, 22, 1)), firer=(0.5, 16.5, 0.0),
                  target=(30.5, 16.5, 180.0)),
        SightLine("diagonal line over a low wall", tuple(wall(15, 10, 22, 1)), firer=(6.5, 8.5, 0.0),
                  target=(16.5, 16.5, 200.0)),
        SightLine("1 x 1 column before the target", tuple(brick("3005.dat", 14, 16, level) for level in range(5))),
    ]
    return lines


SIGHT_LINES = _lines()


def write_case(folder: Path, line: SightLine) -> Path:
    """The battlefield and the scene of one sight line in `folder`; returns the scene's path."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "minifig.ldr").write_bytes((DATA / "minifig.ldr").read_bytes())
    decor = ["0 Sight line: " + line.name, "0 Name: field.ldr", "1 2 320 0 320 1 0 0 0 1 0 0 0 1 3811.dat",
             *line.decor]
    (folder / "field.ldr").write_text("\n".join(decor) + "\n")
    units = [("firer", "blue", line.firer), ("target", "red", line.target)]
    units += [(f"other-{k}", "blue", pose) for k, pose in enumerate(line.others)]
    yaml = ["format: bow3d-scene/1", "name: sight line", "battlefield: field.ldr",
            "sides:", "  - {id: blue, name: Blue, colour: 1}", "  - {id: red, name: Red, colour: 4}",
            "sheets:", "  trooper: {kind: minifig}", "units:"]
    yaml += [f"  - {{id: {uid}, side: {side}, sheet: trooper, model: minifig.ldr, position: [{x}, {y}], "
             f"facing: {f}}}" for uid, side, (x, y, f) in units]
    path = folder / "scene.yaml"
    path.write_text("\n".join(yaml) + "\n")
    return path


def _posed_mesh(world, body) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every triangle of a body's model where the world has it: (positions, triangles, transparent)."""
    model = body.template.shape.model
    mesh = model.mesh
    pose = world.poses[body.index]
    local = mesh.positions.astype(np.float64) + [0.0, 0.0, body.template.origin_z]
    return local @ pose[:3, :3].T + pose[:3, 3], mesh.triangles, mesh.tri_rgba[:, 3] < 255


def _scene(parts: list[tuple[np.ndarray, np.ndarray]]):
    positions, triangles, offset = [], [], 0
    for pos, tris in parts:
        if len(tris):
            positions.append(pos)
            triangles.append(tris + offset)
            offset += len(pos)
    if not triangles:
        return None
    scene = rtcore_scene.EmbreeScene(robust=True)
    mesh_construction.TriangleMesh(scene, np.ascontiguousarray(np.concatenate(positions), np.float32),
                                   np.ascontiguousarray(np.concatenate(triangles), np.int32))
    return scene


def _first(scene, origins, dirs) -> tuple[np.ndarray, np.ndarray]:
    """(t, primID) of the nearest hit per ray (inf, -1 where none)."""
    if scene is None:
        return np.full(len(dirs), np.inf), np.full(len(dirs), -1)
    out = scene.run(origins, dirs, dists=np.full(len(dirs), 1e6, np.float32), output=1)
    return np.where(out["primID"] >= 0, out["tfar"], np.inf), out["primID"]


class Oracle:
    """The brute-force judge of one battlefield (its decor scenes built once: every triangle, and
    every triangle but the transparent ones)."""

    def __init__(self, decor_model):
        mesh = decor_model.mesh
        glass = mesh.tri_rgba[:, 3] < 255
        positions = mesh.positions.astype(np.float64)
        self.decor = (_scene([(positions, mesh.triangles)]), _scene([(positions, mesh.triangles[~glass])]))

    def judge(self, world, firer: str, target: str, side: int = ORACLE_SIDE) -> tuple[float, float, int]:
        """(visible fraction, transparent fraction, silhouette rays) of `target` from `firer`'s eye."""
        eye = world.head(firer)
        f_body, t_body = world.body(firer), world.body(target)
        skip = {f_body.id, t_body.id}
        if f_body.seat is not None:
            skip.add(f_body.seat[0])
        if t_body.kind == "vehicle":
            skip.update(world.occupants(t_body.id))
        t_pos, t_tri, _ = _posed_mesh(world, t_body)
        used = t_pos[np.unique(t_tri)]
        centre = (used.min(axis=0) + used.max(axis=0)) / 2.0
        forward = (centre - eye) / np.linalg.norm(centre - eye)
        helper = np.array([0.0, 0.0, 1.0]) if abs(forward[2]) < 0.999 else np.array([1.0, 0.0, 0.0])
        right = np.cross(forward, helper)
        right /= np.linalg.norm(right)
        up = np.cross(right, forward)
        rel = used - eye
        depth = rel @ forward
        x, y = rel @ right / depth, rel @ up / depth
        pad_x, pad_y = 0.01 * (x.max() - x.min()), 0.01 * (y.max() - y.min())
        px, py = np.meshgrid(np.linspace(x.min() - pad_x, x.max() + pad_x, side),
                             np.linspace(y.min() - pad_y, y.max() + pad_y, side))
        dirs = forward + px.reshape(-1, 1) * right + py.reshape(-1, 1) * up
        dirs = (dirs / np.linalg.norm(dirs, axis=1, keepdims=True)).astype(np.float32)
        origins = np.broadcast_to(eye.astype(np.float32), dirs.shape).copy()
        bodies_all, bodies_solid = [], []
        for body in world.bodies.values():
            if body.id in skip or not world.active[body.index]:
                continue
            pos, tri, glass = _posed_mesh(world, body)
            bodies_all.append((pos, tri))
            bodies_solid.append((pos, tri[~glass]))
        t_target, _ = _first(_scene([(t_pos, t_tri)]), origins, dirs)
        silhouette = np.isfinite(t_target)
        count = int(silhouette.sum())
        if count == 0:
            return 0.0, 0.0, 0
        seen = []
        for decor, bodies in zip(self.decor, (bodies_all, bodies_solid)):
            t_decor, _ = _first(decor, origins, dirs)
            t_bodies, _ = _first(_scene(bodies), origins, dirs)
            seen.append(silhouette & (t_target < t_decor) & (t_target < t_bodies))
        return float(seen[0].sum() / count), float((seen[1] & ~seen[0]).sum() / count), count


def oracle(world, decor_model, firer: str, target: str, side: int = ORACLE_SIDE) -> tuple[float, float, int]:
    """(visible fraction, transparent fraction, silhouette rays) of `target` from `firer`'s eye, brute force."""
    return Oracle(decor_model).judge(world, firer, target, side)


def build_world(scene_path: Path, library, method: str):
    """(World, decor Model) of a sight line's scene with a sight method."""
    from bow3d.ldraw import load_model
    from bow3d.rulesets import load_scene
    from bow3d.world import World

    scene = load_scene(scene_path)
    return World.from_scene(scene, library, sight_method=method), load_model(scene.battlefield_path, library)


def errors(lines, folder: Path, library, methods=("silhouette-1", "surface-samples-1"), side: int = ORACLE_SIDE):
    """Per sight line: (name, oracle visible, oracle transparent, {method: (visible, transparent)})."""
    out = []
    for k, line in enumerate(lines):
        path = write_case(folder / f"line-{k:02d}", line)
        judged = {}
        truth = None
        for method in methods:
            world, decor = build_world(path, library, method)
            if truth is None:
                truth = oracle(world, decor, "firer", "target", side)
            report = world.sight("firer", "target")
            judged[method] = (report.visible_fraction, report.transparent_fraction)
        out.append((line.name, truth[0], truth[1], judged))
    return out


def summary(rows, method: str) -> tuple[float, float, float]:
    """(mean absolute error, max absolute error, mean signed error) in percentage points."""
    diff = np.array([judged[method][0] - truth for _, truth, _, judged in rows]) * 100
    return float(np.abs(diff).mean()), float(np.abs(diff).max()), float(diff.mean()) if len(diff) else math.nan
