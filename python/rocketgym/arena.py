"""The arena from Python: ``rocketgym.arena`` plays the schedule of ``rocketgym arena`` (every lineup
in every seat rotation, the same seeds, the same random stream per move) and returns the same
statistics, so the same seed and agents give the same table as the command line.

    report = rg.arena("last_blast", agents={"mine": my_agent, "h": "heuristic", "r": "random"},
                      games=50, seed=1)
    print(report.table)
    rate, low, high = report.win_rate("mine", "h")

An agent is a player spec string (``"heuristic"``, ``"zoo"`` for this game's zoo bot,
``"zoo:last_blast:0"``, ``"checkpoint:PATH"``, ``"ismcts:200:heuristic"``...), an agent from
``rocketgym.load_agent``, or a Python agent: an object with ``act(observations, action_masks)`` or a
callable with that signature, asked for a batch of moves (float32 observations
``[n, *observation_shape]`` encoded for the seat to move, bool masks ``[n, num_actions]``) and
answering ``n`` integer actions (and, if its ``act`` takes ``seeds``, one uint64 seed per row from
that decision's random stream: a sampling agent that draws from them plays the same games whatever
``parallel`` and ``threads``).

Ctrl-C stops the arena within a round of moves (a search player stops between searches): it raises
``ArenaInterrupted``, a ``KeyboardInterrupt`` whose ``report`` holds the games finished before it
(also written to ``records=`` and ``output=``).
"""

from __future__ import annotations

import json
import os
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from . import _rocketgym as _core
from ._common import ConfigArg, check_bool, check_int, config_parts, quoted

Error = _core.Error


class ArenaInterrupted(KeyboardInterrupt):
    """Ctrl-C (or another exception raised by a signal handler) stopped ``rocketgym.arena``: ``report``
    is the ``ArenaReport`` of the games finished before it (``report.games``; the unfinished ones are
    not in it), ``scheduled`` the number of games the arena would have played. The exception the
    handler raised is the ``__cause__``. A ``KeyboardInterrupt``: code that does not catch it stops."""

    def __init__(self, report: "ArenaReport", scheduled: int):
        super().__init__(f"rocketgym.arena interrupted after {report.report['games']} of {scheduled} games "
                         "(the finished ones are in this exception's report, and in records= / output=)")
        self.report = report
        self.scheduled = scheduled


class ArenaReport:
    """What an arena produced: ``table`` (the CLI's text), ``ratings`` (name -> Elo-scale rating),
    ``agents`` (per agent: games, wins, win_rate, win_rate_low/high, mean_return, rating),
    ``games`` (one dict per game: lineup, rotation, seed, players per seat, returns, truncated,
    decisions), ``report`` (the CLI's report.json as a dict) and ``win_rate(a, b)``."""

    def __init__(self, report: Dict[str, Any], table: str, games: List[Dict[str, Any]]):
        self.report = report
        self.table = table
        self.games = games
        self.agents = {a["name"]: a for a in report["agents"]}
        self.names = [a["name"] for a in report["agents"]]
        self.ratings = {a["name"]: a["rating"] for a in report["agents"]}
        self.num_players = report["num_players"]

    def _index(self, name: str) -> int:
        if name not in self.agents:
            raise Error(f"no agent '{name}' in this arena (agents: {', '.join(self.names)})")
        return self.names.index(name)

    def win_rate(self, agent: str, opponent: Optional[str] = None) -> Tuple[float, float, float]:
        """(rate, low, high), the 95% Wilson interval, as the CLI's table shows them.

        Without ``opponent``: the agent's win rate over all its games (a shared first place counts as
        a fraction). With ``opponent``: how often ``agent`` finished ahead of ``opponent`` when both
        were at a table, ties counting half (the table's ``pairs``)."""
        i = self._index(agent)
        if opponent is None:
            a = self.agents[agent]
            return a["win_rate"], a["win_rate_low"], a["win_rate_high"]
        j = self._index(opponent)
        if self.report["head_to_head_count"][i][j] == 0:
            raise Error(f"'{agent}' and '{opponent}' never sat at one table")
        return (self.report["head_to_head"][i][j], self.report["head_to_head_low"][i][j],
                self.report["head_to_head_high"][i][j])

    def __str__(self) -> str:
        return self.table

    def __repr__(self) -> str:
        best = max(self.names, key=lambda n: self.ratings[n])
        return (f"<rocketgym.ArenaReport {self.report['games']} games, {self.num_players} players, "
                f"agents {self.names}, best {best} ({self.ratings[best]:+.0f})>")


def _optional_name(value) -> Optional[str]:
    if value is None:
        return None
    if not isinstance(value, str) or not value:
        raise Error(f"one_vs_each must name one of the agents, not {quoted(value)}")
    return value


def _optional_path(value, name: str) -> Optional[str]:
    if value is None:
        return None
    if not isinstance(value, (str, os.PathLike)):
        raise TypeError(f"{name} must be a path, not {type(value).__name__}")
    path = os.fspath(value)
    if not path:
        raise Error(f"{name} must name a file or folder, not be empty")
    return path


def arena(game_id: str, agents: Union[Mapping[str, Any], Sequence[str]], games: int = 100, seed: int = 1,
          num_players: Optional[int] = None, config: ConfigArg = None, parallel: int = 64, threads: int = 2,
          output=None, records=None, plot: bool = False, one_vs_each: Optional[str] = None,
          continue_records: bool = False) -> ArenaReport:
    """Plays ``agents`` against each other in every seat, as ``rocketgym arena`` does, and rates them.

    ``agents``: a dict name -> agent (a player spec string, a ``load_agent`` object, or a Python
    agent), or a list of spec strings (named as on the command line). ``games``: seeds per lineup,
    each played in every seat rotation; ``seed``, ``parallel`` (games in flight) and ``threads`` as
    the arena config's keys (results depend on neither ``parallel`` nor ``threads``). ``num_players``:
    the game's fewest by default; ``config`` as for ``load_game``. ``output``: a folder for the CLI's
    files (table.txt, report.json, CSVs; ``plot=True`` adds arena.png); ``records``: a file for
    every game's record (``load_records``, ``rocketgym replay``), each written as its game ends;
    an existing file is refused unless ``continue_records=True``, which keeps its games (those of an
    interrupted arena with the same agents, games and seed) and plays the others.
    ``one_vs_each``: an agent's name; only its games are played, one lineup per other agent (it in one
    seat, that agent in all the others), the arena config's ``one_vs_each`` key.

    Ctrl-C stops it between rounds of moves: ``ArenaInterrupted`` (a ``KeyboardInterrupt``) carries the
    report of the games finished so far, which ``records`` and ``output`` also hold.

    Raises ``rocketgym.Error`` naming the agent for an unknown spec, an agent of another game or
    player count, or a Python agent's illegal, out-of-range or malformed answer.
    """
    try:
        from . import _agents
    except ImportError as e:  # built without the LibTorch training library
        raise Error("rocketgym.arena needs the module built with the training library "
                    "(scripts/build.sh builds it): " + str(e)) from None
    if not isinstance(game_id, str):
        raise TypeError(f"game_id must be a string, not {type(game_id).__name__}")
    if isinstance(agents, Mapping):
        pairs = []
        for name, agent in agents.items():
            if not isinstance(name, str) or not name:
                raise Error(f"agent names must be non-empty strings, not {quoted(name)}")
            pairs.append((name, agent))
    elif isinstance(agents, Sequence) and not isinstance(agents, str):
        pairs = []
        for agent in agents:
            if not isinstance(agent, str):
                raise Error("a list of agents holds spec strings; name other agents with a dict "
                            f"(got {type(agent).__name__})")
            pairs.append((None, agent))
    else:
        raise TypeError(f"agents must be a dict of name -> agent or a list of specs, not {type(agents).__name__}")
    if not pairs:
        raise Error("rocketgym.arena: no agents")
    keys = {
        "games": check_int(games, "games"),
        "seed": check_int(seed, "seed"),
        "parallel": check_int(parallel, "parallel"),
        "threads": check_int(threads, "threads"),
        "output": _optional_path(output, "output"),
        "records": _optional_path(records, "records"),
        "continue_records": check_bool(continue_records, "continue_records"),
        "plot": check_bool(plot, "plot"),
        "one_vs_each": _optional_name(one_vs_each),
    }
    if num_players is not None:
        num_players = check_int(num_players, "num_players")
    config_file, overrides = config_parts(config)
    out = _agents.play_arena(game_id, pairs, num_players, keys, config_file, overrides)
    report = ArenaReport(json.loads(out["report"]), out["table"], list(out["games"]))
    if out["interrupted"] is not None:
        raise ArenaInterrupted(report, out["scheduled"]) from out["interrupted"]
    return report


def load_records(path) -> list:
    """Reads a records file (``rocketgym arena --records``, ``arena(records=...)``) and replays every
    game. Each ``Record`` has ``game``, ``config``, ``seed``, ``num_players``, ``players`` (names per
    seat), ``actions``, ``returns``, ``source`` ("file:line"), ``states()`` (every position, the start
    to the end) and ``state_at(k)`` (the position before move k). A bad line is a
    ``rocketgym.SerializationError`` naming file:line and what is wrong."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a path, not {type(path).__name__}")
    return _core.load_records(os.fspath(path))
