"""Load time and triangle counts of battlefield-5k: bow3d's reader against ldraw2mesh (Rust).

Each measurement is a new process; the OS file cache is warm for both (one untimed
warm-up each). "cold" = bow3d with an empty part cache; "warm" = with the part cache filled.
ldraw2mesh has no disk cache: its one figure is compared with both.
"""

from __future__ import annotations

import tempfile

from benchmarks.common import BATTLEFIELD, OFFICIAL, have_reference, in_fresh_process, median, table

OURS = """
import json, time
from pathlib import Path
t0 = time.perf_counter()
from bow3d.ldraw import Library, load_model
t1 = time.perf_counter()
m = load_model({path!r}, Library([Path({lib!r})]))
t2 = time.perf_counter()
mesh_triangles = m.mesh.triangle_count
t3 = time.perf_counter()
print(json.dumps(dict(load=t2 - t1, merge=t3 - t2, imports=t1 - t0, triangles=m.triangle_count(),
                      merged=mesh_triangles, hits=m.cache_hits, parts=len(m.instances))))
"""

PEER = """
import json, time
t0 = time.perf_counter()
from ldraw2mesh import load_scene
from ldraw2mesh.scene import build_jobs
t1 = time.perf_counter()
scene = load_scene({path!r}, ldraw_library={lib!r}, scale=1.0)
jobs = build_jobs(scene)
t2 = time.perf_counter()
print(json.dumps(dict(load=t2 - t1, imports=t1 - t0,
                      triangles=sum(j.triangles.shape[0] * j.transforms.shape[0] for j in jobs))))
"""


def run(repeats: int = 5) -> str:
    if not have_reference():
        return "## LDraw loading\n\nskipped: battlefield-5k.ldr or the official library (LDRAWDIR) is not here.\n"
    try:
        import ldraw2mesh  # noqa: F401
    except ImportError:
        return "## LDraw loading\n\nskipped: install the peer with `pip install -e '.[bench]'`.\n"
    args = dict(path=str(BATTLEFIELD), lib=str(OFFICIAL))
    peer = [in_fresh_process(PEER.format(**args)) for _ in range(repeats + 1)][1:]
    cold, warm = [], []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as cache:
            cold.append(in_fresh_process(OURS.format(**args), env={"BOW3D_CACHE_DIR": cache}))
            warm.append(in_fresh_process(OURS.format(**args), env={"BOW3D_CACHE_DIR": cache}))
    p = median([r["load"] for r in peer])
    c = median([r["load"] for r in cold])
    w = median([r["load"] for r in warm])
    merge = median([r["merge"] for r in warm])
    ours_tri, peer_tri = cold[0]["triangles"], peer[0]["triangles"]
    rows = [
        ["ldraw2mesh 0.1 (peer, Rust)", f"{p:.3f}", "1.00", f"{peer_tri:,}"],
        ["bow3d cold (empty part cache)", f"{c:.3f}", f"{c / p:.2f}", f"{ours_tri:,}"],
        ["bow3d warm (part cache filled)", f"{w:.3f}", f"{w / p:.2f}", f"{warm[0]['triangles']:,}"],
    ]
    return "\n".join([
        "## LDraw loading: battlefield-5k.ldr (5,000 parts, official library)",
        "",
        f"Median of {repeats} new processes each; seconds of the load call itself (imports excluded: "
        f"bow3d {median([r['imports'] for r in cold]):.2f} s, ldraw2mesh {median([r['imports'] for r in peer]):.2f} s).",
        "Both produce instanced geometry (one flattened mesh per distinct part plus transforms).",
        "",
        table(["loader", "seconds", "ratio to peer", "triangles"], rows),
        "",
        f"Triangle counts differ by {abs(ours_tri - peer_tri) / peer_tri:.3%}. "
        f"Merging every instance into one world-frame mesh (`Model.mesh`, {cold[0]['merged']:,} triangles) "
        f"takes another {merge:.2f} s, done only when a caller asks for it.",
        "",
    ])


if __name__ == "__main__":
    print(run())
