"""`bow3d export` (bow3d.view.gltf): glTF 2.0 that other tools load as bow3d sees it: the triangle count of
`bow3d inspect`, one mesh per part and colour instanced by nodes named by part, file and line, units and
vehicles as named nodes with their side and sheet, PBR materials from LDraw colours, Y up, metres or LDU,
and for a replay the film's animation on the film's time line."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import numpy as np
import pygltflib
import pytest
import trimesh

from bow3d.cli import main
from bow3d.ldraw import Library, load_model
from bow3d.ldraw.colours import Colour
from bow3d.view.gltf import export_gltf, pbr_material
from tests.conftest import write

ROOT = Path(__file__).resolve().parents[2]
VILLAGE = ROOT / "scenes" / "village.yaml"
NODE_NAME = re.compile(r"^\S+ @ \S+:\d+$")  # "3001.dat @ village.ldr:27"


def placed_triangles(path: Path) -> int:
    """Triangles of every mesh every node places, as trimesh loads the file."""
    scene: Any = trimesh.load(path, force="scene")  # a trimesh.Scene (its stubs say Geometry)
    return sum(len(scene.geometry[scene.graph[node][1]].faces) for node in scene.graph.nodes_geometry)


@pytest.fixture(scope="module")
def village_scene(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("gltf") / "village.glb"
    assert main(["export", str(VILLAGE), "-o", str(out)]) == 0
    return out


@pytest.fixture(scope="module")
def battle(tmp_path_factory, village_replay) -> Path:
    out = tmp_path_factory.mktemp("battle") / "battle.glb"
    assert main(["export", str(village_replay), "-o", str(out)]) == 0
    return out


def test_a_model_has_the_triangles_inspect_counts_and_nodes_named_by_part_file_and_line(tmp_path, capsys):
    out = tmp_path / "village-model.glb"
    assert main(["export", str(ROOT / "scenes" / "village.ldr"), "-o", str(out)]) == 0
    assert main(["inspect", str(ROOT / "scenes" / "village.ldr"), "--json"]) == 0
    inspected = json.loads(capsys.readouterr().out.split("\n", 1)[1])
    assert placed_triangles(out) == inspected["triangles"]
    document = pygltflib.GLTF2().load(str(out))
    instances = [n for n in document.nodes if n.mesh is not None]
    assert len(instances) == inspected["parts"] and all(NODE_NAME.match(n.name) for n in instances)
    first = instances[0]
    assert first.extras["file"] == "village.ldr" and first.name == f"{first.extras['part']} @ village.ldr:{first.extras['line']}"
    # one mesh per distinct part and colour, shared by every instance of it
    keys = {(n.extras["part"], n.extras["colour"]) for n in instances}
    assert len(document.meshes) == len(keys) < len(instances)


def test_a_scene_has_named_units_with_side_and_sheet_and_every_triangle(village_scene):
    from bow3d.rulesets import load_scene

    scene = load_scene(VILLAGE)
    document = pygltflib.GLTF2().load(str(village_scene))
    by_name = {n.name: n for n in document.nodes}
    for unit in [*scene.units, *scene.vehicles]:
        node = by_name[unit.id]
        assert node.extras["side"] == unit.side and node.extras["sheet"] == unit.sheet
        assert node.extras["kind"] in ("unit", "vehicle") and node.children
    library = Library.from_env()
    expected = load_model(scene.battlefield_path, library).triangle_count()
    for unit in [*scene.units, *scene.vehicles]:
        expected += load_model(scene.resolve(unit.model), library).triangle_count()
    assert placed_triangles(village_scene) == expected


def test_the_world_is_turned_to_y_up_once_in_metres_or_ldu(village_scene, tmp_path):
    """The village is 64 x 64 studs (1,280 LDU = 0.512 m) and a few bricks high: glTF's Y is its height,
    and the battlefield lies towards -Z (world +Y = glTF -Z)."""
    bounds = trimesh.load(village_scene, force="scene").bounds
    assert bounds[1][0] == pytest.approx(0.512, abs=1e-3) and bounds[0][2] == pytest.approx(-0.512, abs=1e-3)
    assert 0.05 < bounds[1][1] < 0.2 and bounds[0][1] > -0.01  # height is Y
    document = pygltflib.GLTF2().load(str(village_scene))
    roots = [document.nodes[i] for i in document.scenes[0].nodes]
    assert len(roots) == 1 and roots[0].rotation == pytest.approx([-math.sqrt(0.5), 0, 0, math.sqrt(0.5)])
    ldu = tmp_path / "ldu.glb"
    export_gltf(VILLAGE, ldu, scale="ldu")
    assert trimesh.load(ldu, force="scene").bounds[1][0] == pytest.approx(1280.0, abs=0.5)


def test_quality_levels_as_for_render(tmp_path):
    counts = {}
    for quality in ("full", "default", "draft"):
        counts[quality] = export_gltf(ROOT / "scenes" / "village.ldr", tmp_path / f"{quality}.glb",
                                      quality=quality).triangles
        assert placed_triangles(tmp_path / f"{quality}.glb") == counts[quality]
    assert counts["full"] > counts["default"] > counts["draft"] > 0


def test_ldraw_colours_become_pbr_materials():
    solid = pbr_material(Colour(4, "Red", (201, 26, 9, 255), (51, 51, 51, 255)), False)
    glass = pbr_material(Colour(47, "Trans_Clear", (252, 252, 252, 128), (195, 195, 195, 255)), False)
    chrome = pbr_material(Colour(383, "Chrome_Silver", (224, 224, 224, 255), (164, 164, 164, 255), "chrome"), False)
    rubber = pbr_material(Colour(256, "Rubber_Black", (33, 33, 33, 255), (89, 89, 89, 255), "rubber"), True)
    glow = pbr_material(Colour(21, "Glow_In_Dark_Opaque", (224, 255, 176, 250), (164, 164, 164, 255), "solid", 15), False)
    assert solid.alphaMode == "OPAQUE" and solid.pbrMetallicRoughness.metallicFactor == 0.0
    assert solid.pbrMetallicRoughness.baseColorFactor[0] == pytest.approx((201 / 255 + 0.055) ** 2.4 / 1.055 ** 2.4)
    assert glass.alphaMode == "BLEND" and glass.pbrMetallicRoughness.baseColorFactor[3] == pytest.approx(128 / 255)
    assert chrome.pbrMetallicRoughness.metallicFactor == 1.0 and chrome.pbrMetallicRoughness.roughnessFactor < 0.2
    assert rubber.pbrMetallicRoughness.roughnessFactor > 0.8 and rubber.doubleSided
    assert max(glow.emissiveFactor) > 0 and max(solid.emissiveFactor) == 0


def test_a_transparent_and_an_inverted_part_in_a_model(tmp_path, library):
    model = write(tmp_path / "m.ldr", "0 a window and a mirrored box\n1 47 0 0 0 1 0 0 0 1 0 0 0 1 box.dat\n"
                                      "0 BFC INVERTNEXT\n1 4 40 0 0 1 0 0 0 1 0 0 0 1 box.dat\n"
                                      "1 4 80 0 0 -1 0 0 0 1 0 0 0 1 box.dat\n")
    out = tmp_path / "m.glb"
    export_gltf(model, out, library=library)
    document = pygltflib.GLTF2().load(str(out))
    materials = {m.name: m for m in document.materials}
    assert materials["Trans_Clear"].alphaMode == "BLEND" and materials["Red"].alphaMode == "OPAQUE"
    nodes = [n for n in document.nodes if n.mesh is not None]
    assert len({n.mesh for n in nodes}) == 3  # box in clear, box in red, box in red wound the other way
    mirrored = nodes[2]
    assert np.prod(mirrored.scale) < 0  # a mirror is a negative scale: the winding follows it
    assert nodes[1].mesh != nodes[2].mesh and nodes[2].mesh == next(
        n.mesh for n in nodes if n.extras["colour"] == 4 and n is not nodes[1])


def _rotation(q: np.ndarray) -> np.ndarray:
    x, y, z, w = np.moveaxis(q, -1, 0)
    return np.stack([np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)], -1),
                     np.stack([2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)], -1),
                     np.stack([2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)], -1)], -2)


def test_every_ldraw_matrix_becomes_trs_nodes_that_compose_back_to_it():
    """glTF nodes hold translation x rotation x scale; LDraw matrices may be anything (sheared, singular,
    mirrored, scaled 10^4): a node and, for those that are no TRS, a child node compose back to the matrix."""
    from bow3d.view.gltf.builder import transforms_to_trs

    rng = np.random.default_rng(5)
    turn = np.linalg.qr(rng.normal(size=(3, 3)))[0]
    linears = [np.eye(3), np.diag([-1.0, 1, 1]), np.diag([2.0, 1, 3]), turn * 1e4, turn @ np.diag([1e-30, 1, 1]),
               np.zeros((3, 3)), np.diag([1.0, 0, 1]), [[1, 1, 0], [0, 1, 0], [0, 0, 1]], *rng.normal(size=(40, 3, 3))]
    m = np.tile(np.eye(4), (len(linears), 1, 1))
    m[:, :3, :3] = linears
    m[:, :3, 3] = rng.normal(size=(len(linears), 3)) * 100
    t, q, s, inner, split = transforms_to_trs(m)
    assert np.allclose(np.linalg.norm(q, axis=1), 1) and np.allclose(np.linalg.norm(inner, axis=1), 1)
    composed = _rotation(q) * s[:, None, :] @ _rotation(inner)
    assert np.allclose(composed, m[:, :3, :3], atol=1e-9 * np.abs(m[:, :3, :3]).max()) and np.allclose(t, m[:, :3, 3])
    assert list(split[:5]) == [False] * 5 and split[5:8].all()  # ordinary, mirrored and scaled ones: one node
    assert np.allclose(inner[~split], [0, 0, 0, 1])


def test_a_replay_carries_the_film_as_an_animation(battle, village_replay):
    """Every unit and vehicle animated on the film's time line: the same length and the same round starts as
    the film the director cuts from the replay; units move, and those that die lie down."""
    from bow3d.replay import open_replay
    from bow3d.view.film.director import direct
    from bow3d.view.film.timeline import Died, timeline_from_replay
    from bow3d.view.film.video import MAX_FILM_SECONDS

    document = pygltflib.GLTF2().load(str(battle))
    extras = document.scenes[0].extras["bow3d"]
    opened = open_replay(village_replay)
    timeline = timeline_from_replay(opened)
    film = direct(timeline, np.array([[0, 0, 0], [1280, 1280, 200.0]]), max_seconds=MAX_FILM_SECONDS)
    assert extras["duration_s"] == pytest.approx(film.duration_s, abs=1e-3)
    starts = {}
    for shot in film.shots:
        starts.setdefault(timeline.steps[shot.step].round, shot.start_s)
    marks = extras["rounds"]
    assert [r["round"] for r in marks] == sorted({step.round for step in timeline.steps})  # every round
    assert {r["round"]: r["time_s"] for r in marks if r["shown"]} == pytest.approx(starts, abs=1e-3)
    assert [r["time_s"] for r in marks] == sorted(r["time_s"] for r in marks)
    animation = document.animations[0]
    units = {i for i, n in enumerate(document.nodes) if n.extras.get("kind") in ("unit", "vehicle")}
    targets = {(c.target.node, c.target.path) for c in animation.channels}
    assert {node for node, _ in targets} == units
    assert all((node, path) in targets for node in units for path in ("translation", "rotation", "scale"))
    assert trimesh.load(battle, force="scene").geometry  # other tools read it too
    moved, fell = 0, 0
    for channel in animation.channels:
        values = accessor(document, animation.samplers[channel.sampler].output)
        if channel.target.path == "translation" and np.ptp(values[:, :2], axis=0).max() > 20.0:  # over a stud
            moved += 1
        if channel.target.path == "rotation":
            tilt = np.degrees(2 * np.arcsin(np.clip(np.linalg.norm(values[:, :2], axis=1), 0, 1)))  # off the Z axis
            fell += bool(tilt.max() > 80.0)
    assert moved >= 3
    died = sum(1 for step in timeline.steps if isinstance(step.beat, Died))
    assert fell >= min(died, 1)  # a fallen minifig lies on its back (its up axis turned 90 degrees)


def accessor(document: pygltflib.GLTF2, index: int) -> np.ndarray:
    a = document.accessors[index]
    view = document.bufferViews[a.bufferView]
    data = document.binary_blob()[view.byteOffset + (a.byteOffset or 0):][: view.byteLength]
    width = {"SCALAR": 1, "VEC3": 3, "VEC4": 4}[a.type]
    return np.frombuffer(data, np.float32, a.count * width).reshape(a.count, width)


def test_gltf_json_output_is_one_file(tmp_path):
    out = tmp_path / "village.gltf"
    stats = export_gltf(ROOT / "scenes" / "village.ldr", out, quality="draft")
    data = json.loads(out.read_text())
    assert data["asset"]["version"] == "2.0" and data["buffers"][0]["uri"].startswith("data:application/octet-stream")
    assert placed_triangles(out) == stats.triangles


@pytest.mark.parametrize("args, message", [
    (["export", "scenes/village.txt", "-o", "x.glb"], "cannot tell what to export"),
    (["export", "scenes/nothere.yaml", "-o", "x.glb"], "no such scene file"),
    (["export", "scenes/village.ldr", "-o", "x.png"], "must end in .glb"),
    (["export", "scenes/village.ldr", "-o", "nofolder/x.glb"], "does not exist"),
], ids=["unknown-input", "missing", "output-kind", "output-folder"])
def test_bad_input_is_one_line_and_exit_2(args, message, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_an_existing_output_is_never_replaced_without_force(tmp_path, capsys):
    out = tmp_path / "mine.glb"
    out.write_bytes(b"my own file")
    assert main(["export", str(ROOT / "scenes" / "village.ldr"), "-o", str(out)]) == 2
    assert "already exists" in capsys.readouterr().err and out.read_bytes() == b"my own file"
    assert main(["export", str(ROOT / "scenes" / "village.ldr"), "-o", str(out), "--force", "--quality", "draft"]) == 0
    assert out.read_bytes()[:4] == b"glTF"


VALIDATE = """
const fs = require("fs"); const validator = require("gltf-validator");
(async () => {
  const out = {};
  for (const file of process.argv.slice(1)) {
    const report = await validator.validateBytes(new Uint8Array(fs.readFileSync(file)), {maxIssues: 20});
    out[file] = {errors: report.issues.numErrors, warnings: report.issues.numWarnings,
                 first: report.issues.messages.slice(0, 5).map((m) => `${m.code} ${m.pointer}: ${m.message}`)};
  }
  console.log(JSON.stringify(out));
})();
"""


def khronos_validate(files: list[Path] | list[str], timeout: float = 300) -> dict[str, dict] | None:
    """Khronos' glTF validator (npm's gltf-validator, which .ci/run installs) on every file, in one node run:
    {file: {"errors", "warnings", "first": the first five issues}}; None when node, npm or the validator is
    not installed here (a caller skips what needs it)."""
    import shutil
    import subprocess

    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        return None
    root = subprocess.run([npm, "root", "-g"], capture_output=True, text=True, timeout=60).stdout.strip()
    if not (Path(root) / "gltf-validator" / "package.json").is_file():
        return None
    if not files:
        return {}
    result = subprocess.run([node, "-e", VALIDATE, *map(str, files)], capture_output=True, text=True,
                            timeout=timeout, env={"NODE_PATH": root, "PATH": str(Path(node).parent)})
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_khronos_validator_finds_nothing_wrong(village_scene, battle, tmp_path):
    """The official glTF validator: no error, no warning, for a scene, a replay with its animation and a
    .gltf file."""
    text = tmp_path / "model.gltf"
    export_gltf(ROOT / "scenes" / "village.ldr", text, quality="default", scale="ldu")
    found = khronos_validate([village_scene, battle, text])
    if found is None:
        pytest.skip("no node, npm or gltf-validator here (npm install -g gltf-validator; .ci/run does)")
    assert len(found) == 3
    for file, issues in found.items():
        assert issues["errors"] == 0 and issues["warnings"] == 0, (file, issues)
