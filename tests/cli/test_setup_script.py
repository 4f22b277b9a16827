"""`bow3d setup --offscreen-script`: a script's bad lines are named (file:line) before any window opens (issue 32:
`turn nan` reached the window and ended in an internal error, exit 1; so did a script that is not UTF-8)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bow3d.cli import main
from bow3d.commands.setup import parse_setup_script
from bow3d.errors import UserInputError

VILLAGE = str(Path(__file__).resolve().parents[2] / "scenes" / "village.yaml")


@pytest.mark.parametrize("line", ["turn nan", "turn inf", "turn -1e308", "place 6 1000000000"])
def test_a_number_no_set_up_means_is_named_with_its_line(line):
    with pytest.raises(UserInputError, match=r"^s.txt:2: .* needs finite numbers of at most 100,000"):
        parse_setup_script(f"side blue\n{line}\n", "s.txt")


def test_the_usual_numbers_pass():
    assert parse_setup_script("turn -45\nplace 6 20\nturn 22.5\n", "s.txt")[0] == (1, "turn", ("-45",))


@pytest.mark.parametrize("script, words", [
    (b"side blue\nchoose blue-rifle-1\nturn nan\nsave\n", "s.txt:3: turn needs finite numbers"),
    (b"side blue\nturn \xff\n", "s.txt: not UTF-8 text"),
], ids=["turn nan", "not UTF-8"])
def test_setup_refuses_a_bad_script_with_exit_2_before_any_window(tmp_path, capsys, script, words):
    (tmp_path / "s.txt").write_bytes(script)
    code = main(["setup", VILLAGE, "--offscreen-script", str(tmp_path / "s.txt"), "-o", str(tmp_path / "out.yaml")])
    err = capsys.readouterr().err
    assert code == 2 and words in err and "internal error" not in err
    assert not (tmp_path / "out.yaml").exists()
