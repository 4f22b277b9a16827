"""Commands that need no window import no Panda3D (the CLI builds its parser lazily): they start fast
and run where no graphics library can load."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import sys
from bow3d.cli import main
code = main(sys.argv[1:])
loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('panda3d', 'direct'))
print('PANDA3D:' + ','.join(loaded), file=sys.stderr)
sys.exit(code)
"""


@pytest.mark.parametrize("args", [
    ["odds", "3", "2"],
    ["odds", "3", "2", "--json"],
    ["cost", "scenes/village.yaml"],
    ["rulesets"],
    ["rulesets", "--json"],
    ["replay", "show", "replays/village-seed1.bowreplay"],
    ["inspect", "scenes/village.ldr", "--no-cache"],
    ["library", "status"],
], ids=lambda args: " ".join(args[:2]))
def test_command_imports_no_panda3d(args):
    result = subprocess.run([sys.executable, "-c", PROBE, *args], cwd=ROOT, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert "PANDA3D:\n" in result.stderr, result.stderr.splitlines()[-1]


def test_the_probe_sees_panda3d_when_it_is_imported():
    """The probe itself can fail: a command that opens the renderer shows Panda3D loaded."""
    result = subprocess.run([sys.executable, "-c", PROBE.replace("code = main", "import panda3d.core\ncode = main"),
                             "rulesets"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert "PANDA3D:panda3d" in result.stderr
