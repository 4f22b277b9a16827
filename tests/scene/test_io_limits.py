"""Scene files are read strictly and within bounds (the Trust issue): hostile YAML gets one clear
error and exit code 2, in little time and memory; long lists of mistakes are capped with a count."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bow3d.errors import SceneError
from bow3d.rulesets import parse_scene
from bow3d.textformats import MAX_DEPTH, MAX_LISTED

HEAD = "format: bow3d-scene/1\nbattlefield: field.ldr\nsides: [{id: blue}]\n"
MEMORY_LIMIT = 1 << 30  # bytes of address space for the CLI under test: the old reader needed 7.4 GB here


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def run_check(path: Path, timeout: float = 60) -> tuple[subprocess.CompletedProcess, float]:
    """`bow3d scene check PATH` in a child with 1 GiB of address space; (result, seconds)."""
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    started = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "bow3d", "scene", "check", str(path)], capture_output=True,
                            text=True, timeout=timeout, preexec_fn=_limit_memory, env=env)
    return result, time.perf_counter() - started


def laughs(levels: int = 9, width: int = 9) -> str:
    """A billion-laughs alias tree: width**levels leaves from a few hundred bytes."""
    lines = [f"l0: &l0 [{', '.join(['lol'] * width)}]"]
    lines += [f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * width)}]" for i in range(1, levels)]
    return "\n".join(lines) + f"\nformat: *l{levels - 1}\nbattlefield: field.ldr\nsides: [{{id: blue}}]\n"


def test_yaml_bomb_in_format_is_refused_quickly_in_little_memory(tmp_path):
    """Was: `_read_format` stringified a 9**9 alias tree (7.4 GB); now the aliases are measured first."""
    path = tmp_path / "bomb.yaml"
    path.write_text(laughs())
    result, seconds = run_check(path)
    assert result.returncode == 2, result.stderr[-500:]
    assert "aliases expand to" in result.stderr and "bomb.yaml:1" in result.stderr
    assert seconds < 10 and "Traceback" not in result.stderr


def test_deep_nesting_exits_2_not_139(tmp_path):
    """Was: 100,000 '[' crashed the C YAML loader (SIGSEGV, exit 139); the depth is now checked first."""
    path = tmp_path / "deep.yaml"
    path.write_text(HEAD + "units: " + "[" * 100_000 + "\n")
    result, _ = run_check(path)
    assert result.returncode == 2, (result.returncode, result.stderr[-500:])
    assert f"deep.yaml:4: (YAML): nested deeper than {MAX_DEPTH} levels" in result.stderr


def test_block_nesting_is_bounded_too():
    with pytest.raises(SceneError, match="nested deeper than"):
        parse_scene(HEAD + "units:\n" + "".join("  " * i + "- \n" for i in range(MAX_DEPTH + 5)), "s.yaml")


def test_duplicate_keys_are_refused_with_both_lines():
    """Was: the second `battlefield:` silently replaced the first."""
    text = "format: bow3d-scene/1\nbattlefield: a.ldr\nsides: [{id: blue, name: A, name: B}]\nbattlefield: b.ldr\n"
    with pytest.raises(SceneError) as caught:
        parse_scene(text, "dup.yaml")
    assert str(caught.value) == ("dup.yaml:4: battlefield: key 'battlefield' written twice (first on line 2); "
                                 "keep one of them")
    with pytest.raises(SceneError, match="dup.yaml:3: sides\\[0\\].name: key 'name' written twice \\(first on line 3"):
        parse_scene(text.replace("battlefield: b.ldr\n", ""), "dup.yaml")


def test_merge_keys_may_still_be_overridden():
    text = HEAD + "sheets:\n  base: &base {kind: minifig, move: 5}\n  fast: {<<: *base, move: 7}\n"
    assert parse_scene(text, "merge.yaml").sheets["fast"].move == 7


def test_huge_integers_are_refused_with_the_field():
    """Was: an integer over 4,300 digits escaped as an internal error (ValueError, exit 1)."""
    with pytest.raises(SceneError, match="big.yaml:3: sides\\[0\\].colour: an integer of 5,000 digits; write"):
        parse_scene(HEAD.replace("{id: blue}", "{id: blue, colour: " + "9" * 5000 + "}"), "big.yaml")


def test_16k_unknown_keys_are_refused_fast():
    """Was: 16,000 unknown keys took 4.6 s (a line lookup per key, each scanning every key)."""
    text = HEAD + "".join(f"key{i}: 1\n" for i in range(16_000))
    started = time.perf_counter()
    with pytest.raises(SceneError) as caught:
        parse_scene(text, "keys.yaml")
    assert time.perf_counter() - started < 1.0
    assert len(str(caught.value)) < 2000


def test_thousands_of_mistakes_are_listed_capped_with_a_count():
    text = HEAD + "".join(f"key{i}: 1\n" for i in range(5000))
    started = time.perf_counter()
    with pytest.raises(SceneError) as caught:
        parse_scene(text, "keys.yaml")
    assert time.perf_counter() - started < 1.0
    lines = str(caught.value).splitlines()
    assert lines[0] == "keys.yaml:4: key0: unknown field; remove it or check its spelling"
    assert lines[1] == "  (and 4,999 more)" and lines[-1] == f"  ({5000 - MAX_LISTED:,} not shown; fix these first)"
    assert len(lines) == MAX_LISTED + 2 and lines[-2] == f"  keys.yaml:{3 + MAX_LISTED}: key{MAX_LISTED - 1}: unknown field; remove it or check its spelling"


def test_100k_bad_units_print_a_short_message(tmp_path):
    """Was: 100,000 bad units printed 36 MB of errors."""
    path = tmp_path / "units.yaml"
    path.write_text(HEAD + "units:\n" + "".join(f"  - {{id: u{i}, side: blue, sheet: no, model: m.ldr, position: "
                                                 f"[{i}, 0], bogus: 1}}\n" for i in range(100_000)))
    result, seconds = run_check(path)
    assert result.returncode == 2 and len(result.stderr) + len(result.stdout) < 5000, result.stderr[-500:]
    assert "units.yaml" in result.stderr and seconds < 20


def test_format_is_never_stringified():
    with pytest.raises(SceneError, match="f.yaml:1: format: a list, not text"):
        parse_scene("format: [1, 2]\nbattlefield: a.ldr\nsides: [{id: blue}]\n", "f.yaml")
