"""Seeded, count-bounded mutation fuzzing of replay files (the Trust issue): whatever the bytes,
reading, verifying and showing a replay ends in a result or a named error (a Bow3dError, exit code
2 at the command line), never an internal error, in bounded time and memory.

The mutations run in one child process (this file run as a script) with its address space
limited; each case is seeded by (SEED, n), so a failure names the exact case to replay:
    python tests/fuzz/test_fuzz_replay.py DIR SEED CASES [FIRST_CASE]
The replay mutated is a real game on a flat field (tests/replay/v1_fields.py), written fresh.
"""

from __future__ import annotations

import json
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

SEED = 20261124
CASES = 150  # about 5 s on one idle core
MEMORY_MB = 500
ADDRESS_SPACE = 2 << 30
ROOT = Path(__file__).resolve().parents[2]
V1 = ROOT / "tests" / "data" / "replay" / "v1"

VALUES = [None, True, False, 0, -1, 1, 7, 2 ** 63, 10 ** 40, 1.5, -0.0, 1e308, "", "x", "blue", "red", "roll",
          "move", "end_turn", "attack", "bricks", "dice", [], [1, 2], [[0, 0]], {}, {"kind": "bricks", "n": 6, "p": 0.262},
          {"kind": "dice", "count": 100, "sides": 1000}, {"kind": "bricks", "n": 10 ** 6, "p": 0.5}, "9" * 200]


def _walk(value, rng: random.Random, depth: int = 0):
    """A random edit somewhere in a JSON value (a field changed, dropped or added)."""
    if isinstance(value, dict) and value and depth < 6:
        key = rng.choice(list(value))
        choice = rng.randrange(4)
        if choice == 0:
            value[key] = rng.choice(VALUES)
        elif choice == 1:
            del value[key]
        elif choice == 2:
            value[rng.choice(["type", "n", "side", "spec", "outcome", "end", "extra"])] = rng.choice(VALUES)
        else:
            _walk(value[key], rng, depth + 1)
    elif isinstance(value, list) and value and depth < 6:
        i = rng.randrange(len(value))
        if rng.random() < 0.3:
            value[i] = rng.choice(VALUES)
        else:
            _walk(value[i], rng, depth + 1)


def mutate(lines: list[str], rng: random.Random) -> bytes:
    lines = list(lines)
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(lines))
        kind = rng.randrange(8)
        if kind == 0:
            del lines[i]
        elif kind == 1:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif kind == 2:  # a field of a header, entry or end record
            try:
                value = json.loads(lines[i])
                _walk(value, rng)
                lines[i] = json.dumps(value)
            except (ValueError, RecursionError):  # a line an earlier edit made unreadable
                pass
        elif kind == 3:  # raw bytes
            data = bytearray(lines[i].encode("utf-8", "surrogateescape"))
            for _ in range(rng.randint(1, 4)):
                if data:
                    data[rng.randrange(len(data))] = rng.randrange(256)
            lines[i] = data.decode("utf-8", errors="surrogateescape")
        elif kind == 4:  # deep nesting
            depth = rng.choice([20, 70, 1000, 100_000])
            lines.insert(i, "[" * depth + "]" * depth)
        elif kind == 5:  # a cut
            return ("\n".join(lines)[: rng.randrange(1, sum(map(len, lines)) + 2)]).encode("utf-8", "surrogateescape")
        elif kind == 6:  # a huge line
            lines.insert(i, json.dumps({"n": 1, "record": {"type": "move"}, "events": ["x" * rng.choice([10, 10 ** 6])]}))
        else:  # the version
            lines[0] = lines[0].replace('"version":2', f'"version":{rng.choice([0, 1, 3, -1, 10 ** 30])}')
    return ("\n".join(lines) + "\n").encode("utf-8", "surrogateescape")


def child(folder: Path, seed: int, cases: int, first: int = 0) -> None:
    sys.path.insert(0, str(ROOT))
    from tests.fuzz.test_fuzz_ldraw import CHILD_CPU_S, MUTANT_CPU_S

    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))
    resource.setrlimit(resource.RLIMIT_CPU, (CHILD_CPU_S, CHILD_CPU_S + 5))
    from bow3d.errors import Bow3dError
    from bow3d.replay import ReplayWriter, battle_log, play_game, verify_replay
    from bow3d.rulesets import load_scene
    from tests.replay.v1_fields import flat_field

    scene_path = V1 / "field-foot.yaml"
    scene = load_scene(scene_path)
    source = folder / f"game-{seed}-{first}.bowreplay"
    source.unlink(missing_ok=True)
    with ReplayWriter(source, scene, 3, {"blue": "ai", "red": "ai"}, max_rounds=3) as writer:
        play_game(scene, flat_field(scene), None, 3, writer=writer, max_rounds=3)
    lines = source.read_text().splitlines()
    outcomes = {"result": 0, "error": 0}
    for n in range(first, first + cases):
        rng = random.Random(f"{seed}-{n}")
        started = time.process_time()
        path = folder / f"case-{n}.bowreplay"
        path.write_bytes(mutate(lines, rng))
        try:
            verify_replay(path, geometry_factory=flat_field, scene=scene_path)
            battle_log(path)
            outcomes["result"] += 1
        except Bow3dError:
            outcomes["error"] += 1
        except BaseException as error:  # noqa: BLE001 - anything else is the bug this test looks for
            print(json.dumps({"case": n, "seed": seed, "error": f"{type(error).__name__}: {error}"[:500]}))
            sys.exit(1)
        took = time.process_time() - started
        if took > MUTANT_CPU_S:
            print(json.dumps({"case": n, "seed": seed, "error": f"{took:.1f} s of CPU for one replay"}))
            sys.exit(1)
        path.unlink()
    usage = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"cases": cases, **outcomes, "peak_mb": usage}))


def test_replay_mutations_end_in_a_result_or_a_named_error(tmp_path):
    from tests.fuzz.test_fuzz_ldraw import SMALL_PARENT, WALL_S  # the child's peak memory, not pytest's

    result = subprocess.run([*SMALL_PARENT, sys.executable, __file__, str(tmp_path), str(SEED), str(CASES)],
                            capture_output=True, text=True, timeout=WALL_S)
    assert result.returncode == 0, (result.stdout[-2000:], result.stderr[-2000:])
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary["cases"] == CASES and summary["error"] > 0 and summary["result"] > 0, summary
    assert summary["peak_mb"] < MEMORY_MB, summary


if __name__ == "__main__":
    child(Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]) if len(sys.argv) > 4 else 0)
