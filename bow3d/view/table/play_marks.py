"""What the play UI draws for the human to play (bow3d.view.apps.play_ui): the chosen unit's lit cells (outlined,
and seen through walls), the previewed move, the melee and charge previews, the selection rings and the
sheet, and the panels placed where they hide none of the action.

Layer: view. Functions of a `PlayUI` (as bow3d.view.table.play_history's), so that play_ui.py keeps the game
flow and the input handlers. World frame, Z up, LDU (1 stud = 20 LDU); cells are stud cells (i, j).
"""

from __future__ import annotations

import numpy as np

from bow3d.view.graph import markers
from bow3d.view.table.table_aids import CHARGE_RGBA, MELEE_RGBA, add_xray, cells_node

PREVIEW_RGBA = (250, 200, 30, 255)  # the previewed move's cell: a yellow 1x1 pillar standing on it...
PREVIEW_BRICKS = 2                  # ...this many bricks tall (a minifig's height: it reads from afar)...
PREVIEW_FRAME_LDU = (9.5, 9.5, 4.0, 3.0)  # ...in a thick yellow frame round the cell (half sizes, width, height)


def action_boxes(ui) -> list:
    """Screen boxes (fractions of the window, y up) of the chosen unit and of what it aims at or moves to."""
    from bow3d.view.camera.picking import project
    from bow3d.view.table.panel_layout import pixel_box

    ids = [ui._body(ui.selected)] if ui.selected else []
    aim = ui.present.aim(ui.aimed, ui.game) if ui.aimed is not None else None
    target = aim.target if aim is not None and aim.kind == "unit" else None
    ids += [ui._body(target)] if target in ui.nodes.pieces else []
    boxes, size = [], (ui.base.win.get_x_size(), ui.base.win.get_y_size())
    for id in ids:
        low, high = ui.nodes.pieces[id].root.get_tight_bounds(ui.base.render) or ((0, 0, 0), (0, 0, 0))
        corners = [(x, y, z) for x in (low[0], high[0]) for y in (low[1], high[1]) for z in (low[2], high[2])]
        boxes.append(pixel_box(project(ui.base, np.asarray(corners, float)), *size))
    to = aim.point if aim is not None else None
    if to is not None:  # the previewed move's cell (or point), a brick high
        x, y = to[0] * markers.STUD_LDU, to[1] * markers.STUD_LDU
        z = float(ui.nodes.ground.heights(np.array([[x, y]]))[0])
        corners = [(x + dx, y + dy, z + dz) for dx in (-10, 10) for dy in (-10, 10)
                   for dz in (0, PREVIEW_BRICKS * markers.BRICK_LDU)]
        boxes.append(pixel_box(project(ui.base, np.asarray(corners, float)), *size))
    return [b for b in boxes if b is not None]

def hud_boxes(ui) -> list:
    """The HUD's list of choices (top left, when it lists any): a panel moved to the left hides none of it."""
    if not ui.listed:
        return []
    top, line = 0.83, 0.026  # the list's first line and its pitch (fractions of the window; bow3d.view.table.hud)
    return [(0.0, 0.34, top - line * len(ui.listed) - 0.01, 0.9)]


def place_panels(ui) -> None:
    """The sheet and the tray where they hide none of the action (bow3d.view.table.panel_layout)."""
    from bow3d.view.table.hud import ROLLS_FRAME
    from bow3d.view.table.panel_layout import place_panels

    regions = {"tray": (ui.tray.region, ui.tray.frame)}
    if ui.viewer.sheet is not None:
        regions["sheet"] = (ui.viewer.sheet.region, ui._sheet_home)
    homes = {name: home for name, (_region, home) in regions.items()}
    places = place_panels({**homes, "captions": ROLLS_FRAME}, action_boxes(ui) + hud_boxes(ui))
    ui.panel_places = {"captions": places["captions"] if ui.panels_shown else None}
    ui.hud.place_rolls(ui.panel_places["captions"])
    for name, (region, _home) in regions.items():
        rect = places[name] if ui.panels_shown else None
        ui.panel_places[name] = rect
        if rect is None:
            region.set_active(False)
        else:
            region.set_dimensions(*rect)
            if name == "sheet":
                region.set_active(ui.selected is not None)
            else:
                region.set_active(bool(ui.rolls))

def draw_cells(ui) -> None:
    """The chosen unit's reachable cells (outlined, and seen through walls: table_aids.cells_node), the
    previewed move's cell, and its melee previews: enemies in reach ringed red, charge cells framed red."""
    if ui._cells is not None:
        ui._cells.remove_node()
        ui._cells = None
    ui.reachable = []
    ui.melee = ([], {})
    if ui.selected is None or not ui._human_to_play():
        draw_melee(ui)
        return
    reach = ui.present.reach(ui.game, ui.selected, ui._legal(ui.selected))
    cells = list(reach.cells)
    ui.reachable = list(cells)
    ui.melee = (list(reach.melee), {cell: list(enemies) for cell, enemies in reach.charges.items()})
    draw_melee(ui)
    aimed = ui.present.aim(ui.aimed, ui.game).point if ui.aimed is not None and \
        ui.aimed.TYPE in ui.present.move_kinds else None
    aimed_cell = (int(np.floor(aimed[0])), int(np.floor(aimed[1]))) if aimed is not None else None
    if aimed_cell is not None and aimed_cell not in cells:  # a move to a cell of its own choosing (not lit)
        cells.append(aimed_cell)
    if not cells:
        return
    centres = (np.array(cells, float) + 0.5) * markers.STUD_LDU
    z = ui.nodes.ground.heights(centres)
    pieces = []
    if aimed_cell is not None:  # the previewed move's cell
        k = cells.index(aimed_cell)
        at = [*centres[k], z[k] + markers.STUD_HEIGHT]
        tall = markers.box_corners((-8.0, -8.0, 0.0), (8.0, 8.0, PREVIEW_BRICKS * markers.BRICK_LDU)) + at
        pieces.append((tall.reshape(-1, 3, 3), PREVIEW_RGBA))
        pieces.append((markers.frame_corners(*PREVIEW_FRAME_LDU) + at, PREVIEW_RGBA))
    for cell in ui.melee[1]:  # a charge ends here in melee reach
        j = cells.index(cell) if cell in cells else None
        if j is not None:
            frame = markers.frame_corners(8.5, 8.5, 4.0, 5.0) + [*centres[j], z[j] + markers.STUD_HEIGHT]
            pieces.append((frame, CHARGE_RGBA))
    ui._cells = cells_node(ui.base.render, centres, z, pieces)
    if pieces:  # the preview and the charge frames show through walls and figures too: their x-ray pass only
        # (cells_node drew them, lit, with the tiles; a second solid copy would fight the first for depth)
        solid = markers.solid_node(ui._cells, "move-preview", pieces, unlit=True)
        add_xray(solid, 0.5)
        solid.remove_node()

def draw_melee(ui) -> None:
    """A red ring round each enemy the chosen unit reaches in melee now."""
    for piece in ui.nodes.pieces.values():
        node = piece.selection.pop("melee", None)
        if node is not None:
            node.remove_node()
    for enemy in ui.melee[0]:
        ui.nodes.highlight_one(enemy, MELEE_RGBA, slot="melee")
        ring = ui.nodes.pieces[enemy].selection["melee"]
        ghost = ring.copy_to(ring)  # seen through the figures in front (removed with the ring)
        ghost.set_depth_test(False)
        ghost.set_depth_write(False)
        ghost.set_bin("fixed", 40)

def draw_selection(ui) -> None:
    ui.nodes.highlight(ui._body(ui.selected) if ui.selected else None)
    aim = ui.present.aim(ui.aimed, ui.game) if ui.aimed is not None else None
    target = aim.target if aim is not None and aim.kind == "unit" and aim.target in ui.nodes.pieces else None
    ui.nodes.highlight(ui._body(target) if target else None, (1.0, 0.35, 0.1, 1.0), slot="target")
    if ui.selected is None:
        if ui.viewer.sheet is not None:
            ui.viewer.sheet.hide()
        return
    from bow3d.view.table.sheet_overlay import SheetOverlay

    if ui.viewer.sheet is None:
        ui.viewer.sheet = SheetOverlay(ui.base)
    piece = ui.table.piece(ui.selected)
    rows = ui.present.sheet_rows(ui.scene, ui.selected, piece)
    ui.viewer.sheet.show(f"{ui.selected} ({piece.sheet})" if piece is not None else ui.selected, rows,
                         plate=ui.present.sheet_plate_of(ui.scene, ui.selected), clone=ui.nodes.prototype(ui.selected),
                         side_rgba=ui.nodes.pieces[ui.selected].side_rgba)
