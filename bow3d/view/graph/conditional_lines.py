"""Conditional (type 5) lines drawn as silhouettes: a vertex shader shows each only where it is one.

Layer: view. The LDraw rule (File Format 1.0.0, line type 5): a conditional line is drawn when its two
control points, projected onto the screen, lie on the same side of the line. Each end of a line
carries the other end and both control points, so the vertex shader judges the line from the view
at hand (stills, films and the viewer alike; no pass on the CPU per frame) and moves a line that
fails behind the far plane, where it is clipped away. Both ends compute the same four projected
points, so they agree. GLSL 1.20: runs on software OpenGL (llvmpipe).
"""

from __future__ import annotations

import numpy as np
from panda3d.core import (
    Geom,
    GeomLines,
    GeomNode,
    GeomVertexArrayFormat,
    GeomVertexData,
    GeomVertexFormat,
    InternalName,
    NodePath,
    Shader,
)

from bow3d.view.graph.batches import EdgeBatch

_VERTEX = """#version 120
uniform mat4 p3d_ModelViewProjectionMatrix;
attribute vec4 p3d_Vertex;
attribute vec4 p3d_Color;
attribute vec3 other;
attribute vec3 control1;
attribute vec3 control2;
varying vec4 colour;

float side(vec2 a, vec2 b, vec2 c) {  // which side of the screen line a-b the point c lies on
    vec2 ab = b - a, ac = c - a;
    return ab.x * ac.y - ab.y * ac.x;
}

void main() {
    mat4 m = p3d_ModelViewProjectionMatrix;
    vec4 a = m * p3d_Vertex, b = m * vec4(other, 1.0), c = m * vec4(control1, 1.0), d = m * vec4(control2, 1.0);
    gl_Position = a;
    colour = p3d_Color;
    if (min(min(a.w, b.w), min(c.w, d.w)) > 0.0) {
        vec2 sa = a.xy / a.w, sb = b.xy / b.w;
        if (side(sa, sb, c.xy / c.w) * side(sa, sb, d.xy / d.w) <= 0.0) {
            gl_Position = vec4(0.0, 0.0, 2.0, 1.0);  // beyond the far plane: clipped
        }
    }
}
"""

_FRAGMENT = """#version 120
varying vec4 colour;
void main() {
    gl_FragColor = colour;
}
"""

_FORMAT: GeomVertexFormat | None = None
_SHADER: Shader | None = None


def _format() -> GeomVertexFormat:
    global _FORMAT  # a registered format is immutable and shared: build it once
    if _FORMAT is None:
        fmt = GeomVertexFormat()
        for name, count, kind, contents in (("vertex", 3, Geom.NT_float32, Geom.C_point),
                                            ("color", 4, Geom.NT_uint8, Geom.C_color),
                                            ("other", 3, Geom.NT_float32, Geom.C_point),
                                            ("control1", 3, Geom.NT_float32, Geom.C_point),
                                            ("control2", 3, Geom.NT_float32, Geom.C_point)):
            array = GeomVertexArrayFormat()
            array.add_column(InternalName.make(name), count, kind, contents)
            fmt.add_array(array)
        _FORMAT = GeomVertexFormat.register_format(fmt)
    return _FORMAT


def _shader() -> Shader:
    global _SHADER  # compiled once per process
    if _SHADER is None:
        _SHADER = Shader.make(Shader.SL_GLSL, _VERTEX, _FRAGMENT)
    return _SHADER


def attach_conditional_lines(parent: NodePath, lines: EdgeBatch, name: str = "conditional-lines") -> NodePath:
    """`lines` (from `bow3d.view.graph.batches.conditional_lines`) as one GeomLines node under `parent`, drawn like
    the edge lines (unlit, over the faces) where they are silhouettes from the camera."""
    count = lines.positions.shape[0]
    data = GeomVertexData(name, _format(), Geom.UH_static)
    data.unclean_set_num_rows(count)
    controls = lines.controls if lines.controls is not None else np.zeros((count, 3, 3), np.float32)
    for index, array in enumerate((lines.positions, lines.colours, controls[:, 0], controls[:, 1], controls[:, 2])):
        view = memoryview(data.modify_array(index)).cast("B")
        view[:] = np.ascontiguousarray(array).tobytes()
    prim = GeomLines(Geom.UH_static)
    prim.add_consecutive_vertices(0, count)
    geom = Geom(data)
    geom.add_primitive(prim)
    node = GeomNode(name)
    node.add_geom(geom)
    # The lines' own bounds leave out the control points; the shader only hides lines, so they hold.
    path = parent.attach_new_node(node)
    path.set_shader(_shader())
    path.set_light_off()
    path.set_depth_offset(1)
    return path
