"""Named opponents per side (issue 21): chosen by name, recorded honestly in the replay header,
re-derived by verify when they choose without a clock; bad names refused plainly."""

from __future__ import annotations

import pytest

from bow3d.errors import UserInputError
from bow3d.replay.format import ReplayWriter, read_replay
from bow3d.replay.opponents import NamedPlayers, check_opponents, header_word
from bow3d.replay.session import ai_players, play_game
from bow3d.replay.verify import verify_replay
from bow3d.rulesets import BOW, load_scene
from bow3d.rulesets.bow.greedy import GREEDY_VERSION, GreedyPlayer
from tests.replay.test_session import flat


def test_each_side_gets_the_opponent_it_names(scene_path):
    scene = load_scene(scene_path)
    players = NamedPlayers.of({"blue": "greedy", "red": "ai"})(scene, 3)
    assert isinstance(players["blue"], GreedyPlayer) and players["red"].name == "ai"
    assert header_word(players["blue"]) == GREEDY_VERSION and header_word(players["red"]) == "ai"


def test_a_greedy_game_names_greedy_and_its_version_in_the_header_and_verifies(scene_path, tmp_path):
    """The header says which opponent played each side (greedy by its version, the AI as 'ai' with
    the AI's version), and verify re-derives both: a replay cannot claim another player."""
    scene = load_scene(scene_path)
    players = ai_players(scene, 5, names={"blue": "greedy", "red": "ai"})
    out = tmp_path / "greedy.bowreplay"
    words = {side: header_word(p) for side, p in players.items()}
    with ReplayWriter(out, scene, 5, words, max_rounds=4) as writer:
        play_game(scene, flat(scene), players, 5, writer=writer, max_rounds=4)
    header = read_replay(out).header
    assert header.players == {"blue": GREEDY_VERSION, "red": "ai"} and header.ai == BOW.ai_version
    result = verify_replay(out, geometry_factory=flat)
    assert result.ok and result.players_checked == ("blue", "red"), result.first_divergence


def test_a_forged_greedy_choice_is_found(scene_path, tmp_path):
    """Claiming greedy played a side that the AI played: verify names the first choice that differs."""
    scene = load_scene(scene_path)
    out = tmp_path / "forged.bowreplay"
    with ReplayWriter(out, scene, 6, {"blue": GREEDY_VERSION, "red": "ai"}, max_rounds=4) as writer:
        play_game(scene, flat(scene), None, 6, writer=writer, max_rounds=4)
    result = verify_replay(out, geometry_factory=flat)
    assert not result.ok and result.kind == "player" and "blue" in result.first_divergence


@pytest.mark.parametrize("chosen, words", [
    ({"blue": "smart"}, ["--blue smart", "unknown opponent", "greedy, ai"]),
    ({"green": "ai"}, ["--green ai", "no side 'green'", "blue, red", "name one with --player blue=ai"]),
])
def test_an_unknown_opponent_or_side_is_refused_with_the_choices(scene_path, chosen, words):
    with pytest.raises(UserInputError) as error:
        check_opponents(load_scene(scene_path), chosen)
    assert all(w in str(error.value) for w in words), str(error.value)


def test_simulate_refuses_an_unknown_opponent_with_exit_code_2(scene_path, capsys):
    from bow3d.cli import main

    assert main(["simulate", str(scene_path), "--games", "1", "--red", "smart"]) == 2
    err = capsys.readouterr().err
    assert "--red smart: unknown opponent" in err and "Traceback" not in err


def test_a_side_named_twice_is_refused_not_settled_silently(scene_path, capsys):
    """--blue greedy --player blue=strong: which was meant? Refused with exit 2 (the last one used to win)."""
    from bow3d.cli import main

    assert main(["simulate", str(scene_path), "--games", "1", "--blue", "greedy", "--player", "blue=strong"]) == 2
    err = capsys.readouterr().err
    assert "--player blue=strong: blue is already played by greedy; name each side once" in err
    import argparse

    from bow3d.commands.simulate import chosen_opponents

    same = argparse.Namespace(blue="greedy", red=None, player=["blue=greedy"])   # the same name twice says one thing
    assert chosen_opponents(same) == {"blue": "greedy"}


def test_rulesets_lists_each_ruleset_s_opponents(capsys):
    """The names --blue/--red/--players take depend on the ruleset: `bow3d rulesets` says which."""
    from bow3d.cli import main

    assert main(["rulesets"]) == 0
    lines = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()}
    assert lines["bow-1.3"].endswith("opponents: greedy, ai, strong") and lines["war-of-bros"].endswith("opponents: ai")


def test_a_strong_game_verifies_its_choices_and_the_first_strong_is_checked_for_legality(scene_path, tmp_path):
    """bow-strong-3 reads no clock: verify re-derives its choices from the seed. A replay whose header
    names the first strong (bow-strong-1, a search stopped by a time budget) is checked for legality
    and the result says why its choices were not re-derived."""
    from bow3d.rulesets.bow.strong import STRONG_VERSION

    scene = load_scene(scene_path)
    players = ai_players(scene, 7, names={"blue": "strong", "red": "ai"})
    out = tmp_path / "strong.bowreplay"
    with ReplayWriter(out, scene, 7, {s: header_word(p) for s, p in players.items()}, max_rounds=3) as writer:
        play_game(scene, flat(scene), players, 7, writer=writer, max_rounds=3)
    assert read_replay(out).header.players["blue"] == STRONG_VERSION
    result = verify_replay(out, geometry_factory=flat)
    assert result.ok and result.players_checked == ("blue", "red"), result.first_divergence
    old = tmp_path / "strong-1.bowreplay"
    players = ai_players(scene, 7, names={"blue": "strong", "red": "ai"})
    with ReplayWriter(old, scene, 7, {"blue": "bow-strong-1", "red": "ai"}, max_rounds=3) as writer:
        play_game(scene, flat(scene), players, 7, writer=writer, max_rounds=3)
    result = verify_replay(old, geometry_factory=flat)
    assert result.ok and result.players_checked == ("red",), result
    assert "bow-strong-1" in (result.ai_note or "") and "time budget" in result.ai_note


def test_a_game_of_the_retired_second_strong_still_verifies_its_choices(scene_path, tmp_path):
    """bow-strong-2 is no longer named but kept (BowRuleset.retired_opponents): a replay it played
    re-derives every choice from its seed with that player, as the header names it."""
    scene = load_scene(scene_path)
    players = ai_players(scene, 7, names={"blue": "bow-strong-2", "red": "ai"})
    out = tmp_path / "strong-2.bowreplay"
    with ReplayWriter(out, scene, 7, {s: header_word(p) for s, p in players.items()}, max_rounds=3) as writer:
        play_game(scene, flat(scene), players, 7, writer=writer, max_rounds=3)
    assert read_replay(out).header.players["blue"] == "bow-strong-2"
    result = verify_replay(out, geometry_factory=flat)
    assert result.ok and result.players_checked == ("blue", "red"), result.first_divergence


def test_every_ruleset_s_ai_plays_the_version_its_replay_headers_name():
    """A replay header names the ruleset's ai_version and verify re-derives its choices with the player
    the ruleset makes: the two are one AI (a bumped AI with the ruleset left behind would fail verify
    on every new replay), and each retired version's player says it is that version."""
    import numpy as np

    from bow3d.rulesets import known

    for ruleset in known():
        side = "blue"
        player = ruleset.player(side, np.random.default_rng(0))
        assert player.version == ruleset.ai_version, ruleset.name
        for version, factory in ruleset.retired_opponents().items():
            assert factory(side, np.random.default_rng(0)).version == version
