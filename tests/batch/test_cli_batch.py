"""Batch work from the command line: simulate's limits, flat memory and Ctrl+C, the Ray engine
against the local one, heatmaps of every unit."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCENES = ROOT / "scenes"


def run_cli(*args: str, timeout: int = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bow3d", *args], capture_output=True, text=True, timeout=timeout,
                          cwd=ROOT)


@pytest.mark.parametrize("games, message", [
    ("99999999999999999999", "give 1 to 1,000,000,000 games"),
    ("0", "--games 0: give 1 to"),
    ("-5", "--games -5: give 1 to"),
])
def test_games_beyond_any_sensible_count_get_a_clear_message(games, message):
    result = run_cli("simulate", "scenes/los-gallery.yaml", "--games", games)
    assert result.returncode == 2 and message in result.stderr and "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1


def test_simulate_refuses_an_existing_results_file_before_playing(tmp_path):
    mine = tmp_path / "mine.jsonl"
    mine.write_text("my notes\n")
    result = run_cli("simulate", "scenes/los-gallery.yaml", "--games", "1", "--results", str(mine))
    assert result.returncode == 2 and "already exists" in result.stderr and mine.read_text() == "my notes\n"


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads memory use from /proc (Linux)")
def test_ten_million_games_run_in_flat_memory_and_ctrl_c_keeps_what_finished(tmp_path):
    """`--games 10000000` runs (its results streamed to disk) with the parent's memory flat while games
    finish; Ctrl+C stops it cleanly: exit 130, the finished games in the JSON and in --results."""
    results = tmp_path / "games.jsonl"
    process = subprocess.Popen(
        [sys.executable, "-m", "bow3d", "simulate", "scenes/los-gallery.yaml", "--games", "10000000", "--workers", "2",
         "--json", "--results", str(results)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # a terminal's Ctrl+C, not a job's SIG_IGN
    try:
        samples, lines = [], []
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and process.poll() is None:
            time.sleep(1.0)
            done = results.read_text().count("\n") if results.exists() else 0
            if done >= 3:  # the workers are up and playing: watch the memory while more games finish
                samples.append(_rss_kib(process.pid))
                lines.append(done)
            if len(samples) >= 12 and lines[-1] >= lines[0] + 10:
                break
        workers = _children(process.pid)
        worker_rss = [_rss_kib(pid) for pid in workers]
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
    assert len(samples) >= 3, err[-2000:]
    assert max(samples) - samples[0] < 20 * 1024, (samples, lines)  # KiB: flat while games kept finishing
    assert all(rss < 1024 * 1024 for rss in worker_rss), worker_rss
    assert process.returncode == 130, err[-2000:]
    data = json.loads(out)
    assert data["interrupted"] and data["asked"] == 10_000_000 and data["games"] == len(data["results"]) >= 10
    assert [r["seed"] for r in data["results"]] == list(range(1, data["games"] + 1))
    assert results.read_text().count("\n") == data["games"]  # everything that finished is kept on disk
    assert "interrupted:" in err and "Traceback" not in err
    assert "game/s" in err  # the progress bar: rate (and time left)
    time.sleep(0.5)
    assert not [pid for pid in workers if Path(f"/proc/{pid}").exists()], "workers left behind"


# -- Ray ------------------------------------------------------------------------------------------

def _ray():
    try:
        import ray as module
    except ImportError:
        pytest.skip("Ray is not installed here (pip install 'bow3d[ray]'); the Ray engine is tested where it is")
    return module


RAY = pytest.mark.xdist_group("ray")   # one local Ray instance: its tests share a worker (--dist loadgroup)


@pytest.fixture(scope="module")
def local_ray():
    """A local Ray instance of two CPUs for this module (the engine joins it, and leaves it running)."""
    module = _ray()
    if not module.is_initialized():
        # address="local": a fresh instance, never a stale /tmp/ray/ray_current_cluster left by a killed one
        module.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    yield module
    module.shutdown()


@RAY
def test_the_ray_engine_runs_jobs_in_order_and_raises_their_own_errors(local_ray):
    from ray import cloudpickle

    import tests.batch.test_executor as toys
    from bow3d.batch import open_executor
    from bow3d.errors import SceneError

    cloudpickle.register_pickle_by_value(toys)  # Ray's workers need not import the tests
    try:
        with open_executor("ray") as executor:
            assert executor.engine == "ray" and executor.workers == 2 and not executor.owns
            results = list(executor.map(toys.Square(pause_s=0.002), range(30), chunk=2, progress=False))
            assert [(i, sq) for i, sq, _, _ in results] == [(i, i * i) for i in range(30)]
            assert len({pid for _, _, pid, _ in results}) <= 2  # two actors, each keeping what it opened
            with pytest.raises(SceneError, match="cannot be built"):
                list(executor.map(toys.Broken(), range(3), progress=False))
    finally:
        cloudpickle.unregister_pickle_by_value(toys)


GAMES_ON_RAY = 8   # more than the 2 workers' first chunks: results come back from both, in order
RAY_ROUNDS = 3     # each game cut at round 3: the same games, seeds and results either way, in a third of the time


@RAY
@pytest.mark.slow
def test_simulate_on_ray_gives_exactly_the_local_results(local_ray, capsys):
    """The scale issue's check, `bow3d simulate scenes/village.yaml --games 40 --seed 1 --engine ray --json`
    gives exactly the results of `--engine local`, with a progress bar: on GAMES_ON_RAY games of RAY_ROUNDS rounds,
    so that the suite stays within its time (40 village games twice took 4 to 7 minutes of a 2-core machine, 8 whole
    games 143 s)."""
    from bow3d.cli import main

    local = run_cli("simulate", "scenes/village.yaml", "--games", str(GAMES_ON_RAY), "--seed", "1", "--engine", "local",
                    "--workers", "2", "--max-rounds", str(RAY_ROUNDS), "--json", "--no-progress", timeout=600)
    assert local.returncode == 0, local.stderr
    assert main(["simulate", "scenes/village.yaml", "--games", str(GAMES_ON_RAY), "--seed", "1", "--engine", "ray",
                 "--max-rounds", str(RAY_ROUNDS), "--json"]) == 0
    captured = capsys.readouterr()
    on_ray, here = json.loads(captured.out), json.loads(local.stdout)
    assert on_ray["engine"] == "ray" and on_ray["workers"] == 2 and here["engine"] == "local"
    assert on_ray["results"] == here["results"] and len(here["results"]) == GAMES_ON_RAY
    for key in ("games", "wins", "draws", "average_rounds"):
        assert on_ray[key] == here[key], key
    assert "game/s" in captured.err and f"{GAMES_ON_RAY}/{GAMES_ON_RAY}" in captured.err  # the progress bar: count, rate, time left


@pytest.fixture
def no_ray(monkeypatch):
    """Ray not installed: importing it fails as it does without the [ray] extra."""
    import builtins

    real_import = builtins.__import__

    def without_ray(name, *args, **kwargs):
        if name == "ray" or name.startswith("ray."):
            raise ImportError("No module named 'ray'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", without_ray)
    monkeypatch.delitem(sys.modules, "ray", raising=False)


def test_ray_not_installed_is_one_line(no_ray, capsys):
    from bow3d.cli import main

    assert main(["simulate", "scenes/los-gallery.yaml", "--games", "1", "--engine", "ray"]) == 2
    assert "pip install 'bow3d[ray]'" in capsys.readouterr().err


def test_a_failed_ray_batch_leaves_no_empty_results_file(no_ray, capsys, tmp_path):
    """Issue 32: simulate --engine ray that cannot start (here: Ray missing) left an empty --results file behind."""
    from bow3d.cli import main

    results = tmp_path / "results.jsonl"
    assert main(["simulate", "scenes/los-gallery.yaml", "--games", "1", "--engine", "ray", "--results", str(results)]) == 2
    assert "--engine ray needs Ray" in capsys.readouterr().err and not results.exists()


def test_a_results_file_with_lines_is_kept_and_an_empty_one_discarded(tmp_path):
    from bow3d.batch.spool import Spool

    kept, empty = Spool(dict, dict, tmp_path / "kept.jsonl"), Spool(dict, dict, tmp_path / "empty.jsonl")
    kept.append({"game": 1})
    kept.discard_if_empty()
    empty.discard_if_empty()
    assert (tmp_path / "kept.jsonl").read_text() == '{"game":1}\n' and not (tmp_path / "empty.jsonl").exists()


# -- heatmaps of every unit -------------------------------------------------------------------------

def _two_unit_gallery(folder: Path) -> Path:
    """The LOS gallery with only its first two units (a quick map per unit)."""
    import yaml

    folder.mkdir()
    shutil.copy(SCENES / "los-gallery.ldr", folder)
    shutil.copytree(SCENES / "figures", folder / "figures")
    data = yaml.safe_load((SCENES / "los-gallery.yaml").read_text())
    firer = data["units"][0]
    target = next(u for u in data["units"] if u["side"] != firer["side"])
    data["units"] = [firer, target]
    path = folder / "gallery-two.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


@pytest.mark.slow
def test_heatmap_all_units_shares_the_units_among_workers(tmp_path):
    scene = _two_unit_gallery(tmp_path / "scene")
    out = tmp_path / "maps"
    result = run_cli("heatmap", str(scene), "--all-units", "-o", str(out), "--workers", "2")
    assert result.returncode == 0, result.stderr
    pictures = sorted(p.name for p in out.iterdir())
    assert len(pictures) == 2 and all(p.startswith("heatmap-") and p.endswith(".png") for p in pictures)
    assert all((out / p).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in pictures)
    assert result.stdout.count("Seen from ") == 2 and "wrote 2 pictures" in result.stdout
    mine = out / pictures[0]
    mine.write_bytes(b"my picture")
    again = run_cli("heatmap", str(scene), "--all-units", "-o", str(out))
    assert again.returncode == 2 and "already exists" in again.stderr and mine.read_bytes() == b"my picture"


def test_heatmap_engine_options_go_with_all_units():
    result = run_cli("heatmap", "scenes/los-gallery.yaml", "--from", "x", "-o", "x.png", "--engine", "ray")
    assert result.returncode == 2 and "go with --all-units" in result.stderr
