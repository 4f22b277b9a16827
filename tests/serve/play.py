"""Playing a room through its WebSockets, as the page does: the seat to play picks a choice, the others watch."""

from __future__ import annotations

from typing import Any

from tests.serve.conftest import Client

END_KINDS = ("end_turn", "end_step", "end_activation")


def newest(clients: dict[str, Client]) -> dict[str, Any]:
    for client in clients.values():
        client.drain(0.01)
    return max((c.state for c in clients.values() if c.state is not None), key=lambda s: s["records"])


def pick(choices: list[dict[str, Any]], turn: int) -> dict[str, Any]:
    """An end of turn most of the time, else a move or another choice: games that go on and end."""
    ends = [c for c in choices if c["kind"] in END_KINDS]
    if ends and turn % 3:
        return ends[0]
    return choices[(turn * 7) % len(choices)]


def play(clients: dict[str, Client], *, stop_after: int | None = None, acts: int = 10_000) -> dict[str, Any]:
    """Play the human seats in `clients` (role -> Client) until the game is over (or `stop_after` records);
    the newest state."""
    turn = 0
    while turn < acts:
        state = newest(clients)
        if state["result"] or (stop_after is not None and state["records"] >= stop_after):
            return state
        side, records = state["awaiting"]["side"], state["records"]
        seat = clients.get(side)
        if seat is None or state["awaiting"]["player"] != "human":  # the AI's turn: wait for its records
            watcher = next(iter(clients.values()))
            watcher.until(lambda c, n=records: c.state["records"] > n or bool(c.state["result"]))
            continue
        seat.until(lambda c, n=records: c.state["records"] >= n and (c.state["awaiting"]["mine"] or bool(c.state["result"])))
        if seat.state["result"]:
            continue
        choices = seat.state["awaiting"]["choices"]
        choice = pick(choices, turn)
        seen = seat.state["records"]
        seat.send({"type": "act", "index": choice["index"], "records": seen})
        seat.until(lambda c, n=seen: c.state["records"] > n or bool(c.errors))
        assert not seat.errors, seat.errors
        turn += 1
    raise AssertionError(f"no end after {acts} acts")
