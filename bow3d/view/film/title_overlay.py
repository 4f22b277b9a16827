"""Titles over the film: round, unit and result, as Panda3D TextNodes on an aspect2d layer.

Layer: view (Panda3D, imported where it is used). Style: bold (DejaVu Sans Bold when the system has it, else
Panda3D's own font with a heavy shadow), white or side-coloured letters on a dark card with a side-coloured
bar, like a printed LEGO tile. `overlay_layer` makes the 2D layer for a bare offscreen buffer (ShowBase has
its own `aspect2d`, which `TitleOverlay` takes as well). Where each title sits: bow3d.view.film.titles.

2D coordinates: x from -aspect to +aspect, z from -1 (bottom) to +1 (top).
"""

from __future__ import annotations

from pathlib import Path

from bow3d.view.film.frames import Title
from bow3d.view.film.titles import BOLD_FONTS, LAYOUT, ROLL_CAPTION_SCALE, readable


def bold_font():
    """A bold TrueType font, or None (then Panda3D's default font is used)."""
    from panda3d.core import DynamicTextFont, Filename

    for candidate in BOLD_FONTS:
        if Path(candidate).is_file():
            font = DynamicTextFont(Filename.from_os_specific(candidate))
            if font.is_valid():
                font.set_pixels_per_unit(60)
                return font
    return None


def overlay_layer(window, aspect: float):
    """(render2d, aspect2d) drawn over everything else in `window` (a bare buffer: no ShowBase)."""
    from panda3d.core import Camera, NodePath, OrthographicLens

    render2d = NodePath("render2d")
    render2d.set_depth_test(False)
    render2d.set_depth_write(False)
    render2d.set_two_sided(True)
    lens = OrthographicLens()
    lens.set_film_size(2, 2)
    lens.set_near_far(-1000, 1000)
    camera = render2d.attach_new_node(Camera("camera2d", lens))
    region = window.make_display_region()
    region.set_sort(20)
    region.set_clear_depth_active(False)
    region.set_camera(camera)
    aspect2d = render2d.attach_new_node("aspect2d")
    aspect2d.set_scale(1.0 / aspect, 1.0, 1.0)
    return render2d, aspect2d


class TitleOverlay:
    """One text slot per role; `show(titles)` sets texts, colours and fades; hidden when absent."""

    def __init__(self, aspect2d, aspect: float, font=None):
        from panda3d.core import TextNode

        self.aspect = aspect
        self.font = font if font is not None else bold_font()
        self.slots = {}
        for role, (scale, x, z, align) in LAYOUT.items():
            self.slots[role] = self._slot(aspect2d, role, scale, x * aspect, z,
                                          TextNode.A_center if align == "center" else TextNode.A_left)
        self.roll_slots = [self._slot(aspect2d, f"roll-{k}", ROLL_CAPTION_SCALE, 0.0, 0.0, TextNode.A_left)
                           for k in range(3)]
        self.state: dict[str, tuple | None] = {}  # what each slot shows (None: hidden)

    def _slot(self, parent, name: str, scale: float, x: float, z: float, align):
        from panda3d.core import TextNode

        text = TextNode(f"title-{name}")
        if self.font is not None:
            text.set_font(self.font)
        text.set_align(align)
        text.set_shadow(0.05, 0.05)
        text.set_shadow_color(0, 0, 0, 0.9)
        text.set_card_color(0.08, 0.09, 0.11, 0.72)
        text.set_card_as_margin(0.45, 0.45, 0.22, 0.18)
        text.set_card_decal(True)
        path = parent.attach_new_node(text)
        path.set_scale(scale)
        path.set_pos(x, 0, z)
        path.set_transparency(True)
        path.hide()
        return text, path

    def show(self, titles: tuple[Title, ...]) -> None:
        """Show these titles (one per role; the last wins), hide the other roles."""
        wanted = {t.role: t for t in titles if t.alpha > 0.01 and t.text}
        for role, (text, path) in self.slots.items():
            title = wanted.get(role)
            key = (title.text, title.rgb, round(title.alpha, 3)) if title else None
            if self.state.get(role) == key:
                continue
            self.state[role] = key
            if title is None:
                path.hide()
                continue
            text.set_text(title.text)
            colour = title.rgb
            text.set_text_color(*readable(colour), 1)
            text.set_frame_color(*title.rgb, 1)
            text.set_frame_as_margin(0.45, 0.45, 0.22, 0.18)
            text.set_frame_line_width(4)
            path.set_alpha_scale(title.alpha)
            path.show()

    def show_roll_captions(self, captions: list[tuple[str, tuple[float, float, float]]],
                           frame: tuple[float, float, float, float]) -> None:
        """Captions of the brick rolls above the roll tray (`frame`: left, right, bottom, top of the window, 0-1)."""
        left = (frame[0] * 2 - 1) * self.aspect + 0.03
        top = frame[3] * 2 - 1
        for k, (text, path) in enumerate(self.roll_slots):
            key = captions[k] if k < len(captions) else None
            if self.state.get(f"roll-{k}") == key:
                continue
            self.state[f"roll-{k}"] = key
            if key is None:
                path.hide()
                continue
            text.set_text(key[0])
            text.set_text_color(*readable(key[1]), 1)
            # a caption longer than the tray (French runs longer) ends at the frame's right edge, not past it
            width = (text.get_width() + 0.6) * ROLL_CAPTION_SCALE   # the card's margins included
            x = max(-self.aspect + 0.02, min(left, self.aspect - 0.02 - width))
            path.set_pos(x, 0, top + 0.04 + 0.075 * (len(captions) - 1 - k))
            path.show()

    def hide(self) -> None:
        for _text, path in [*self.slots.values(), *self.roll_slots]:
            path.hide()
        self.state.clear()
