"""`rocketgym play` and `rocketgym replay` driven through stdin (issue 30: their interactive paths had
no test). `play` reads the human's moves from stdin, a terminal or a pipe alike, one number a line;
`replay` steps on keys only when stdin is a terminal (with a pipe it prints the whole game), so its
stepping is driven through a pseudo-terminal. Runs ``$ROCKETGYM_BUILD_DIR/rocketgym`` (default
``<repo>/build/rocketgym``); skipped when it is missing. The timeouts only guard against a hang."""

import json
import os
import pathlib
import pty
import re
import subprocess
import termios

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
BINARY = pathlib.Path(os.environ.get("ROCKETGYM_BUILD_DIR", REPO / "build")) / "rocketgym"
HANG_GUARD = 300  # seconds; no assertion depends on time

CHOICE = re.compile(r"^  \[(\d+)\] (.*)$", re.M)
PROMPT = "player 0, your choice (0-"


def rocketgym(*args, stdin=""):
    if not BINARY.exists():
        pytest.skip(f"no {BINARY}: build the rocketgym target first")
    return subprocess.run([str(BINARY), *args], input=stdin, capture_output=True, text=True, timeout=HANG_GUARD)


def play(*args, stdin=""):
    return rocketgym("play", "launchpad23", "--seed", "7", *args, stdin=stdin)


def first_choices(output):
    """The moves listed before the first prompt, as {index: text}."""
    listing = output[: output.index(PROMPT)]
    return {int(i): text for i, text in CHOICE.findall(listing)}


# --- play ---------------------------------------------------------------------------------------

def test_play_takes_a_typed_move_names_it_and_finishes_the_game():
    done = play("--seats", "human,heuristic", stdin="1\n" + "0\n" * 2000)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    choices = first_choices(done.stdout)
    assert len(choices) >= 2, "the first position should offer a choice"
    # The typed number plays the move listed under it, named back after the prompt.
    after_prompt = done.stdout[done.stdout.index(PROMPT):]
    assert f"player 0 (human): {choices[1]}\n" in after_prompt
    assert "player 0 (human): score" in done.stdout and "player 1 (heuristic): score" in done.stdout


def test_play_names_a_secret_move_back_only_to_a_person_alone_at_the_terminal():
    # Launchpad 23 opens with each seat's secret choice of a starting size.
    alone = play("--seats", "human,heuristic", stdin="0\nq\n")
    assert "secretly chooses a starting size" in alone.stdout
    assert "player 0 (human): choose a small starting piece\n" in alone.stdout
    # Two people share the terminal: the other must not read the choice.
    shared = play("--seats", "human,human", stdin="0\n1\nq\n")
    assert shared.returncode == 0, shared.stderr
    assert "(human): choose a" not in shared.stdout
    assert "(a secret choice is made)" not in shared.stdout
    assert "player 1, your choice (0-" in shared.stdout


def rocket_squad_jackie(seed):
    """Seat 0 (a person) plays Jackie (choice 3) against a random bot, then quits: with seed 140 the bot
    holds Grandma and is asked whether to block, with seed 2 it is not asked."""
    done = rocketgym("play", "rocket_squad", "-p", "2", "--seats", "human,random", "--seed", str(seed),
                     stdin="3\nq\n")
    assert done.returncode == 0, done.stderr
    assert "player 0 (human): Jackie: look at" in done.stdout
    return done.stdout


def draft_moves_of(output, who):
    """The lines of `output` where `who` (a pattern: the line's start up to the move) picks, draws or
    places a card (The Last Blast's draft, all secret)."""
    return [line for line in output.splitlines() if re.match(who + "(pick |draw blind|place )", line)]


def test_play_does_not_announce_a_bots_secret_move_to_a_person():
    # Rocket Squad, ruling 4: "(a secret choice is made)" after Jackie told that the bot held Grandma.
    asked, not_asked = rocket_squad_jackie(140), rocket_squad_jackie(2)
    for out in (asked, not_asked):
        after = out[out.index("player 0 (human): Jackie: look at"):]
        assert "secret" not in after and "player 1 (random): do not block" not in after
        assert after.splitlines()[1] == ""  # the seat's next position follows at once
    # The Last Blast, ruling 2: a blind draw was two secret lines instead of one.
    last_blast = rocketgym("play", "last_blast", "-p", "2", "--seats", "random,human", "--seed", "2",
                           stdin="0\n" * 300)
    assert last_blast.returncode == 0, last_blast.stderr
    assert "player 1 (human): pick" in last_blast.stdout and "secret" not in last_blast.stdout
    assert not draft_moves_of(last_blast.stdout, re.escape("player 0 (random): "))


def test_play_with_two_people_shows_the_seat_to_move_its_own_view_never_a_bots_hand():
    seats = ("--seats", "human,human,heuristic", "--seed", "3")
    shared = rocketgym("play", "rocket_squad", "-p", "3", *seats, stdin="q\n")
    assert shared.returncode == 0, shared.stderr
    # What seat 0 sees alone at the table (one person, two bots), not the full board.
    alone = rocketgym("play", "rocket_squad", "-p", "3", "--seats", "human,heuristic,heuristic", "--seed", "3",
                      stdin="q\n")
    board = shared.stdout[: shared.stdout.index(PROMPT)]
    assert board == alone.stdout[: alone.stdout.index(PROMPT)]
    assert "you are player 0" in board and "Player 2 (0 points) 4 card(s) in hand" in board


def test_play_without_seats_seats_the_human_then_heuristic_bots():
    done = play("--players", "3", stdin="0\n" * 2000)
    assert done.returncode == 0, done.stderr
    for seat, kind in enumerate(["human", "heuristic", "heuristic"]):
        assert f"player {seat} ({kind}): score" in done.stdout
    assert PROMPT in done.stdout  # seat 0 was asked


@pytest.mark.parametrize("garbled", ["abc", "99", "-1", "1.5", "", "1 2", "0x1", "99999999999999999999",
                                     "+1", "01", "-0", "1e0"])  # plain decimal only (envs/core/numbers.h)
def test_play_reprompts_a_line_that_is_not_a_listed_number(garbled):
    done = play("--seats", "human,heuristic", stdin=garbled + "\nq\n")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    count = len(first_choices(done.stdout))
    assert f"'{garbled}' is not one of the numbers above (0 to {count - 1}, or q to quit).\n" in done.stdout
    assert done.stdout.count(PROMPT) == 2  # asked again, then q
    assert done.stdout.endswith("Game abandoned.\n")
    assert "player 0 (human):" not in done.stdout  # nothing was played


MAX_ANSWER_LINE = 1024  # kMaxAnswerLine, training/cli/answer_line.h
MAX_ANSWER_ECHO = 200  # kMaxQuotedBytes (envs/core/quoted.h)


def test_play_refuses_a_line_too_long_without_keeping_or_echoing_it():
    # 5 MB of digits on one line: refused as a whole (its rest read and dropped), not named back.
    done = play("--seats", "human,heuristic", stdin="1" * 5_000_000 + "\nq\n")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert f"the line is longer than {MAX_ANSWER_LINE} characters: not one of the numbers above" in done.stdout
    assert "1" * 100 not in done.stdout and len(done.stdout) < 10_000
    assert done.stdout.count(PROMPT) == 2  # asked again, then q
    assert "player 0 (human):" not in done.stdout


def test_play_takes_a_line_of_the_longest_length_and_refuses_one_more():
    fits = play("--seats", "human,heuristic", stdin=" " * (MAX_ANSWER_LINE - 1) + "1\nq\n")
    assert f"player 0 (human): {first_choices(fits.stdout)[1]}\n" in fits.stdout
    over = play("--seats", "human,heuristic", stdin=" " * MAX_ANSWER_LINE + "1\nq\n")
    assert "the line is longer than" in over.stdout and "player 0 (human):" not in over.stdout


def test_play_names_a_long_bad_line_back_only_by_its_start():
    done = play("--seats", "human,heuristic", stdin="x" * 500 + "\nq\n")
    assert "'" + "x" * MAX_ANSWER_ECHO + "...' is not one of the numbers above" in done.stdout
    assert "x" * (MAX_ANSWER_ECHO + 1) not in done.stdout


def test_play_takes_a_number_with_spaces_or_a_crlf_line_end():
    done = play("--seats", "human,heuristic", stdin=" 1 \r\nq\n")
    assert done.returncode == 0, done.stderr
    assert f"player 0 (human): {first_choices(done.stdout)[1]}\n" in done.stdout
    assert "is not one of the numbers" not in done.stdout


@pytest.mark.parametrize("quit_line", ["q", "quit"])
def test_play_q_abandons_the_game(quit_line):
    done = play("--seats", "human,heuristic", stdin=quit_line + "\n0\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.endswith("Game abandoned.\n")
    assert "player 0 (human):" not in done.stdout and "score" not in done.stdout


@pytest.mark.parametrize("moves", ["", "0\n"])
def test_play_end_of_input_abandons_the_game_with_exit_status_0(moves):
    done = play("--seats", "human,heuristic", stdin=moves)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    # The prompt's line is ended, then the reason is said.
    assert done.stdout.endswith("q to quit): \n(end of input on stdin)\nGame abandoned.\n")
    assert "score" not in done.stdout
    assert done.stdout.count("player 0 (human):") == len(moves.split())


def test_play_without_a_human_reads_nothing():
    done = play("--seats", "heuristic,random")
    assert done.returncode == 0, done.stderr
    assert PROMPT not in done.stdout
    assert "player 0 (heuristic): score" in done.stdout and "player 1 (random): score" in done.stdout


@pytest.mark.parametrize(("players", "seats", "message"), [
    ("3", "human,heuristic", "--seats lists 2 seats for 3 players"),
    ("2", "heuristic", "--seats lists 1 seat for 2 players"),
    ("2", ",human", "--seats ',human': seat 0 is empty"),
    ("2", "human,", "--seats 'human,': seat 1 is empty"),  # was read as one seat
    ("3", "human,,random", "--seats 'human,,random': seat 1 is empty"),
    ("2", "human,bogus", "--seats 'human,bogus': "),  # the seat's own error follows
])
def test_play_refuses_a_bad_seat_list_naming_the_option(players, seats, message):
    done = play("--players", players, "--seats", seats, stdin="0\n" * 10)
    assert done.returncode == 1
    assert message in done.stderr
    assert PROMPT not in done.stdout  # refused before the first move


# --- replay -------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def records(tmp_path_factory):
    """One Last Blast game between two bots, written by `rocketgym arena --records` (Last Blast has
    secret picks, so a seat's view differs from the full board)."""
    folder = tmp_path_factory.mktemp("replay")
    file = folder / "games.jsonl"
    done = rocketgym("arena", "--game", "last_blast", "--agent", "random", "--agent", "heuristic", "--games", "1",
                     "--seed", "5", "--envs", "1", "--threads", "1", "--records", str(file), "--output",
                     str(folder / "arena"), "--no-plot", "--quiet")
    assert done.returncode == 0, done.stderr
    return file


def moves_in(records_file):
    return len(json.loads(records_file.read_text().splitlines()[0])["actions"])


def replay_on_a_terminal(records_file, keys, *args):
    """`rocketgym replay` with stdin a pseudo-terminal holding `keys` (typed ahead, without echo) and
    stdout a pipe; returns the finished process."""
    if not BINARY.exists():
        pytest.skip(f"no {BINARY}: build the rocketgym target first")
    master, slave = pty.openpty()
    try:
        attributes = termios.tcgetattr(slave)
        attributes[3] &= ~termios.ECHO  # what is typed is not echoed back to the master
        termios.tcsetattr(slave, termios.TCSANOW, attributes)
        os.write(master, keys.encode())
        done = subprocess.run([str(BINARY), "replay", str(records_file), *args], stdin=slave, capture_output=True,
                              text=True, timeout=HANG_GUARD)
    finally:
        os.close(slave)
        os.close(master)
    return done


def positions(output):
    """The positions shown, in order, and the move count each header gives."""
    shown = [(int(k), int(n)) for k, n in re.findall(r"^--- position (\d+) of (\d+) ---$", output, re.M)]
    assert shown and len({n for _, n in shown}) == 1
    return [k for k, _ in shown]


def test_replay_on_a_pipe_prints_the_whole_game(records):
    done = rocketgym("replay", str(records))
    assert done.returncode == 0, done.stderr
    n = moves_in(records)
    assert "; the full board\n" in done.stdout
    assert re.findall(r"^(\d+)\. player", done.stdout, re.M) == [str(k) for k in range(1, n + 1)]
    assert done.stdout.rstrip("\n").splitlines()[-1].startswith("returns: player 0 ")
    assert "--- position" not in done.stdout and "[q] quit" not in done.stdout


def test_replay_steps_on_enter_n_and_p_and_quits_on_q(records):
    done = replay_on_a_terminal(records, "\nn\np\nq\n")
    assert done.returncode == 0, done.stderr
    assert positions(done.stdout) == [0, 1, 2, 1]
    assert done.stdout.count("[Enter/n] next  [p] previous  [q] quit: ") == 4
    assert done.stderr == ""


def test_replay_names_an_unknown_key_and_stays(records):
    done = replay_on_a_terminal(records, "n\nx\nq\n")
    assert done.returncode == 0, done.stderr
    assert "'x': Enter or n for the next move, p for the previous, q to quit\n" in done.stdout
    assert positions(done.stdout) == [0, 1, 1]


def test_replay_refuses_a_line_too_long_and_names_only_its_start(records):
    # A terminal passes at most 4095 characters a line: 2000 is over the limit and under the terminal's.
    done = replay_on_a_terminal(records, "n\n" + "x" * 2000 + "\n" + "y" * 500 + "\nq\n")
    assert done.returncode == 0, done.stderr
    assert f"the line is longer than {MAX_ANSWER_LINE} characters: Enter or n for the next move" in done.stdout
    assert "'" + "y" * MAX_ANSWER_ECHO + "...': Enter or n for the next move" in done.stdout
    assert "x" * (MAX_ANSWER_ECHO + 1) not in done.stdout and "y" * (MAX_ANSWER_ECHO + 1) not in done.stdout
    assert positions(done.stdout) == [0, 1, 1, 1]


def test_replay_stays_at_the_first_position_on_p(records):
    done = replay_on_a_terminal(records, "p\nq\n")
    assert done.returncode == 0, done.stderr
    assert "(this is the first position: Enter or n for the next move)\n" in done.stdout
    assert positions(done.stdout) == [0, 0]


def test_replay_stays_at_the_end_past_the_last_move(records):
    n = moves_in(records)
    done = replay_on_a_terminal(records, "\n" * (n + 1) + "p\nq\n")
    assert done.returncode == 0, done.stderr
    assert positions(done.stdout) == list(range(n + 1)) + [n, n - 1]
    assert done.stdout.count("(the game is over: p for the previous move, q to quit)\n") == 1
    # The last position shows the returns instead of a next move.
    last = done.stdout.split(f"--- position {n} of {n} ---")[1]
    assert "returns: player 0 " in last and "next: " not in last


def test_replay_ends_on_end_of_input_with_its_line_ended(records):
    done = replay_on_a_terminal(records, "n\n\x04")  # Ctrl-D at the start of a line: end of input
    assert done.returncode == 0, done.stderr
    assert positions(done.stdout) == [0, 1]
    assert done.stdout.endswith("[q] quit: \n")


def test_replay_from_a_seat_hides_the_others_secret_choices(records):
    n = moves_in(records)
    keys = "\n" * n + "q\n"
    full = replay_on_a_terminal(records, keys)
    seat = replay_on_a_terminal(records, keys, "--seat", "0")
    assert full.returncode == 0 and seat.returncode == 0, full.stderr + seat.stderr
    assert "; seen from seat 0\n" in seat.stdout and "; the full board\n" in full.stdout
    assert positions(full.stdout) == list(range(n + 1))
    # Seat 1's secret picks are hidden from seat 0, never its own: neither named nor counted (the
    # numbers of seat 0's moves have no gap), so seat 0 steps through fewer positions.
    shown = positions(seat.stdout)
    m = max(shown)  # the moves seat 0 sees; Enter past the last one stays there
    assert m < n and shown == list(range(m + 1)) + [m] * (len(shown) - m - 1)
    assert "secret" not in seat.stdout
    numbers = [int(k) for k in re.findall(r"^  (\d+)\. player \d", seat.stdout, re.M)]
    assert sorted(set(numbers)) == list(range(1, m + 1))
    seat_0, seat_1 = json.loads(records.read_text().splitlines()[0])["players"]
    assert f"player 0 ({seat_0}): " in seat.stdout
    piped = rocketgym("replay", str(records), "--seat", "0")
    assert f"player 1 ({seat_1}): " in piped.stdout  # its public flight moves
    assert not draft_moves_of(piped.stdout, r"\d+\. " + re.escape(f"player 1 ({seat_1}): "))
    assert draft_moves_of(piped.stdout, r"\d+\. " + re.escape(f"player 0 ({seat_0}): "))
    assert re.findall(r"^(\d+)\. player", piped.stdout, re.M) == [str(k) for k in range(1, m + 1)]


def test_replay_refuses_a_seat_beyond_the_table_naming_the_option(records):
    done = rocketgym("replay", str(records), "--seat", "5")
    assert done.returncode == 1
    assert "--seat 5: the game has 2 seats (0 to 1)" in done.stderr


def test_replay_refuses_a_name_the_arena_never_writes_without_echoing_it(records, tmp_path):
    """A name with a line break would forge an output line at every move, a long one flood the terminal:
    the reader refuses both, naming the file, line and seat, the name quoted short and escaped."""
    record = json.loads(records.read_text().splitlines()[0])
    for name in ("heuristic\nrocketgym: error: your files were deleted", "n" * 900_000):
        record["players"][1] = name
        forged = tmp_path / "forged.jsonl"
        forged.write_text(json.dumps(record) + "\n")
        done = rocketgym("replay", str(forged))
        assert done.returncode == 1 and done.stdout == ""
        assert f"{forged}:1: records line: field 'players' item 1, '" in done.stderr
        assert "is not a name the arena writes" in done.stderr
        assert "\nrocketgym: error: your files" not in done.stderr and len(done.stderr) < 1000
