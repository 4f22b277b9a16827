"""Everything Panda3D, grouped by job (design.md; issue 30). Each sub-package says its job in its `__init__`:

- camera/  where the camera is: pose (plain data), orbit, the `--camera` option, named views, picking;
- graph/   the scene graph: numpy draw batches, normals, conditional lines, detail, ground, nodes, markers;
- table/   what a player sees and reaches for at the table: HUD, sheet plate, LOS overlay, aids, the play
           UI's marks, motion, history and panel layout;
- throws/  dice, brick rolls, cards on the roll tray, their physics and their caption words;
- film/    films of replays: timeline, director, shots, frames, titles, shot check (no Panda3D), and the
           stage, title overlay, video and encoder that draw and write them;
- apps/    the windows: viewer, play UI, set-up mode, replay viewer;
- output/  pictures and pages: offscreen renderer, stills, LOS picture, heatmap, balance chart, cards, PDF;
- gltf/    glTF 2.0 export; report/  the battle report's web page.

Layer: view (the top layer; reads rulesets only through the table, names no ruleset).
"""
