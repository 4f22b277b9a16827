"""The sub-model tree walked in step with the LDraw loader (which placement each part came through)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from bow3d.ldraw import Library, load_model
from bow3d.scene.structure import meta_commands, model_structure, world_transform

BUNDLED = Library.from_env(str(Path(__file__).resolve().parents[2] / "ldraw_library"))

AWKWARD = """0 FILE main.ldr
0 Main
3 4 0 0 0 10 0 0 0 0 10
1 4 0 0 0 1 0 0 0 1 0 0 0 1 a.ldr
1 4 0 0 0 1 0 0 0 1 0 0 0 1 nothere.dat
1 4 0 0 0 1 0 0 0 1 0 0 0 1 ../../../etc/passwd
1 4 0 0 0 1 0 0 0 1 0 0 0 1 packed.dat
0 !BOW UNIT side=blue id=b1
1 4 100 0 0 0 0 -1 0 1 0 1 0 0 a.ldr
0 NOFILE
0 FILE a.ldr
0 !BOW UNIT sheet=guard
1 4 0 0 0 1 0 0 0 1 0 0 0 1 b.ldr
1 4 0 0 0 1 0 0 0 1 0 0 0 1 3005.dat
0 FILE b.ldr
1 4 0 0 0 1 0 0 0 1 0 0 0 1 a.ldr
1 4 0 -24 0 1 0 0 0 1 0 0 0 1 3005.dat
0 FILE packed.dat
0 Packed part
0 !LDRAW_ORG Unofficial_Part
3 4 0 0 0 10 0 0 0 0 10
"""


def test_walk_matches_the_loader_through_cycles_missing_and_packed_parts(tmp_path):
    path = tmp_path / "awkward.mpd"
    path.write_text(AWKWARD)
    model = load_model(path, BUNDLED)
    structure = model_structure(model, BUNDLED)
    assert [(s.name, s.line) for s in structure.slots][1:] == [(i.name, i.line) for i in model.instances][1:]
    first, second = structure.root.children  # a.ldr placed twice: two placements, told apart
    assert (first.line, second.line) == (4, 9)
    assert sorted(s.index for s in first.all_slots()) == [1, 2]
    assert sorted(s.index for s in second.all_slots()) == [5, 6]  # 3: missing part, 4: packed
    assert meta_commands(second.meta_before, "UNIT") == [(8, {"side": "blue", "id": "b1"})]
    assert meta_commands(second.own_meta, "unit") == [(12, {"sheet": "guard"})]
    # the second placement is turned: its frame's LDraw -Z looks along world +X (facing 0)
    forward = world_transform(second)[:3, :3] @ np.array([0.0, 0.0, -1.0])
    assert np.allclose(forward, [1, 0, 0]) and np.allclose(world_transform(second)[:3, 3], [100, 0, 0])
