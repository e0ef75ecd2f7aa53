"""The JSON API of `rocketgym serve` (issue 32): tables, moves, bots, and every bad input refused
with a clear JSON error while the server keeps serving."""

import pytest


def new_table(server, game="last_blast", seats=("human", "heuristic"), **extra):
    status, reply = server.call("POST", "/api/tables", {"game": game, "players": len(seats), "seats": list(seats),
                                                        "seed": 7, **extra})
    assert status == 200, reply
    return reply


def test_games_lists_every_game_with_options(server):
    status, games = server.call("GET", "/api/games")
    assert status == 200
    ids = [g["id"] for g in games]
    assert sorted(ids) == ["last_blast", "launch_pad", "launchpad23", "lift_off", "rocket_squad"]
    launch_pad = next(g for g in games if g["id"] == "launch_pad")
    assert {"key": "variants.short_game", "default": False} in launch_pad["options"]


def test_a_human_plays_a_whole_game_against_the_heuristic(server):
    table = new_table(server, game="launchpad23")
    moves = 0
    while table["waiting"] != "over":
        assert moves < 5000
        if table["waiting"] == "you":
            assert table["legal"], "the human to move has legal moves"
            action = table["legal"][0]["id"]
            status, table = server.call("POST", f"/api/tables/{table['table']}/move",
                                        {"seat": 0, "action": action, "version": table["version"]})
        else:
            assert table["waiting"] == "bot" and table["legal"] == []
            status, table = server.call("POST", f"/api/tables/{table['table']}/step",
                                        {"seat": 0, "version": table["version"]})
        assert status == 200, table
        moves += 1
    assert len(table["view"]["scores"]) == 2
    status, full = server.call("GET", f"/api/tables/{table['table']}?seat=full")
    assert status == 200 and full["viewer"] == "full"


def test_a_seat_sees_only_its_own_hand(server):
    table = new_table(server, game="launch_pad", options={"variants.negotiations": True})
    players = table["view"]["board"]["players"]
    assert "hand" in players[0] and "hand" not in players[1]
    # The bot's seat and the full board are not shown during the game.
    status, reply = server.call("GET", f"/api/tables/{table['table']}?seat=1")
    assert status == 400 and "bot" in reply["error"]
    status, reply = server.call("GET", f"/api/tables/{table['table']}?seat=full")
    assert status == 400 and "full board" in reply["error"]


@pytest.mark.parametrize("body, message", [
    ({"game": "chess", "players": 2, "seats": ["human", "heuristic"]}, "chess"),
    ({"game": "last_blast", "players": 9, "seats": ["human"] * 9}, "9"),
    ({"game": "last_blast", "players": 2, "seats": ["human"]}, "seats"),
    ({"game": "last_blast", "players": 2, "seats": ["human", "grandmaster"]}, "grandmaster"),
    ({"game": "last_blast", "players": 2, "seats": ["human", 3]}, "seat"),
    ({"game": "last_blast", "players": "two", "seats": ["human", "heuristic"]}, "players"),
    ({"players": 2, "seats": ["human", "heuristic"]}, "game"),
    ({"game": "launch_pad", "players": 2, "seats": ["human", "heuristic"], "options": {"variants.no_such": True}},
     "no_such"),
    ({"game": "launch_pad", "players": 2, "seats": ["human", "heuristic"], "options": {"variants.short_game": [1]}},
     "single value"),
    ({"game": "last_blast", "players": 2, "seats": ["human", "heuristic"], "seed": -1}, "seed"),
])
def test_bad_tables_are_refused_by_name(server, body, message):
    status, reply = server.call("POST", "/api/tables", body)
    assert status == 400
    assert message in reply["error"]


def test_malformed_and_huge_bodies_are_refused(server):
    status, reply = server.call("POST", "/api/tables", raw=b"{not json")
    assert status == 400 and "not valid JSON" in reply["error"]
    status, reply = server.call("POST", "/api/tables", raw=b"[1, 2]")
    assert status == 400 and "object" in reply["error"]
    status, reply = server.call("POST", "/api/tables", raw=b"{" + b" " * 200_000 + b"}")
    assert status == 413 and "too large" in reply["error"]
    status, reply = server.call("GET", "/api/nothing")
    assert status == 404 and "no such" in reply["error"]
    status, reply = server.call("GET", "/api/tables/0123abcd")
    assert status == 404 and "no table" in reply["error"]


def test_illegal_and_stale_moves_change_nothing(server):
    table = new_table(server)
    tid, version = table["table"], table["version"]
    legal = {m["id"] for m in table["legal"]}
    illegal = next(a for a in range(138) if a not in legal)
    for body, status_expected, message in [
        ({"seat": 0, "action": illegal, "version": version}, 400, "not legal"),
        ({"seat": 0, "action": 100000, "version": version}, 400, "not legal"),
        ({"seat": 0, "action": min(legal), "version": version - 1}, 409, "stale"),
        ({"seat": 1, "action": min(legal), "version": version}, 400, "bot"),
        ({"seat": 0, "action": "one", "version": version}, 400, "action"),
        ({"seat": 0, "version": version}, 400, "action"),
    ]:
        status, reply = server.call("POST", f"/api/tables/{tid}/move", body)
        assert status == status_expected and message in reply["error"], (body, reply)
    status, again = server.call("GET", f"/api/tables/{tid}?seat=0")
    assert status == 200 and again["version"] == version and again["view"] == table["view"]
    # The same move twice: the second is stale.
    move = {"seat": 0, "action": min(legal), "version": version}
    assert server.call("POST", f"/api/tables/{tid}/move", move)[0] == 200
    status, reply = server.call("POST", f"/api/tables/{tid}/move", move)
    assert status == 409 and "stale" in reply["error"]


def test_too_many_tables_are_refused_and_the_server_keeps_serving():
    from conftest import start_server, stop_server
    s = start_server("--max-tables", "2")
    try:
        for _ in range(2):
            new_table(s)
        status, reply = s.call("POST", "/api/tables", {"game": "last_blast", "players": 2,
                                                       "seats": ["human", "heuristic"]})
        assert status == 503 and "too many open tables" in reply["error"]
        assert s.call("GET", "/api/games")[0] == 200
    finally:
        stop_server(s)


def test_records_are_watched_from_any_seat(server, tmp_path):
    from conftest import record_a_game, start_server, stop_server
    path = tmp_path / "records.jsonl"
    path.write_text(record_a_game(server, "last_blast") + "\n" + record_a_game(server, "lift_off") + "\n")
    s = start_server("--records", str(path))
    try:
        status, records = s.call("GET", "/api/records")
        assert status == 200 and [r["game"] for r in records] == ["last_blast", "lift_off"]
        moves = records[0]["moves"]
        status, end = s.call("GET", f"/api/records/0?move={moves}")
        assert status == 200 and end["view"]["terminal"] and end["viewer"] == "full"
        assert len(end["log"]) == moves
        status, seat = s.call("GET", "/api/records/0?move=3&seat=1")
        assert status == 200 and seat["viewer"] == 1
        assert len(seat["log"]) < 3, "the other seat's secret picks are not listed"
        for query, message in [("/api/records/0?move=-1", "move"), (f"/api/records/0?move={moves + 1}", "move"),
                               ("/api/records/0?seat=2", "seat"), ("/api/records/5", "record")]:
            status, reply = s.call("GET", query)
            assert status == 400 and message in reply["error"], (query, reply)
    finally:
        stop_server(s)


def test_a_bad_records_file_stops_the_server_naming_its_line(tmp_path):
    import subprocess
    from conftest import BINARY
    if not BINARY.exists():
        pytest.skip(f"no {BINARY}")
    path = tmp_path / "bad.jsonl"
    path.write_text('{"record": 1, "game": "chess"}\n')
    done = subprocess.run([str(BINARY), "serve", "--port", "0", "--records", str(path)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode != 0
    assert f"{path}:1" in done.stderr


def test_hot_seat_passes_the_screen_between_humans(server):
    table = new_table(server, game="launchpad23", seats=("human", "human"))
    assert table["viewer"] == 0 and table["waiting"] == "you"
    tid = table["table"]
    status, table = server.call("POST", f"/api/tables/{tid}/move",
                                {"seat": 0, "action": table["legal"][0]["id"], "version": table["version"]})
    assert status == 200 and table["waiting"] == "human" and table["human_seat"] == 1
    assert table["legal"] == [] and "size" in table["view"]["board"]["setup"][0]
    status, other = server.call("GET", f"/api/tables/{tid}?seat=1")
    assert status == 200 and other["waiting"] == "you" and other["legal"]
    # Seat 1 does not see seat 0's secret starting size.
    assert "size" not in other["view"]["board"]["setup"][0]
    assert other["log"] == []
