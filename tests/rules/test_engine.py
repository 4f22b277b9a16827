"""The engine (bow3d.rules) names no game: a tiny second ruleset, written here, plays through Game,
Session, a replay file and `replay verify`; the engine's modules import each other without a cycle
and name no BOW concept; chance specs and pending decisions behave as documented."""

from __future__ import annotations

import ast
import dataclasses
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Literal

import pytest
from pydantic import BaseModel, ConfigDict

from bow3d.replay import ReplayWriter, Session, open_replay, verify_replay
from bow3d.rules import (
    RULESETS,
    Action,
    CardDraw,
    ChanceRequest,
    Decide,
    DecisionRequest,
    Dice,
    EventKind,
    EventSchema,
    FieldSpec,
    Game,
    Illegal,
    Narrator,
    Reason,
    Refusal,
    Roll,
    Ruleset,
    Shuffle,
    pending as answers,
)
from bow3d.rules.flat import FlatGeometry
from bow3d.rules.pending import Pending
from bow3d.scene import Scene

ENGINE = Path(__file__).resolve().parents[2] / "bow3d" / "rules"
TARGET = 10   # the race's finish line


# -- a tiny ruleset: "Race to ten" -----------------------------------------------------------------
# Two sides take turns; a side either runs (a d6 decides how far) or rests (and the other side
# decides whether it may rest again next turn: a pending decision). First to TARGET wins.

@dataclass(frozen=True)
class Run(Action):
    TYPE: ClassVar[str] = "run"
    side: str


@dataclass(frozen=True)
class Rest(Action):
    TYPE: ClassVar[str] = "rest"
    side: str


@dataclass
class RaceState:
    round: int = 1
    to_play: str = "a"
    score: dict[str, int] = field(default_factory=lambda: {"a": 0, "b": 0})
    may_rest: dict[str, bool] = field(default_factory=lambda: {"a": True, "b": True})
    pending: Pending | None = None
    winner: str | None = None

    def copy(self) -> RaceState:
        return dataclasses.replace(self, score=dict(self.score), may_rest=dict(self.may_rest))


class RaceParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Literal["race-to-ten"] = "race-to-ten"


class RaceScene(Scene):
    ruleset: RaceParams = RaceParams()


@dataclass
class RaceContext:
    scene: Any
    geometry: Any


def _other(side: str) -> str:
    return "b" if side == "a" else "a"


def check_run(g: Game, action: Run) -> Refusal | None:
    if action.side != g.state.to_play:
        return Refusal(Reason.NOT_YOUR_TURN, f"it is {g.state.to_play}'s turn")
    return None


def apply_run(g: Game, action: Run) -> list:
    return [g.event("started_running", side=action.side)] + answers.request(
        g, "run", [ChanceRequest(action.side, Dice(1, 6), "run", {"side": action.side})], side=action.side)


def resolve_run(g: Game, pending: Pending) -> list:
    side, (faces,) = pending.data["side"], pending.answers
    g.state.score[side] += faces[0]
    events = [g.event("ran", side=side, studs=faces[0], score=g.state.score[side])]
    return events + _next(g, side)


def check_rest(g: Game, action: Rest) -> Refusal | None:
    refusal = check_run(g, Run(action.side))
    if refusal is None and not g.state.may_rest[action.side]:
        return Refusal(Reason.NOT_ALLOWED, f"{action.side} may not rest twice in a row")
    return refusal


def apply_rest(g: Game, action: Rest) -> list:
    other = _other(action.side)
    return [g.event("rested", side=action.side)] + answers.request(
        g, "rest", [DecisionRequest(other, "allow_rest_again", (True, False), {"side": action.side})],
        side=action.side)


def resolve_rest(g: Game, pending: Pending) -> list:
    g.state.may_rest[pending.data["side"]] = bool(pending.answers[0])
    return _next(g, pending.data["side"])


def _next(g: Game, side: str) -> list:
    if g.state.score[side] >= TARGET:
        g.state.winner = side
        return [g.event("finished", winner=side)]
    g.state.to_play = _other(side)
    if side == "b":
        g.state.round += 1
    return []


class RaceNarrator(Narrator):
    def line(self, event, following=()):
        return f"{event.kind.replace('_', ' ')} {event.data}"


class RaceRuleset(Ruleset):
    name = "race-to-ten"
    title = "Race to ten (a test ruleset)"
    edition = "test"
    scene_model = RaceScene
    params_model = RaceParams
    action_classes = (Run, Rest)
    event_schema = EventSchema([
        EventKind("started_running", "a side runs", {"side": FieldSpec("id", "who")}),
        EventKind("ran", "how far", {"side": FieldSpec("id", "who"), "studs": FieldSpec("int", "the d6"),
                                     "score": FieldSpec("int", "now")}),
        EventKind("rested", "a side rests", {"side": FieldSpec("id", "who")}),
        EventKind("finished", "the end", {"winner": FieldSpec("id", "who")}),
    ])

    def __init__(self) -> None:
        super().__init__()
        self.add_rule(Run, check_run, apply_run)
        self.add_rule(Rest, check_rest, apply_rest)
        self.add_resolver("run", resolve_run)
        self.add_resolver("rest", resolve_rest)

    def context(self, scene, geometry, **options):
        return RaceContext(scene, geometry)

    def initial_state(self, ctx):
        return RaceState()

    def begin(self, game):
        return []

    def candidates(self, game):
        yield Run(game.state.to_play)
        yield Rest(game.state.to_play)

    def side_to_play(self, state):
        return state.to_play

    def is_over(self, state):
        return state.winner is not None

    def result(self, state):
        return "win" if state.winner else None

    def narrator(self, language="en"):
        return RaceNarrator()

    def player(self, side, rng):
        class Cautious:  # runs, except that it rests (when it may) every third turn
            def choose(self, game):
                if game.pending is not None:  # the other side's decision: allow, unless it leads
                    return game.pending.answer(game.state.score[side] >= game.state.score[_other(side)])
                return Rest(side) if game.state.round % 3 == 0 and game.state.may_rest[side] else Run(side)
        return Cautious()


RACE = RaceRuleset()

SCENE = """\
format: bow3d-scene/1
name: A race
battlefield: track.ldr
ruleset: {name: race-to-ten}
sides: [{id: a}, {id: b}]
"""


@pytest.fixture
def race(tmp_path):
    RULESETS.register(RACE)
    (tmp_path / "track.ldr").write_text("0 track\n")
    (tmp_path / "race.yaml").write_text(SCENE)
    yield tmp_path / "race.yaml"
    RULESETS.unregister(RACE.name)


def test_a_second_ruleset_plays_through_game_session_replay_and_verify(race, tmp_path):
    """Two actions, a d6 throw and another player's decision, through the engine's Game, the one
    Session, a replay file and `replay verify`: nothing of BOW is needed."""
    from bow3d.rulesets import load_scene

    scene = load_scene(race)
    assert isinstance(scene, RaceScene)
    out = tmp_path / "race.bowreplay"
    with ReplayWriter(out, scene, 3, {"a": "ai", "b": "ai"}, max_rounds=None) as writer:
        session = Session.start(scene, FlatGeometry(), seed=3, writer=writer, max_rounds=None)
        session.advance()
    game = session.game
    assert game.is_over and game.winner in ("a", "b") and game.state.score[game.winner] >= TARGET
    kinds = [r["type"] for r in game.records]
    assert {"run", "rest", "roll", "decide"} <= set(kinds)
    for event in game.events:  # every event fits the documented schema
        assert RACE.event_schema.check(event.to_record()) is None, event
    result = verify_replay(out, geometry_factory=lambda scene: FlatGeometry())
    assert result.ok and result.complete and result.chance_checked and result.players_checked == ("a", "b")
    assert result.winner == game.winner
    opened = open_replay(out)
    assert opened.ruleset is RACE and opened.replay.end.winner == game.winner


def test_a_forged_d6_is_named_by_verify(race, tmp_path):
    from bow3d.rulesets import load_scene

    scene = load_scene(race)
    out = tmp_path / "race.bowreplay"
    with ReplayWriter(out, scene, 3, {"a": "ai", "b": "ai"}, max_rounds=None) as writer:
        Session.start(scene, FlatGeometry(), seed=3, writer=writer, max_rounds=None).advance()
    lines = out.read_text().splitlines()
    n = next(i for i, line in enumerate(lines) if '"type":"roll"' in line)
    lines[n] = re.sub(r'"outcome":\[(\d)\]', lambda m: f'"outcome":[{int(m[1]) % 6 + 1}]', lines[n])
    out.write_text("\n".join(lines) + "\n")
    result = verify_replay(out, geometry_factory=lambda scene: FlatGeometry())
    assert not result.ok and result.kind == "chance" and result.entry == n


def test_check_then_apply_and_pop_in_the_engine(race):
    from bow3d.rulesets import load_scene

    game = Game.start(load_scene(race), FlatGeometry())
    with pytest.raises(Illegal) as error:
        game.apply(Run("b"))
    assert error.value.reason is Reason.NOT_YOUR_TURN and game.records == []
    game.apply(Run("a"))
    assert game.legal_actions() == [] and game.refusal(Run("a")).reason is Reason.ROLL_PENDING
    with pytest.raises(Illegal) as error:
        game.apply(Roll("a", Dice(1, 6), (7,)))  # no such face
    assert error.value.reason is Reason.WRONG_ROLL
    with pytest.raises(Illegal):
        game.apply(Roll("a", Dice(2, 6), (3, 3)))  # not the spec asked for
    game.apply(game.pending.answer((4,)))
    assert game.state.score == {"a": 4, "b": 0} and game.state.to_play == "b"
    game.apply(Rest("b"))
    assert isinstance(game.pending, DecisionRequest) and game.side_to_play == "a"
    assert game.refusal(Decide("b", True)).reason is Reason.WRONG_DECISION      # not b's to decide
    assert game.refusal(Decide("a", "maybe")).reason is Reason.WRONG_DECISION   # not an option
    game.apply(Decide("a", False))
    assert game.state.may_rest["b"] is False
    records = list(game.records)
    game.pop()
    game.pop()
    assert game.records == records[:2] and game.state.may_rest["b"] is True and game.pending is None
    again = Game.from_records(game.scene, FlatGeometry(), records)
    assert again.state.score == {"a": 4, "b": 0} and again.state.may_rest["b"] is False


def test_chance_specs():
    """Dice keep their faces in the order thrown; a shuffle is a permutation; probabilities are exact."""
    two_d8 = Dice(2, 8, "highest")
    assert two_d8.check((8, 1)) is None and two_d8.check((9, 1)) and two_d8.check((1,))
    assert two_d8.kept((3, 7)) == 7 and Dice(3, 6, "sum").kept((1, 2, 3)) == 6
    assert sum(two_d8.probabilities().values()) == pytest.approx(1.0)
    p_keep_8 = sum(p for faces, p in two_d8.probabilities().items() if max(faces) == 8)
    assert p_keep_8 == pytest.approx(1 - (7 / 8) ** 2)
    draws = iter([0.99, 0.0, 0.5])
    assert Dice(3, 6).sample(lambda: next(draws)) == (6, 1, 4)
    deck = Shuffle(("ace", "king", "queen"))
    order = deck.sample(iter([0.1, 0.9]).__next__)
    assert sorted(order) == sorted(deck.cards) and deck.check(order) is None and deck.check(("ace",))
    assert CardDraw(("joker", "joker")).fixed() == "joker" and CardDraw(("a", "b")).fixed() is None
    with pytest.raises(ValueError):
        Dice(1, 1)


def _imports(path: Path) -> set[str]:
    """Modules imported by a file at run time (imports under `if TYPE_CHECKING:` are not)."""
    tree = ast.parse(path.read_text())
    skip = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
            for n in ast.walk(node)}
    names = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
    return names


def test_the_engine_has_no_import_cycle():
    modules = {f"bow3d.rules.{p.stem}": p for p in ENGINE.glob("*.py") if p.stem != "__init__"}
    graph = {m: {n for n in _imports(p) if n in modules and n != m} for m, p in modules.items()}
    state: dict[str, int] = {}

    def visit(m: str, trail: list[str]) -> None:
        state[m] = 1
        for n in graph[m]:
            assert state.get(n) != 1, f"import cycle: {' -> '.join(trail + [m, n])}"
            if n not in state:
                visit(n, trail + [m])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [])


BOW_WORDS = re.compile(r"\b(bow(?![0-9])|bricks?|dodge|armou?r|marking|pilot|compulsory|treat|medic|minifig)\b",
                       re.IGNORECASE)


def test_the_engine_names_no_bow_concept():
    """No identifier, string or comment of bow3d/rules speaks of BOW (bricks, dodge, pilots...)."""
    for path in ENGINE.glob("*.py"):
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            match = BOW_WORDS.search(line)
            assert match is None, f"{path.name}:{number}: {match.group(0)!r} in {line.strip()!r}"
