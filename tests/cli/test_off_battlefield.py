"""A unit placed off the battlefield is named by the commands that build the 3D world with the scene's
file, line and field, as `bow3d scene check` names it: `los` said "window-firer is not on the
battlefield (aboard a vehicle, removed, or outside it)" and `simulate` "stands at (400.5, 22.5),
outside the battlefield's stud grid", without the line to fix."""

from __future__ import annotations

import pytest

from bow3d.cli import main
from tests.conftest import gallery_copy

WHERE = "los-gallery.yaml:105: units[6].position: [400.5, 22.5] lies outside the battlefield"


@pytest.fixture
def firer_off_the_field(tmp_path, monkeypatch):
    monkeypatch.delenv("LDRAWDIR", raising=False)

    def off_the_field(text: str) -> str:
        assert text.count("position: [8.5, 22.5]") == 1
        return text.replace("position: [8.5, 22.5]", "position: [400.5, 22.5]")
    return gallery_copy(tmp_path, scene=off_the_field)


@pytest.mark.parametrize("command", [
    ["los", "{scene}", "window-firer", "window-target"],
    ["heatmap", "{scene}", "--from", "window-target", "-o", "{folder}/map.png", "--no-progress"],
    ["simulate", "{scene}", "--games", "1", "--no-progress"],
])
def test_the_world_commands_name_the_line(firer_off_the_field, capsys, command):
    args = [a.format(scene=firer_off_the_field, folder=firer_off_the_field.parent) for a in command]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert WHERE in err and "move it onto the battlefield" in err and "Traceback" not in err
    assert not (firer_off_the_field.parent / "map.png").exists()
