"""The line-of-sight verdict drawn in the scene: rays, blockers, range bands, front arc, words.

Layer: view. Reads the world's sight report (bow3d.world: `eye` (3,), `points` (K, 3) the
target's samples facing the eye, `seen` (K,) bool, `blockers` with the LDraw file and line of
each decor part) and draws, in the world frame (LDU):
- one ray per sample from the firer's eye: green where the sample is seen, red where hidden;
- every blocking decor part drawn again in translucent orange (units: an orange ring);
- the ruleset's range rings as circles on the ground round the firer, labelled in its words
  (BOW 1.3 §2.4.2: a band every `range_band_studs` studs, -1 brick each; War of Bros and Blaze
  of Glory: their weapons' ranges, which a weapon reaches or does not);
- the firer's front arc (design.md: the half space in front, 180 degrees) as a pale half disc.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from bow3d.i18n import _, decimal
from bow3d.units import LDU_PER_STUD as STUD
from bow3d.view.graph import markers

SEEN_RGBA = (60, 230, 90, 200)
HIDDEN_RGBA = (235, 50, 40, 170)
BLOCKER_RGBA = (255, 120, 0, 150)
ARC_RGBA = (120, 190, 255, 60)
BAND_RGBA = [(90, 220, 90, 255), (250, 210, 40, 255), (250, 130, 30, 255), (230, 40, 40, 255)]
LABEL_LDU = 20.0  # text height in the scene


def load_world(scene, library=None):
    """The scene's World (bow3d.world), or None when that layer is not installed."""
    try:
        from bow3d.world import World
    except ImportError:
        return None
    return World.from_scene(scene, library)


def blocker_instances(model, blockers) -> list[int]:
    """Indices of the battlefield's part instances named by decor blockers (file and line)."""
    wanted = {(Path(b.file).name, int(b.line)) for b in blockers if b.kind == "decor" and b.file and b.line}
    return [i for i, inst in enumerate(model.instances) if (Path(inst.file).name, inst.line) in wanted]


def _lines_node(parent, name: str, segments: np.ndarray, rgba: np.ndarray, thickness: float = 2.0):
    """Unlit line segments: segments (S, 2, 3) float, rgba (S, 4) uint8."""
    from panda3d.core import TransparencyAttrib

    from bow3d.view.graph.scene_graph import attach_lines

    positions = np.ascontiguousarray(segments.reshape(-1, 3), np.float32)
    colours = np.ascontiguousarray(np.repeat(np.asarray(rgba, np.uint8), 2, axis=0))
    path = attach_lines(parent, name, positions, colours)
    path.set_render_mode_thickness(thickness)
    path.set_transparency(TransparencyAttrib.M_alpha)
    path.set_bin("transparent", 30)
    return path


def _label(parent, words: str, pos, scale: float, rgba) -> None:
    from panda3d.core import TextNode

    node = TextNode("los-label")
    node.set_text(words)
    node.set_text_color(*(c / 255 for c in rgba))
    node.set_shadow(0.06, 0.06)
    node.set_shadow_color(0, 0, 0, 0.8)
    node.set_align(TextNode.A_center)
    path = parent.attach_new_node(node)
    path.set_pos(*pos)
    path.set_scale(scale)
    path.set_billboard_point_eye()
    path.set_light_off()
    path.set_depth_test(False)
    path.set_depth_write(False)
    path.set_bin("fixed", 60)


def judged(scene, report) -> tuple:
    """(verdict, words) of the scene's ruleset on a world sight report."""
    from bow3d.rulesets import ruleset_of

    ruleset = ruleset_of(scene)
    verdict = ruleset.judge_sight(report, scene.ruleset)
    return verdict, ruleset.sight_sentence(report, verdict)


class LosOverlay:
    """The drawing of one sight report under `parent`; `remove()` takes it away."""

    def __init__(self, parent, nodes, report, range_band_studs: float | None = None):
        self.nodes, self.report = nodes, report
        self.root = parent.attach_new_node(f"los-{report.firer}-{report.target}")
        self.judgement, self.words = judged(nodes.scene, report)
        band = range_band_studs or getattr(self.judgement, "range_band_studs", None)
        if not band:
            band = getattr(nodes.scene.ruleset, "range_band_studs", 15.0)
        self.band = float(band)
        self._blocking_units: list[str] = []
        self._rays()
        self._blockers()
        self._bands()
        self._arc()

    @property
    def verdict(self) -> str:
        """The referee's words: the ruleset's verdict on the world's facts."""
        return self.words

    def _rays(self) -> None:
        points = np.asarray(self.report.points, np.float64).reshape(-1, 3)
        if points.shape[0] == 0:
            return
        eye = np.asarray(self.report.eye, np.float64)
        segments = np.stack([np.broadcast_to(eye, points.shape), points], axis=1)
        seen = np.asarray(self.report.seen, bool)
        rgba = np.where(seen[:, None], SEEN_RGBA, HIDDEN_RGBA).astype(np.uint8)
        _lines_node(self.root, "rays", segments, rgba, 1.5)
        # the samples themselves: small crosses at the target
        d = 1.2
        ticks = np.concatenate([np.stack([points - [d, 0, 0], points + [d, 0, 0]], 1),
                                np.stack([points - [0, 0, d], points + [0, 0, d]], 1)])
        _lines_node(self.root, "samples", ticks, np.concatenate([rgba, rgba]), 3.0)

    def _blockers(self) -> None:
        model = self.nodes.battlefield_model
        pieces = []
        for index in blocker_instances(model, self.report.blockers):
            part = model.parts[model.instance_part[index]]
            keep = ~part.tri_detail if (~part.tri_detail).any() else np.ones_like(part.tri_detail)
            tris = part.positions[part.triangles[keep]].astype(np.float64)
            mat = model.instances[index].transform
            placed = tris @ mat[:3, :3].T + mat[:3, 3]
            centre = placed.reshape(-1, 3).mean(axis=0)
            pieces.append((centre + (placed - centre) * 1.03, BLOCKER_RGBA))
        if pieces:
            node = markers.solid_node(self.root, "blockers", pieces, unlit=True)
            node.set_two_sided(True)
        for blocker in self.report.blockers:
            if blocker.kind in ("unit", "vehicle") and blocker.id in self.nodes.pieces:
                self.nodes.highlight(blocker.id, tuple(c / 255 for c in BLOCKER_RGBA[:3]) + (1.0,),
                                     slot=f"blocker-{blocker.id}")
                self._blocking_units.append(blocker.id)

    def _ground_circle(self, centre_xy: np.ndarray, radius: float, start: float = 0.0, end: float = 2 * math.pi,
                       count: int = 96) -> np.ndarray:
        angle = np.linspace(start, end, count)
        xy = centre_xy + radius * np.stack([np.cos(angle), np.sin(angle)], axis=1)
        z = self.nodes.ground.heights(xy) + 3.0
        return np.concatenate([xy, z[:, None]], axis=1)

    def _rings(self) -> tuple[tuple[float, str], ...]:
        """The ruleset's rings round the firer (radius studs, words), out to the first beyond the target;
        BOW's bands every `range_band_studs` when the verdict has none."""
        rings = getattr(self.judgement, "range_rings", None)
        if rings is None:
            return tuple((k * self.band, _("{distance} studs").format(
                distance=decimal(k * self.band, 0 if float(k * self.band).is_integer() else 1)))
                         for k in range(1, 4))
        out = []
        for radius, words in rings(self.report.distance_studs):
            out.append((radius, words))
            if radius >= self.report.distance_studs:
                break
        return tuple(out)

    def _bands(self) -> None:
        firer = self.nodes.pieces[self.report.firer]
        centre = np.array(firer.position) * STUD
        target = np.array(self.nodes.pieces[self.report.target].position) * STUD
        toward = math.atan2(*(target - centre)[::-1]) if np.any(target != centre) else 0.0
        for k, (radius, words) in enumerate(self._rings(), start=1):
            colour = BAND_RGBA[min(k - 1, len(BAND_RGBA) - 1)]
            ring = self._ground_circle(centre, radius * STUD)
            rgba = np.array([colour] * (ring.shape[0] - 1), np.uint8)
            _lines_node(self.root, f"band-{k}", np.stack([ring[:-1], ring[1:]], axis=1), rgba, 2.5)
            at = self._ground_circle(centre, radius * STUD, toward + 0.4, toward + 0.4, 1)[0]
            _label(self.root, words, at + [0, 0, 20], LABEL_LDU, colour)
        distance = self.report.distance_studs
        eye, tip = np.asarray(self.report.eye), np.asarray(self.nodes.head_point(self.report.target))
        _label(self.root, _("{distance} studs").format(distance=decimal(distance)), (eye + tip) / 2 + [0, 0, 24], LABEL_LDU, (255, 255, 255, 255))

    def _arc(self) -> None:
        firer = self.nodes.pieces[self.report.firer]
        centre = np.array(firer.position) * STUD
        facing = math.radians(firer.facing_deg)
        radius = (self._rings() or ((self.band, ""),))[0][0] * STUD
        rim = self._ground_circle(centre, radius, facing - math.pi / 2, facing + math.pi / 2, 48)
        hub = np.array([centre[0], centre[1], firer.ground_z + 3.0])
        fan = np.stack([np.broadcast_to(hub, rim[:-1].shape), rim[:-1], rim[1:]], axis=1)
        node = markers.solid_node(self.root, "front-arc", [(fan, ARC_RGBA)], unlit=True)
        node.set_two_sided(True)
        edge = np.stack([rim[0], rim[-1]])[None]
        _lines_node(self.root, "arc-edge", edge, np.array([ARC_RGBA[:3] + (220,)], np.uint8), 2.0)

    def remove(self) -> None:
        for id in self._blocking_units:
            self.nodes.highlight(None, slot=f"blocker-{id}")
        self.root.remove_node()


def sight_report(scene, nodes, firer: str, target: str, library=None, world=None):
    """The world's sight report for firer -> target (world built from the scene when not given)."""
    from bow3d.errors import UserInputError

    world = world or load_world(scene, library)
    if world is None:
        raise UserInputError(_("line of sight needs bow3d.world, which is not installed in this build"))
    return world.sight(firer, target)
