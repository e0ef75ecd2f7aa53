"""The JSON API of `rocketgym serve` (issues 32 and 53): tables, moves, bots, every bad input refused
with a clear JSON error that never quotes it while the server keeps serving, and the server safe to
open to a network (docs/browser.md): seat keys, seat kinds from the server's list, Host, Origin and
Content-Type checked, bodies limited and parsed with a depth limit, slow clients and SIGTERM."""

import math
import socket

import pytest

from conftest import registry_games


def new_table(server, game="last_blast", seats=("human", "heuristic"), **extra):
    status, reply = server.call("POST", "/api/tables", {"game": game, "players": len(seats), "seats": list(seats),
                                                        "seed": 7, **extra})
    assert status == 200, reply
    return reply


def key(table, seat=0):
    """The key of a human seat of a table, from the reply that made it (None from a server without keys)."""
    return table.get("keys", {}).get(str(seat))


def test_games_lists_every_game_with_options(server):
    status, games = server.call("GET", "/api/games")
    assert status == 200
    ids = [g["id"] for g in games]
    assert ids == registry_games()  # every game of the registry (`rocketgym list`), in its order
    launch_pad = next(g for g in games if g["id"] == "launch_pad")
    assert {"key": "variants.short_game", "default": False} in launch_pad["options"]
    # The seats the page starts with (players::default_seats): a person, then the heuristic bot.
    assert launch_pad["lineup"] == {str(n): ["human"] + ["heuristic"] * (n - 1) for n in range(2, 5)}


def test_a_human_plays_a_whole_game_against_the_heuristic(server):
    table = new_table(server, game="launchpad23")
    seat_key = key(table)
    moves = 0
    while table["waiting"] != "over":
        assert moves < 5000
        if table["waiting"] == "you":
            assert table["legal"], "the human to move has legal moves"
            action = table["legal"][0]["id"]
            status, table = server.call("POST", f"/api/tables/{table['table']}/move",
                                        {"seat": 0, "action": action, "version": table["version"]}, key=seat_key)
        else:
            assert table["waiting"] == "bot" and table["legal"] == []
            status, table = server.call("POST", f"/api/tables/{table['table']}/step",
                                        {"seat": 0, "version": table["version"]}, key=seat_key)
        assert status == 200, table
        moves += 1
    assert len(table["view"]["scores"]) == 2
    status, full = server.call("GET", f"/api/tables/{table['table']}?seat=full", key=seat_key)
    assert status == 200 and full["viewer"] == "full"


def test_a_seat_sees_only_its_own_hand(server):
    table = new_table(server, game="launch_pad", options={"variants.negotiations": True})
    players = table["view"]["board"]["players"]
    assert "hand" in players[0] and "hand" not in players[1]
    # The bot's seat and the full board are not shown during the game.
    status, reply = server.call("GET", f"/api/tables/{table['table']}?seat=1", key=key(table))
    assert status == 400 and "bot" in reply["error"]
    status, reply = server.call("GET", f"/api/tables/{table['table']}?seat=full", key=key(table))
    assert status == 400 and "full board" in reply["error"]


@pytest.mark.parametrize("body, message", [
    ({"game": "chess<script>", "players": 2, "seats": ["human", "heuristic"]}, "field 'game' must be one of"),
    ({"game": "last_blast", "players": 9, "seats": ["human"] * 9}, "players"),
    ({"game": "last_blast", "players": 2, "seats": ["human"]}, "seats"),
    ({"game": "last_blast", "players": 2, "seats": ["human", "grandmaster<script>"]}, "seat 1"),
    ({"game": "last_blast", "players": 2, "seats": ["human", 3]}, "seat 1"),
    ({"game": "last_blast", "players": "two<script>", "seats": ["human", "heuristic"]}, "players"),
    ({"players": 2, "seats": ["human", "heuristic"]}, "game"),
    ({"game": "launch_pad", "players": 2, "seats": ["human", "heuristic"],
      "options": {"variants.no_such<script>": True}}, "options"),
    ({"game": "launch_pad", "players": 2, "seats": ["human", "heuristic"],
      "options": {"variants.short_game": ["<script>"]}}, "options"),
    ({"game": "last_blast", "players": 2, "seats": ["human", "heuristic"], "seed": "<script>"}, "seed"),
    ({"game": "last_blast", "players": 2, "seats": ["human", "heuristic"], "seed": -1}, "seed"),
])
def test_bad_tables_are_refused_by_name_without_quoting_the_request(server, body, message):
    status, reply = server.call("POST", "/api/tables", body)
    assert status == 400
    assert message in reply["error"]
    assert "script" not in reply["error"] and "grandmaster" not in reply["error"]


def test_malformed_and_huge_bodies_are_refused(server):
    status, reply = server.call("POST", "/api/tables", raw=b"{not json")
    assert status == 400 and "not valid JSON" in reply["error"]
    status, reply = server.call("POST", "/api/tables", raw=b"[1, 2]")
    assert status == 400 and "object" in reply["error"]
    status, reply = server.call("POST", "/api/tables", raw=b"{" + b" " * 200_000 + b"}")
    assert status == 413 and "exceeds 65536 bytes" in reply["error"]
    status, reply = server.call("GET", "/api/nothing")
    assert status == 404 and "no such" in reply["error"]
    status, reply = server.call("GET", "/api/tables/0123abcd")
    assert status == 404 and "no table" in reply["error"]


def test_illegal_and_stale_moves_change_nothing(server):
    table = new_table(server)
    tid, version, seat_key = table["table"], table["version"], key(table)
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
        status, reply = server.call("POST", f"/api/tables/{tid}/move", body, key=seat_key)
        assert status == status_expected and message in reply["error"], (body, reply)
    status, again = server.call("GET", f"/api/tables/{tid}?seat=0", key=seat_key)
    assert status == 200 and again["version"] == version and again["view"] == table["view"]
    # The same move twice: the second is stale.
    move = {"seat": 0, "action": min(legal), "version": version}
    assert server.call("POST", f"/api/tables/{tid}/move", move, key=seat_key)[0] == 200
    status, reply = server.call("POST", f"/api/tables/{tid}/move", move, key=seat_key)
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
        # Seat 1 counts only the moves it sees: its own picks, numbered without gaps, not seat 0's.
        assert [(e["move"], e["seat"]) for e in seat["log"]] == [(0, 1), (1, 1), (2, 1)], seat["log"]
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


@pytest.mark.parametrize("text", ["", "\n\n  \n"])
def test_a_records_file_without_games_stops_the_server_as_replay_refuses_it(tmp_path, text):
    # serve started on such a file and served no games, while replay refused it.
    import subprocess
    from conftest import BINARY
    if not BINARY.exists():
        pytest.skip(f"no {BINARY}")
    path = tmp_path / "empty.jsonl"
    path.write_text(text)
    for args in (["serve", "--port", "0", "--records", str(path)], ["replay", str(path)]):
        done = subprocess.run([str(BINARY), *args], capture_output=True, text=True, timeout=60)
        assert done.returncode != 0, args
        assert f"{path}: no game records in the file" in done.stderr, (args, done.stderr)
        assert "open http://" not in done.stdout


def test_hot_seat_passes_the_screen_between_humans(server):
    table = new_table(server, game="launchpad23", seats=("human", "human"))
    assert table["viewer"] == 0 and table["waiting"] == "you"
    tid, keys = table["table"], table["keys"]
    assert sorted(keys) == ["0", "1"] and keys["0"] != keys["1"]
    status, table = server.call("POST", f"/api/tables/{tid}/move",
                                {"seat": 0, "action": table["legal"][0]["id"], "version": table["version"]},
                                key=keys["0"])
    assert status == 200 and table["waiting"] == "person" and table["person_seat"] == 1
    assert table["people"] == [True, True]
    assert table["legal"] == [] and "size" in table["view"]["board"]["setup"][0]
    status, other = server.call("GET", f"/api/tables/{tid}?seat=1", key=keys["1"])
    assert status == 200 and other["waiting"] == "you" and other["legal"]
    # Seat 1 does not see seat 0's secret starting size.
    assert "size" not in other["view"]["board"]["setup"][0]
    assert other["log"] == []


def test_undo_takes_back_the_human_move_over_http(server):
    start = new_table(server, game="launchpad23")
    tid, seat_key = start["table"], key(start)
    assert start["can_undo"] is False
    status, reply = server.call("POST", f"/api/tables/{tid}/undo", {"seat": 0, "version": start["version"]},
                                key=seat_key)
    assert status == 409 and "nothing to undo" in reply["error"]
    first = start["legal"][0]["id"]
    status, table = server.call("POST", f"/api/tables/{tid}/move",
                                {"seat": 0, "action": first, "version": start["version"]}, key=seat_key)
    assert status == 200 and table["can_undo"] is True
    while table["waiting"] == "bot":
        status, table = server.call("POST", f"/api/tables/{tid}/step", {"seat": 0, "version": table["version"]},
                                    key=seat_key)
        assert status == 200, table
    for body, status_expected, message in [
        ({"seat": 0, "version": start["version"]}, 409, "stale"),
        ({"seat": 1, "version": table["version"]}, 400, "bot"),
        ({"seat": 0}, 400, "version"),
    ]:
        status, reply = server.call("POST", f"/api/tables/{tid}/undo", body, key=seat_key)
        assert status == status_expected and message in reply["error"], (body, reply)
    status, reply = server.call("POST", f"/api/tables/{tid}/undo", raw=b"{oops", key=seat_key)
    assert status == 400 and "not valid JSON" in reply["error"]
    status, undone = server.call("POST", f"/api/tables/{tid}/undo", {"seat": 0, "version": table["version"]},
                                 key=seat_key)
    assert status == 200
    assert undone["view"] == start["view"] and undone["legal"] == start["legal"] and undone["log"] == []
    assert undone["version"] > table["version"]
    # The move made at the start is stale now, though the position is the same again.
    status, reply = server.call("POST", f"/api/tables/{tid}/move",
                                {"seat": 0, "action": first, "version": start["version"]}, key=seat_key)
    assert status == 409 and "stale" in reply["error"]


def test_the_arena_table_of_each_records_file(server, tmp_path):
    from conftest import record_a_game, start_server, stop_server
    path = tmp_path / "arena.jsonl"
    lines = [record_a_game(server, "launchpad23", seed, seats, names)
             for seed, seats, names in [(1, ("heuristic", "random"), ("strong", "weak")),
                                        (2, ("random", "heuristic"), ("weak", "strong")),
                                        (3, ("heuristic", "random"), ("strong", "weak"))]]
    path.write_text("\n".join(lines) + "\n")
    other = tmp_path / "other.jsonl"
    other.write_text(record_a_game(server, "last_blast") + "\n")
    s = start_server("--records", str(path), str(other))
    try:
        status, tables = s.call("GET", "/api/arena")
        assert status == 200 and len(tables) == 2
        status, records = s.call("GET", "/api/records")
        assert [r["arena"] for r in records] == [0, 0, 0, 1]
        table = tables[0]
        assert table["source"] == str(path) and table["game"] == "launchpad23" and table["games"] == 3
        assert [a["name"] for a in table["agents"]] == ["strong", "weak"]
        assert [a["games"] for a in table["agents"]] == [3, 3]
        strong = sum(_score(record, "strong") for record in lines)
        assert table["agents"][0]["wins"] == pytest.approx(strong)
        assert table["head_to_head"][0][1] == pytest.approx(strong / 3)
        assert tables[1]["source"] == str(other) and tables[1]["agents"][0]["games"] == 2
    finally:
        stop_server(s)


def _score(line, name):
    """The score of `name` in a 2-player record: 1 for the better return, a half for a draw."""
    import json
    record = json.loads(line)
    mine = record["returns"][record["players"].index(name)]
    theirs = record["returns"][1 - record["players"].index(name)]
    return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


@pytest.fixture(scope="module")
def serve_help():
    """`rocketgym serve --help`, run once for the tests that read it."""
    import subprocess
    from conftest import BINARY
    if not BINARY.exists():
        pytest.skip(f"no {BINARY}")
    return subprocess.run([str(BINARY), "serve", "--help"], capture_output=True, text=True, timeout=60)


def test_serve_help_says_how_to_open_it(serve_help):
    done = serve_help
    assert done.returncode == 0
    assert "open the address it prints" in done.stdout and "http://127.0.0.1:8023/" in done.stdout
    assert "browser" in done.stdout and "--port" in done.stdout and "--records" in done.stdout


def test_every_serve_flag_and_limit_is_in_the_docs(serve_help):
    """docs/browser.md names every flag of `rocketgym serve` and every limit of serve_limits.h."""
    import re
    from conftest import REPO
    help_text = serve_help.stdout
    flags = set(re.findall(r"^\s+(--[a-z-]+)", help_text, re.M)) - {"--help"}
    assert {"--host", "--port", "--allow-agent", "--max-tables", "--idle-minutes", "--records", "--web"} <= flags
    docs = (REPO / "docs" / "browser.md").read_text()
    assert [f for f in sorted(flags) if f"`{f}" not in docs] == []
    limits = (REPO / "training" / "cli" / "serve_limits.h").read_text()
    names = set(re.findall(r"inline constexpr \S+ (k[A-Za-z]+)", limits))
    assert len(names) >= 15 and [n for n in sorted(names) if f"`{n}`" not in docs] == []


# The syscalls a thread of the idle server may wait in (x86_64 numbers), each with a test that its
# arguments mean "until something happens" (no timeout): a thread that polls would be seen in one
# with a timeout, or sleeping, or running.
_BLOCKING_FOREVER = {
    43: ("accept", lambda args: True),
    288: ("accept4", lambda args: True),
    202: ("futex", lambda args: args[1] & 0x7F in (0, 9) and args[3] == 0),  # FUTEX_WAIT(_BITSET), no timeout
    7: ("poll", lambda args: args[2] in (0xFFFFFFFF, 0xFFFFFFFFFFFFFFFF)),   # timeout -1
    271: ("ppoll", lambda args: args[2] == 0),                               # no timespec
    23: ("select", lambda args: args[4] == 0),
    270: ("pselect6", lambda args: args[4] == 0),
    232: ("epoll_wait", lambda args: args[3] in (0xFFFFFFFF, 0xFFFFFFFFFFFFFFFF)),
    281: ("epoll_pwait", lambda args: args[3] in (0xFFFFFFFF, 0xFFFFFFFFFFFFFFFF)),
}


def _threads_not_blocked_forever(pid):
    """The threads of `pid` that are not waiting, without a timeout, in a syscall of _BLOCKING_FOREVER."""
    import pathlib
    busy = []
    for task in pathlib.Path(f"/proc/{pid}/task").iterdir():
        try:
            fields = (task / "syscall").read_text().split()
        except OSError:
            continue  # the thread ended
        if fields[0] == "running" or int(fields[0]) not in _BLOCKING_FOREVER:
            busy.append((task.name, " ".join(fields)))
            continue
        name, forever = _BLOCKING_FOREVER[int(fields[0])]
        if not forever([int(a, 16) for a in fields[1:7]]):
            busy.append((task.name, name + " with a timeout: " + " ".join(fields)))
    return busy


def _wait_until_idle(server):
    """Waits until every thread of the server is blocked without a timeout, and returns the threads
    that are not (none, or the assertion fails). The threads finish the last answer, then stay
    blocked: this waits for that state, it does not measure time."""
    import os
    busy = _threads_not_blocked_forever(server.process.pid)
    for _ in range(200000):
        if not busy:
            break
        os.sched_yield()
        busy = _threads_not_blocked_forever(server.process.pid)
    return busy


def test_the_idle_server_waits_without_a_timeout(tmp_path):
    """No CPU while idle, checked without a clock: once the answers are sent, every thread of the
    server waits in a syscall that only a request (or a signal) ends. A server that polled, slept
    or spun would always have a thread in a syscall with a timeout, sleeping or running."""
    import http.client
    import os
    import platform
    import socket
    import urllib.request
    from conftest import start_server, stop_server
    if platform.machine() != "x86_64" or not os.path.exists("/proc/self/syscall"):
        pytest.skip("reads /proc/PID/task/*/syscall with x86_64 syscall numbers")
    s = start_server()
    try:
        assert _wait_until_idle(s) == [], "the server is not idle before its first request"
        table = new_table(s, game="launchpad23")
        s.call("POST", f"/api/tables/{table['table']}/move",
               {"seat": 0, "action": table["legal"][0]["id"], "version": table["version"]}, key=key(table))
        with urllib.request.urlopen(s.url + "/index.html", timeout=60) as page:  # from the file mount
            assert b"rocketgym" in page.read()
        # An HTTP/1.1 client that would keep the connection: the server closes it after the answer,
        # so no worker stays polling it.
        host, port = s.url.removeprefix("http://").split(":")
        connection = http.client.HTTPConnection(host, int(port), timeout=60)
        connection.request("GET", "/api/games", headers={"Host": f"{host}:{port}"})
        response = connection.getresponse()
        assert response.status == 200 and response.getheader("Connection") == "close"
        response.read()
        busy = _wait_until_idle(s)
        assert not busy, f"threads of the idle server that would wake by themselves: {busy}"
        assert _threads_not_blocked_forever(s.process.pid) == []
        # A connection opened without a request (a browser's preconnect): the server drops it,
        # then is idle again.
        with socket.create_connection((host, int(port)), timeout=60) as silent:
            assert silent.recv(1) == b""
        assert _wait_until_idle(s) == []
        connection.close()
    finally:
        stop_server(s)


@pytest.mark.parametrize("stop_signal", ["SIGTERM", "SIGINT"])
def test_a_signal_stops_the_server_cleanly(stop_signal):
    """SIGTERM (a service manager, `kill`) and SIGINT (Ctrl-C) stop a server that has tables open:
    exit status 0, a last line naming the signal and the tables dropped, no abort (stop_server checks
    the status and stderr; the wait is only a guard against a hang)."""
    import signal
    from conftest import start_server, stop_server
    s = start_server()
    table = new_table(s, game="launchpad23")
    status, _ = s.call("POST", f"/api/tables/{table['table']}/move",
                       {"seat": 0, "action": table["legal"][0]["id"], "version": table["version"]}, key=key(table))
    assert status == 200
    out, _ = stop_server(s, getattr(signal, stop_signal))
    assert f"stopped by {stop_signal} (open tables dropped: 1)" in out


@pytest.mark.parametrize("stop_signal", ["SIGTERM", "SIGINT"])
def test_a_signal_as_soon_as_the_address_is_printed_stops_the_server(stop_signal):
    """The signal may come as soon as a script has read the address, before the server waits for its
    first connection: it is caught from before the address is printed, and the server still stops."""
    import signal
    from conftest import start_server, stop_server
    s = start_server()
    out, _ = stop_server(s, getattr(signal, stop_signal))
    assert "(open tables dropped: 0)" in out


def test_a_signal_stops_the_server_with_a_connection_open():
    """A connection that sent no request yet (a browser's preconnect) does not hold the server: it
    is closed, and the server exits cleanly; afterwards nothing listens on the port."""
    import socket
    from conftest import start_server, stop_server
    s = start_server()
    host, port = s.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=300) as silent:
        stop_server(s)
        # Closed without an answer: an end of file if a worker had taken the connection, a reset if
        # it was still waiting to be accepted when the listening socket closed.
        try:
            assert silent.recv(1) == b""
        except ConnectionResetError:
            pass
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection((host, int(port)), timeout=300).close()


# --- safe by default, also on a network (issue 53) ----------------------------------------------------------------


def _raw(server, data, read=True):
    """Sends raw bytes on a new connection; returns (status, headers, body) of the answer."""
    with socket.create_connection((server.host, server.port), timeout=60) as s:
        s.sendall(data)
        answer = b""
        while read:
            chunk = s.recv(65536)
            if not chunk:
                break
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers, body


def _chunked(body, size):
    return b"".join(b"%x\r\n" % len(body[i:i + size]) + body[i:i + size] + b"\r\n"
                    for i in range(0, len(body), size)) + b"0\r\n\r\n"


def _post_head(server, path="/api/tables"):
    return (f"POST {path} HTTP/1.1\r\nHost: {server.host}:{server.port}\r\n"
            "Content-Type: application/json\r\n").encode()


def test_a_deeply_nested_body_is_refused_and_the_server_lives(server):
    """A ~195 KiB chunked body `[[[...]]]` of depth 100000 crashed the server (SIGSEGV in nlohmann's
    dump(), quoting it in the error): every open table was lost."""
    table = new_table(server)
    deep = b"[" * 100000 + b"]" * 100000
    status, _, body = _raw(server, _post_head(server) + b"Transfer-Encoding: chunked\r\n\r\n" + _chunked(deep, 4096))
    assert status == 413 and b"[[" not in body
    # Within the size limit, the depth limit: 30000 levels in 60000 bytes.
    status, reply = server.call("POST", "/api/tables", raw=b"[" * 30000 + b"]" * 30000)
    assert status == 400 and "deeper than 16" in reply["error"] and "[[" not in reply["error"]
    status, reply = server.call("POST", "/api/tables", raw=b'{"game": "<script>' + b"{" * 20)
    assert status == 400 and "script" not in reply["error"]
    status, again = server.call("GET", f"/api/tables/{table['table']}?seat=0", key=key(table))
    assert status == 200 and again["view"] == table["view"]


@pytest.mark.parametrize("size", [200_000, 16 << 20])
def test_a_chunked_body_over_the_limit_is_refused(server, size):
    """Chunked bodies escaped the 64 KiB limit: 16 MiB and 128 MiB were accepted."""
    body = b"{" + b" " * (size - 2) + b"}"
    with socket.create_connection((server.host, server.port), timeout=60) as s:
        s.sendall(_post_head(server) + b"Transfer-Encoding: chunked\r\n\r\n")
        try:
            for i in range(0, len(body), 65536):  # the server answers once the limit is passed
                s.sendall(b"%x\r\n" % len(body[i:i + 65536]) + body[i:i + 65536] + b"\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass
        answer = b""
        try:
            while chunk := s.recv(65536):
                answer += chunk
        except ConnectionResetError:
            pass
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert b"exceeds 65536 bytes" in answer
    assert server.call("GET", "/api/games")[0] == 200


@pytest.mark.parametrize("spec", ["checkpoint:/etc/passwd", "/etc/passwd", "ismcts:20000:heuristic:4",
                                  "search:/tmp/x.ckpt:64", "zoo:../../etc/passwd", "zoo:launch_pad"])
def test_a_seat_is_a_kind_from_the_servers_list_never_a_spec_or_path(server, spec):
    """Clients chose what the server ran: a seat `ismcts:20000:heuristic:4` held the lock of every
    table for seconds, and `checkpoint:/etc/passwd` answered "bad magic" (a missing file: "does not
    exist") after reading any file up to 4 GiB."""
    status, reply = server.call("POST", "/api/tables", {"game": "last_blast", "players": 2, "seats": ["human", spec]})
    assert status == 400 and "seat 1 must be human or a bot this server offers" in reply["error"]
    assert spec not in reply["error"] and "magic" not in reply["error"] and "exist" not in reply["error"]
    status, games = server.call("GET", "/api/games")
    assert spec not in next(g for g in games if g["id"] == "last_blast")["seats"]["2"]
    assert all(kinds[:3] == ["human", "random", "heuristic"] for g in games for kinds in g["seats"].values())


def test_a_human_seat_needs_its_own_key(server):
    """At a 2-human table either client read the other's hand and moved for it (the table id was the
    only secret)."""
    s = server
    table = new_table(s, game="launch_pad", seats=("human", "human"))
    tid = table["table"]
    move = {"seat": 0, "action": table["legal"][0]["id"], "version": table["version"]}
    for other in [key(table, 1), None, "0" * 32]:
        status, reply = s.call("GET", f"/api/tables/{tid}?seat=0", key=other)
        assert status == 403 and "key" in reply["error"]
        assert s.call("POST", f"/api/tables/{tid}/move", move, key=other)[0] == 403
    status, seat1 = s.call("GET", f"/api/tables/{tid}", key=key(table, 1))
    assert status == 200 and seat1["viewer"] == 1 and "hand" not in seat1["view"]["board"]["players"][0]
    assert s.call("POST", f"/api/tables/{tid}/move", move, key=key(table, 0))[0] == 200


def test_no_undo_once_the_game_is_over(server):
    """Undo still worked after the end, when the full board had been shown."""
    table = new_table(server, game="last_blast", seats=("human", "random"))
    tid, seat_key = table["table"], key(table)
    while table["waiting"] != "over":
        call = "move" if table["waiting"] == "you" else "step"
        body = {"seat": 0, "version": table["version"]}
        if call == "move":
            body["action"] = table["legal"][0]["id"]
        status, table = server.call("POST", f"/api/tables/{tid}/{call}", body, key=seat_key)
        assert status == 200, table
    assert table["can_undo"] is False
    assert server.call("GET", f"/api/tables/{tid}?seat=full", key=seat_key)[0] == 200
    status, reply = server.call("POST", f"/api/tables/{tid}/undo", {"seat": 0, "version": table["version"]},
                                key=seat_key)
    assert status == 409 and "game is over" in reply["error"]


def test_another_site_cannot_use_the_api(server):
    """Any Content-Type was read as JSON and Origin and Host were not checked: a plain HTML form of
    another site made tables, and DNS rebinding was open."""
    body = {"game": "last_blast", "players": 2, "seats": ["human", "heuristic"]}
    status, reply = server.call("POST", "/api/tables", body, headers={"Content-Type": "text/plain"})
    assert status == 415 and "application/json" in reply["error"]
    status, reply = server.call("POST", "/api/tables", body, headers={"Origin": "http://evil.example"})
    assert status == 403 and "origin" in reply["error"]
    status, reply = server.call("POST", "/api/tables", body, headers={"Host": f"evil.example:{server.port}"})
    assert status == 421 and "evil" not in reply["error"]
    status, reply = server.call("GET", "/", headers={"Host": f"evil.example:{server.port}"})
    assert status == 421
    status, _ = server.call("POST", "/api/tables", body, headers={"Origin": f"http://localhost:{server.port}"})
    assert status == 200


def test_every_answer_carries_the_security_headers(server):
    """No X-Content-Type-Options, CSP or X-Frame-Options was sent."""
    host = f"Host: {server.host}:{server.port}\r\n".encode()
    for path in [b"/", b"/app.js", b"/api/games", b"/api/nothing"]:
        status, headers, _ = _raw(server, b"GET " + path + b" HTTP/1.1\r\n" + host + b"\r\n")
        assert status in (200, 404)
        assert headers["x-content-type-options"] == "nosniff"
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        assert "default-src 'self'" in headers["content-security-policy"]
        assert headers["x-frame-options"] == "DENY"


@pytest.mark.parametrize("target", [b"/app.js%00.html", b"/index.html%00", b"/%ff", b"/api/tables/%ff",
                                    b"/api/records/0?seat=%c0%af", b"/a%5c..%5capp.js"])
def test_bad_path_bytes_and_invalid_utf8_are_refused(server, target):
    """`%00` cut the path (`/app.js%00.html` was served as text/html); invalid UTF-8 gave a generic 500."""
    status, headers, body = _raw(server, b"GET " + target + f" HTTP/1.1\r\nHost: {server.host}:{server.port}"
                                 "\r\n\r\n".encode())
    assert status == 400 and headers["content-type"] == "application/json"
    assert b"\xff" not in body and target.split(b"?")[0] not in body


def test_slow_clients_do_not_hold_up_the_others(server):
    """8 connections trickling one header byte every 3 s stopped all answers; 200 idle connections
    delayed a request 23 s. Here 16 clients trickle header lines and 16 more stay silent while a
    request is made: it is answered while every trickling client is still being read (a server that
    gave each connection a thread answered it only after dropping most of them; each round waits
    0.2 s for the answer, far within the server's idle timeout, and the test gives up after 100)."""
    import select
    head = f"GET / HTTP/1.1\r\nHost: {server.host}:{server.port}\r\n".encode()
    slow = [socket.create_connection((server.host, server.port), timeout=60) for _ in range(32)]
    try:
        for s in slow[:16]:
            s.sendall(head)
        asked = socket.create_connection((server.host, server.port), timeout=60)
        asked.sendall(b"GET /api/games" + head[5:] + b"\r\n")
        answered, dropped = False, 0
        for _ in range(100):
            for s in slow[:16]:
                try:
                    s.sendall(b"X: y\r\n")
                except OSError:
                    dropped += 1
            if select.select([asked], [], [], 0.2)[0]:
                answered = True
                break
        assert answered, "a request waited behind slow clients"
        assert dropped == 0, f"the request was answered only after {dropped} trickling clients were dropped"
        assert asked.recv(12) == b"HTTP/1.1 200"
        asked.close()
    finally:
        for s in slow:
            s.close()


def test_sigterm_does_not_wait_for_a_slow_client():
    """One slow client kept SIGTERM from finishing: the server went on reading its request as long as
    bytes came. Now a signal closes the connections still sending their request at once. The client
    here sends a header byte whenever the server has not exited within 0.5 s of the last one (far
    within any read timeout), up to 40 bytes: the server must exit meanwhile, and answer nothing."""
    import signal
    import subprocess
    from conftest import start_server, stop_server
    s = start_server()
    slow = socket.create_connection((s.host, s.port), timeout=60)
    slow.sendall(f"GET /api/games HTTP/1.1\r\nHost: {s.host}:{s.port}\r\nX-Slow: ".encode())
    s.process.send_signal(signal.SIGTERM)
    exited = False
    for _ in range(40):
        try:
            s.process.wait(timeout=0.5)
            exited = True
            break
        except subprocess.TimeoutExpired:
            try:
                slow.sendall(b"x")
            except OSError:
                pass
    answer = b""
    try:
        slow.sendall(b"\r\n\r\n")
        answer = slow.recv(100)
    except OSError:
        pass
    slow.close()
    if not exited:
        s.process.kill()
        s.process.communicate()
        raise AssertionError("the server kept reading a slow client after SIGTERM")
    assert not answer.startswith(b"HTTP"), answer
    out, _ = stop_server(s, signal.SIGTERM, sent=True)
    assert "stopped by SIGTERM" in out


@pytest.mark.parametrize("tables", ["0", "129", "100000"])
def test_max_tables_is_bounded(tables):
    """--max-tables went to 100000 (a zoo table holds ~9 MB)."""
    import subprocess
    from conftest import BINARY
    if not BINARY.exists():
        pytest.skip(f"no {BINARY}")
    done = subprocess.run([str(BINARY), "serve", "--port", "0", "--max-tables", tables], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode != 0 and "--max-tables" in done.stderr and "1 to 128" in done.stderr


def test_allow_agent_offers_an_agent_within_the_compute_cap(tmp_path, serve_help):
    """--allow-agent names what players may seat besides the built-in list; above the per-move compute
    cap (kMaxBotWorkPerMove), or a file that is no checkpoint, the server does not start."""
    import subprocess
    from conftest import BINARY, start_server, stop_server
    if "--allow-agent" not in serve_help.stdout:
        pytest.fail("serve has no --allow-agent")
    for spec, message in [("ismcts:20000:heuristic:4", "above serve's cap of 4096"),
                          ("checkpoint:/etc/passwd", "it can sit at no table")]:
        done = subprocess.run([str(BINARY), "serve", "--port", "0", "--allow-agent", spec], capture_output=True,
                              text=True, timeout=120)
        if "without the training library" in done.stderr:
            pytest.skip("rocketgym was built without the training library")
        assert done.returncode != 0 and message in done.stderr, done.stderr
    s = start_server("--allow-agent", "ismcts:8:heuristic")
    try:
        status, games = s.call("GET", "/api/games")
        assert all("ismcts:8:heuristic" in kinds for g in games for kinds in g["seats"].values())
        table = new_table(s, game="last_blast", seats=("human", "ismcts:8:heuristic"))
        status, reply = s.call("POST", f"/api/tables/{table['table']}/move",
                               {"seat": 0, "action": table["legal"][0]["id"], "version": table["version"]},
                               key=key(table))
        assert status == 200, reply
    finally:
        stop_server(s)


@pytest.mark.parametrize("game,kind", [("last_blast", "search over its network"),
                                       ("launchpad23", "search over playouts")])
def test_the_zoo_bots_analysis_of_a_seats_own_decision(server, game, kind):
    """GET /api/tables/ID/analysis?seat=S: the zoo bot's policy over the seat's legal moves and its
    value, from the seat's own information, with the seat's key only; a search reports its visits,
    within kMaxBotWorkPerMove."""
    table = new_table(server, game=game)
    tid = table["table"]
    assert table["waiting"] == "you"
    assert server.call("GET", f"/api/tables/{tid}/analysis?seat=0")[0] == 403
    assert server.call("GET", f"/api/tables/{tid}/analysis?seat=0", key="0" * 32)[0] == 403
    assert server.call("GET", f"/api/tables/{tid}/analysis?seat=1", key=key(table))[0] == 400
    status, found = server.call("GET", f"/api/tables/{tid}/analysis?seat=0", key=key(table))
    assert status == 200, found
    assert found["by"] == f"zoo:{game}" and found["seat"] == 0 and found["table"] == tid
    assert found["how"].startswith(kind), found["how"]
    legal = {m["id"]: m["text"] for m in table["legal"]}
    assert {m["action"]: m["text"] for m in found["moves"]} == legal
    shares = [m["probability"] for m in found["moves"]]
    assert shares == sorted(shares, reverse=True) and sum(shares) == pytest.approx(1.0, abs=1e-3)
    assert isinstance(found["value"], float) and math.isfinite(found["value"])
    visits = sum(m["visits"] for m in found["moves"])
    if len(legal) > 1:  # a forced move is not searched
        assert 0 < visits <= 4096
    # Asking changes nothing at the table.
    status, again = server.call("GET", f"/api/tables/{tid}?seat=0", key=key(table))
    assert again["version"] == table["version"] and again["legal"] == table["legal"]
    assert server.call("POST", f"/api/tables/{tid}/analysis", {"seat": 0}, key=key(table))[0] == 405


def test_a_replays_analysis_is_from_any_seats_knowledge(server, tmp_path):
    """Replay analysis was for the seat to move only. A finished game's replay shows every seat's
    view, so `seat` may name any seat at any move: the position as that seat knew it (a world dealt
    again from its knowledge), with its value, and its moves where it is to move (another seat's
    decision has none: in a world dealt for this seat, the seat to move may hold what it never
    held). At a live table only the asking seat's own decision is analyzed, with its key (the test
    above)."""
    from conftest import record_a_game, start_server, stop_server
    path = tmp_path / "records.jsonl"
    path.write_text(record_a_game(server, "launchpad23") + "\n" + record_a_game(server, "last_blast") + "\n")
    s = start_server("--records", str(path))
    try:
        for index in [0, 1]:
            status, own = s.call("GET", f"/api/records/{index}/analysis?move=4")
            assert status == 200, own
            mover = own["seat"]
            assert own["to_move"] == mover and own["moves"]
            for seat in [1 - mover, mover]:
                # A seat's move 4 counts the moves it sees (its own and the public ones): the
                # move of its replay's log there.
                status, seen = s.call("GET", f"/api/records/{index}?move=5&seat={seat}")
                assert status == 200, seen
                status, found = s.call("GET", f"/api/records/{index}/analysis?move=4&seat={seat}")
                assert status == 200, found
                assert found["seat"] == seat and found["to_move"] == seen["log"][4]["seat"] and found["move"] == 4
                assert found["by"] == own["by"] and found["played"]["action"] == seen["log"][4]["action"]
                assert isinstance(found["value"], float) and math.isfinite(found["value"])
                if seat == found["to_move"]:
                    assert [m["action"] for m in found["moves"]] != []
                    assert found["played"]["probability"] == next(
                        m["probability"] for m in found["moves"] if m["action"] == found["played"]["action"])
                    assert sum(m["probability"] for m in found["moves"]) == pytest.approx(1.0, abs=1e-3)
                else:
                    assert found["moves"] == [] and found["played"]["probability"] is None
            for seat in ["2", "-1", "full", "x"]:
                status, reply = s.call("GET", f"/api/records/{index}/analysis?move=4&seat={seat}")
                assert status == 400 and "seat must be a whole number from 0 to 1" in reply["error"], reply
    finally:
        stop_server(s)
