"""The scene graph: a loaded model turned into numpy draw batches (normals, conditional lines, detail
levels, ground heights) and into Panda3D nodes: the battlefield, each unit and vehicle, the markers.

Layer: view.
"""
