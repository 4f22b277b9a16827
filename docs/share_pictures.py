"""Make the pictures of docs/ that show issue 19's outputs, each rendered by something other than bow3d:

    python docs/share_pictures.py glb village.glb docs/export-village-pyrender.png
        the glTF file as pyrender (OpenGL, offscreen) draws it: pip install pyrender; PYOPENGL_PLATFORM=egl
        where there is no display
    python docs/share_pictures.py report battle.html docs/report-village.png
        the battle report as headless Chromium shows it (Debian's chromium and chromium-driver, selenium)

Neither pyrender nor a browser is a dependency of bow3d: this script is for the documentation only.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path


def look_at(eye, target, up=(0.0, 1.0, 0.0)):
    import numpy as np

    forward = np.asarray(target, float) - eye
    forward /= np.linalg.norm(forward)
    side = np.cross(forward, up)
    side /= np.linalg.norm(side)
    matrix = np.eye(4)
    matrix[:3, 0], matrix[:3, 1], matrix[:3, 2], matrix[:3, 3] = side, np.cross(side, forward), -forward, eye
    return matrix


def render_glb(source: Path, out: Path, size: tuple[int, int] = (1280, 720)) -> None:
    """The .glb loaded by trimesh and drawn by pyrender, from the same corner as docs/viewer-village.png."""
    os.environ.setdefault("PYOPENGL_PLATFORM", "egl")
    import imageio
    import numpy as np
    import pyrender
    import trimesh

    loaded = trimesh.load(source, force="scene")
    scene = pyrender.Scene.from_trimesh_scene(loaded, ambient_light=[0.45, 0.45, 0.45], bg_color=[0.78, 0.85, 0.93, 1])
    low, high = loaded.bounds
    centre, span = (low + high) / 2, float(np.linalg.norm(high - low))
    eye = centre + np.array([0.55, 0.5, 0.7]) * span * 0.85
    scene.add(pyrender.PerspectiveCamera(yfov=np.radians(40), aspectRatio=size[0] / size[1]), pose=look_at(eye, centre))
    scene.add(pyrender.DirectionalLight(color=[1, 1, 1], intensity=4.0),
              pose=look_at(centre + np.array([0.4, 1.0, 0.6]), centre))
    colour, _ = pyrender.OffscreenRenderer(*size).render(scene)
    imageio.imwrite(out, colour)
    triangles = sum(len(loaded.geometry[loaded.graph[n][1]].faces) for n in loaded.graph.nodes_geometry)
    print(f"wrote {out}: {source.name} as pyrender draws it ({triangles:,} triangles as trimesh loads them)")


def screenshot_report(page: Path, out: Path, size: tuple[int, int] = (1280, 2300)) -> None:
    """The report opened from its file in headless Chromium, the 3D view turned to the last round."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
                 "--hide-scrollbars", f"--window-size={size[0]},{size[1]}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        driver.get(page.resolve().as_uri())
        for _ in range(240):
            if driver.execute_script("return window.bow3dView && (window.bow3dView.ready || window.bow3dView.error)"):
                break
            time.sleep(0.5)
        driver.execute_script("window.bow3dView.setRound(Math.floor(window.bow3dView.rounds.length / 2))")
        time.sleep(1)
        driver.save_screenshot(str(out))
    finally:
        driver.quit()
    print(f"wrote {out}: {page.name} in headless Chromium")


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in ("glb", "report"):
        sys.exit(__doc__)
    (render_glb if sys.argv[1] == "glb" else screenshot_report)(Path(sys.argv[2]), Path(sys.argv[3]))
