"""pytest set-up for `rocketgym serve` (docs/browser.md): a server on a free port of 127.0.0.1.

The binary is ``$ROCKETGYM_BUILD_DIR/rocketgym`` (default ``<repo>/build/rocketgym``); the tests
are skipped, saying why, when it is missing.
"""

import json
import os
import pathlib
import signal
import subprocess
import urllib.error
import urllib.request

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
BUILD = pathlib.Path(os.environ.get("ROCKETGYM_BUILD_DIR", REPO / "build"))
BINARY = BUILD / "rocketgym"


def registry_games():
    """The ids of the games the binary was built with (`rocketgym list --json`: the game registry),
    or [] without a binary (the tests that use them are then skipped, saying why)."""
    if not BINARY.exists():
        return []
    done = subprocess.run([str(BINARY), "list", "--json"], capture_output=True, text=True, check=True)
    return [game["id"] for game in json.loads(done.stdout)]


class Server:
    """A running `rocketgym serve`; `call` returns (HTTP status, decoded JSON body). `key`: a human
    seat's key (header X-Seat-Key); `headers` replace or add to Content-Type: application/json."""

    def __init__(self, process, url):
        self.process = process
        self.url = url
        self.host, port = url.removeprefix("http://").split(":")
        self.port = int(port)

    def call(self, method, path, body=None, raw=None, headers=None, key=None):
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        sent = {"Content-Type": "application/json", **(headers or {})}
        if key is not None:
            sent["X-Seat-Key"] = key
        request = urllib.request.Request(self.url + path, data=data, method=method, headers=sent)
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())


def start_server(*args):
    if not BINARY.exists():
        pytest.skip(f"no {BINARY}: build the rocketgym target first")
    process = subprocess.Popen([str(BINARY), "serve", "--port", "0", *args], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    # The first line names the address (or the process ends with an error): no sleeping, we read it.
    line = process.stdout.readline()
    if "http://" not in line:
        process.kill()
        raise RuntimeError(f"rocketgym serve did not start: {line}{process.stderr.read()}")
    url = line[line.index("http://"):].split()[0].rstrip("/")
    return Server(process, url)


def stop_server(server, stop_signal=signal.SIGTERM, sent=False):
    """Stops the server with `stop_signal` (SIGTERM or SIGINT; `sent`: the test sent it already) and
    checks that it stopped cleanly: exit status 0, its last line names the signal, no abort on stderr.
    Returns (stdout, stderr) after the address line. The timeout only guards against a hang; nothing
    is timed."""
    if not sent:
        server.process.send_signal(stop_signal)
    try:
        out, err = server.process.communicate(timeout=300)
    except subprocess.TimeoutExpired:
        server.process.kill()
        server.process.communicate()
        raise AssertionError(f"rocketgym serve did not stop on {stop_signal.name}")
    assert server.process.returncode == 0, f"{stop_signal.name}: exit status {server.process.returncode}: {err}"
    assert f"rocketgym serve: stopped by {stop_signal.name}" in out, out
    assert "terminate" not in err and "abort" not in err.lower(), err
    return out, err


@pytest.fixture(scope="module")
def server():
    s = start_server("--max-tables", "64")
    yield s
    stop_server(s)


def record_a_game(server, game, seed=3, seats=("heuristic", "heuristic"), names=None):
    """Plays a game of bots (`seats`: agent specs) through the API and returns its record, one JSON
    line in the arena's records format (envs/core/game_record.h); `names` are the seats' player
    names in the record (default: the specs)."""
    status, table = server.call("POST", "/api/tables", {"game": game, "players": len(seats), "seed": seed,
                                                        "seats": list(seats)})
    assert status == 200, table
    while table["waiting"] != "over":
        status, table = server.call("POST", f"/api/tables/{table['table']}/step",
                                    {"seat": "full", "version": table["version"]})
        assert status == 200, table
    return json.dumps({"record": 1, "game": game, "config": {}, "seed": seed, "num_players": len(seats),
                       "players": list(names or seats), "actions": [e["action"] for e in table["log"]],
                       "returns": table["view"]["returns"]})
