"""Where the camera is and what it looks at: the orbit camera, the `--camera` option, the named views
and qualities the commands offer, the first look across the battle line, mouse picking.

Layer: view (plain math; Panda3D only where picking casts a ray).
"""
