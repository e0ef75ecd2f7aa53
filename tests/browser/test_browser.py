"""The page of `rocketgym serve` in a real browser (headless Chromium through Selenium): a person
plays a whole game of every game against the heuristic bot by clicking the board and the bots'
step button (with the last-move marker, a hint's analysis bars and every hand shown at the end),
the page fits 1024 px, undoes a move, steps a recorded arena game forward and back beside the
arena's table of its file, goes through a replay by keys, slider and autoplay, and analyzes a
replayed move from each seat's view. Screenshots of each game's board and of the replay are saved
under $ROCKETGYM_ARTIFACTS (default <build>/browser-artifacts). Skipped, saying why, without
chromium, chromium-driver or selenium (scripts/setup.sh installs them).

Nothing here waits on a clock: each wait is one script that answers once the page shows what it
waits for (until()), and clicks are the browser's own mouse events (click()), each one command
or a few instead of WebDriver's many round trips."""

import os
import pathlib
import random
import shutil
import subprocess

import pytest

from conftest import BINARY, BUILD, registry_games, start_server, stop_server

selenium = pytest.importorskip("selenium", reason="python3-selenium is not installed (scripts/setup.sh)")
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

CHROMIUM = shutil.which("chromium")
DRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(not CHROMIUM or not DRIVER,
                                reason="chromium and chromium-driver are not installed (scripts/setup.sh)")
ARTIFACTS = pathlib.Path(os.environ.get("ROCKETGYM_ARTIFACTS", BUILD / "browser-artifacts"))
GAMES = registry_games()
# Clicks into the game (default 20) after which the hint is asked and the screenshot taken: a board
# in mid-game. Its games are registered ones (test_the_tables_by_game_name_registered_games).
SCREENSHOT_AT = {"last_blast": 16, "launch_pad": 40, "lift_off": 40}


@pytest.fixture(scope="module")
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1300,1100"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)
    driver.set_script_timeout(120)  # a guard against a hang: until() below never times anything
    yield driver
    driver.quit()


# Waiting on the page without polling: the script checks `condition` (the body of a JavaScript
# function of `args`, returning what to wait for) now and again on every change of the page (a
# MutationObserver), and answers with its first truthy value. A WebDriver command costs a round
# trip to the browser: one script per wait, instead of one command per look.
_UNTIL = """
const done = arguments[arguments.length - 1], args = [...arguments].slice(0, -1);
const shown = (e) => !!e && !e.hidden && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== "hidden";
const test = () => { %s };
let observer = null, finished = false;
const check = () => {
  if (finished) return true;
  let value;
  try { value = test(); } catch (e) { value = undefined; }
  if (!value) return false;
  finished = true;
  if (observer) observer.disconnect();
  done(value);
  return true;
};
if (!check()) {
  observer = new MutationObserver(check);
  observer.observe(document, {attributes: true, childList: true, subtree: true, characterData: true});
}
"""


def until(browser, condition, *args):
    """Waits until the JavaScript `condition` holds on the page and returns its value (see _UNTIL)."""
    return browser.execute_async_script(_UNTIL % condition, *args)


def body(browser, key):
    return browser.find_element(By.TAG_NAME, "body").get_attribute("data-" + key)


def wait_body(browser, **wanted):
    """Waits until the body's data-* attributes have the values given (keys with _ for -)."""
    keys = {k.replace("_", "-"): v for k, v in wanted.items()}
    until(browser, "const want = args[0]; return Object.entries(want).every(([k, v]) => "
                   "document.body.getAttribute('data-' + k) === v);", keys)


# What the board offers to click now: the highlighted pieces, cards, dice or targets (boards.js:
# data-ref) and the buttons beside the board for moves with nothing to click.
CLICKABLES = "#board [data-ref].pickable, #board [data-ref].target, #board-choices button.board-choice"

# The page's state in one script: the body's data-* attributes the tests read, the last-move line
# and markers, the error shown (or null) and what the board offers to click, with their tags.
_SNAPSHOT = """{
  const d = document.body.dataset, error = document.getElementById("error");
  const offered = [...document.querySelectorAll("%s")];
  return {version: d.version ?? null, selection: d.selection ?? null, waiting: d.waiting ?? null,
          game: d.game ?? null, last_move: d.lastMove ?? null,
          last_move_line: document.getElementById("last-move").textContent,
          markers: document.querySelectorAll("#board .last-move-marker").length,
          error: shown(error) ? error.textContent : null,
          offered, tags: offered.map((e) => e.tagName.toLowerCase())};
}""" % CLICKABLES


def snapshot(browser):
    return until(browser, _SNAPSHOT)


def next_state(browser, before):
    """The page's state once its version or selection differs from `before` (a snapshot), or an
    error is shown."""
    return until(browser, "const d = document.body.dataset; if ((d.version ?? null) === args[0] && "
                          "(d.selection ?? null) === args[1] && !shown(document.getElementById('error'))) "
                          "return null;" + _SNAPSHOT, before["version"], before["selection"])


# Where to click `target` (arguments[0]) as a person would: scrolled into view, its middle, or,
# where something else is on top there (a zone under its rockets), near its top left corner; the
# browser's own hit test must find the target (or a part of it) at that point. Null if neither.
_CLICK_POINT = """
const target = arguments[0];
target.scrollIntoView({block: "nearest", inline: "nearest"});
const box = target.getBoundingClientRect();
for (const [x, y] of [[box.left + box.width / 2, box.top + box.height / 2], [box.left + 3, box.top + 3]]) {
  const hit = document.elementFromPoint(x, y);
  if (hit !== null && (hit === target || target.contains(hit))) return {x, y};
}
return null;
"""


def click(browser, target):
    """Clicks `target` with the mouse: Chromium's own input events (trusted, hit-tested by the
    browser, as WebDriver's click sends them) at a point where the target shows. The same click as
    WebDriver's, without its checks' round trips (a tenth of the time); fails if the target shows
    nowhere to be clicked."""
    point = browser.execute_script(_CLICK_POINT, target)
    assert point is not None, f"the {target.tag_name} to click is covered or out of sight"
    for kind, button in [("mouseMoved", "none"), ("mousePressed", "left"), ("mouseReleased", "left")]:
        browser.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": kind, "x": point["x"], "y": point["y"],
                                                             "button": button, "clickCount": 1})


def start_table(browser, server, game, players=None, seed=None):
    """Opens the page and starts a table of `game` from the form (seat 0 human, the others the
    form's default, the heuristic bot)."""
    browser.get(server.url + "/")
    wait_body(browser, ready="1")
    Select(browser.find_element(By.ID, "game")).select_by_value(game)
    if players is not None:
        Select(browser.find_element(By.ID, "players")).select_by_value(str(players))
    if seed is not None:
        browser.find_element(By.ID, "seed").send_keys(str(seed))


def test_the_tables_by_game_name_registered_games():
    if not GAMES:
        pytest.skip(f"no {BINARY}: build the rocketgym target first")
    assert set(SCREENSHOT_AT) <= set(GAMES), sorted(set(SCREENSHOT_AT) - set(GAMES))


@pytest.mark.parametrize("game", GAMES)
def test_a_person_plays_a_whole_game_by_clicking_the_board(server, browser, game):
    """A whole game against the heuristic bot, played by clicking the board (never the text list):
    the bots' last move is marked on the board and named in one line, the hint shows the zoo bot's
    analysis as a bar per legal move, and the end names the winner and shows every hand."""
    start_table(browser, server, game, players=2, seed=11)
    assert browser.find_element(By.ID, "seat0").get_attribute("value") == "human"
    assert browser.find_element(By.ID, "seat1").get_attribute("value") == "heuristic"
    browser.find_element(By.ID, "start").click()
    until(browser, "const d = document.body.dataset; return d.version !== undefined && d.game === args[0];", game)
    # The game's own drawing (boards.js keeps one per game), not the JSON shown for a game without one.
    assert browser.find_elements(By.CSS_SELECTOR, "#board > svg"), f"web/boards.js draws no board for {game}"
    step = browser.find_element(By.ID, "step")
    rng = random.Random(game)
    clicks = board_clicks = marked = 0
    hinted = False
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = snapshot(browser)
    while page["waiting"] != "over":
        assert clicks < 20000, "the game did not end"
        if page["waiting"] == "bot":
            click(browser, step)
        else:
            assert page["waiting"] == "you"
            if not hinted and clicks >= SCREENSHOT_AT.get(game, 20):
                # The zoo bot's analysis of this decision: a bar per legal move, the best marked.
                legal = len(browser.find_elements(By.CSS_SELECTOR, "#moves button[data-action]"))
                browser.find_element(By.ID, "hint").click()
                until(browser, "return document.body.dataset.analysis || "
                               "document.getElementById('analysis-note').textContent;")
                assert body(browser, "analysis") == str(legal), browser.find_element(By.ID, "analysis-note").text
                assert len(browser.find_elements(By.CSS_SELECTOR, "#bars .bar-row")) == legal
                assert browser.find_elements(By.CSS_SELECTOR, "#board .hinted, #board-choices .hinted")
                assert "zoo:" + game in browser.find_element(By.ID, "analysis-note").text
                browser.execute_script("window.scrollTo(0, 0)")
                browser.save_screenshot(str(ARTIFACTS / f"{game}.png"))
                hinted = True
                page = snapshot(browser)  # the hint starts the clicks over
            assert page["offered"], "the board offers something to click to the person to move"
            pick = rng.randrange(len(page["offered"]))  # as rng.choice(offered)
            board_clicks += page["tags"][pick] != "button"
            click(browser, page["offered"][pick])
        page = next_state(browser, page)
        assert page["error"] is None, page["error"]
        clicks += 1
        last = page["last_move"]
        if last and page["waiting"] != "over":
            # The bots' last move: one line naming it, and a marker on the board.
            assert last in page["last_move_line"]
            assert page["markers"] > 0
            marked += 1
    assert hinted, "the game lasted long enough to ask for a hint"
    assert board_clicks > 0, "moves were played by clicking the board's pieces, cards and places"
    assert marked > 0, "a bot's move was marked on the board"
    # The end: the winner in words, then every hand, from the full board.
    result = browser.find_element(By.ID, "result").text
    assert "Scores" in result and ("win" in result or "draw" in result), result
    wait_body(browser, revealed="full")
    hands = browser.execute_script("return [...document.querySelectorAll('#board .hand')].map((h) => h.textContent)")
    if game != "launchpad23":  # the one game without hands
        assert len(hands) == 2
    for shown in hands:
        assert "hidden" not in shown and "cards in hand" not in shown and "?" not in shown, shown
    browser.save_screenshot(str(ARTIFACTS / f"{game}_end.png"))


def test_the_page_is_readable_from_1024_pixels(server, browser):
    """At 1024 px the board, the move list and the analysis fit the width: nothing spills right."""
    browser.set_window_size(1024, 900)
    try:
        for game in GAMES:
            start_table(browser, server, game)
            browser.find_element(By.ID, "start").click()
            until(browser, "const d = document.body.dataset; return d.game === args[0] && d.version !== undefined;",
                  game)
            width = browser.execute_script("return document.documentElement.clientWidth")
            assert browser.execute_script("return document.documentElement.scrollWidth") <= width, game
            for part in ["board", "side", "moves"]:
                box = browser.find_element(By.ID, part).rect
                assert box["x"] + box["width"] <= width, (game, part, box)
    finally:
        browser.set_window_size(1300, 1100)


@pytest.fixture(scope="module")
def watcher(tmp_path_factory):
    """A server watching the records file of a real arena: Rocket Squad, heuristic against
    random, one seed in both seat orders (the tests of replays share it: group "records")."""
    folder = tmp_path_factory.mktemp("records")
    path = folder / "records.jsonl"
    subprocess.run([str(BINARY), "arena", "--game", "rocket_squad", "--agent", "heuristic", "--agent", "random",
                    "--games", "1", "--seed", "3", "--output", str(folder / "arena"), "--no-plot",
                    "--records", str(path)], check=True, capture_output=True, timeout=300)
    assert len(path.read_text().splitlines()) == 2
    s = start_server("--records", str(path))
    yield s
    stop_server(s)


def watch_first_record(browser, watcher):
    browser.get(watcher.url + "/")
    wait_body(browser, ready="1")
    browser.find_element(By.ID, "watch-start").click()
    wait_body(browser, mode="watch", move="0")


@pytest.mark.xdist_group("records")
def test_a_recorded_game_is_stepped_forward_and_back(browser, watcher):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    browser.get(watcher.url + "/")
    wait_body(browser, ready="1")
    assert browser.find_element(By.ID, "watch").is_displayed()
    # The arena's table of the file, beside the list of its games.
    rows = browser.find_elements(By.CSS_SELECTOR, "#watch-arena #arena-agents tbody tr")
    assert [r.find_element(By.TAG_NAME, "td").text for r in rows] == ["heuristic", "random"]
    browser.find_element(By.ID, "watch-start").click()
    wait_body(browser, mode="watch", move="0")
    browser.save_screenshot(str(ARTIFACTS / "watch_move_0.png"))
    forward = browser.find_element(By.ID, "forward")
    for move in range(1, 31):
        click(browser, forward)
        wait_body(browser, move=str(move))
        if move % 10 == 0:
            browser.save_screenshot(str(ARTIFACTS / f"watch_forward_{move}.png"))
    assert len(browser.find_elements(By.CSS_SELECTOR, "#log li")) == 30
    # ...and beside the watched game and its move list.
    arena = browser.find_element(By.ID, "arena")
    assert arena.is_displayed() and "Arena table" in arena.text and "Head to head" in arena.text
    assert len(arena.find_elements(By.CSS_SELECTOR, "#arena-agents tbody tr")) == 2
    Select(browser.find_element(By.ID, "watch-seat")).select_by_value("0")
    wait_body(browser, viewer="0")
    assert "move 30 of" in browser.find_element(By.ID, "move").text
    browser.save_screenshot(str(ARTIFACTS / "watch_rocket_squad.png"))
    back = browser.find_element(By.ID, "back")
    for move in range(29, 24, -1):
        click(browser, back)
        wait_body(browser, move=str(move))
    browser.save_screenshot(str(ARTIFACTS / "watch_back_25.png"))
    Select(browser.find_element(By.ID, "watch-seat")).select_by_value("full")
    wait_body(browser, viewer="full")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#log li")) == 25


@pytest.mark.xdist_group("records")
def test_a_replay_goes_by_keys_slider_and_autoplay_with_the_bots_analysis(browser, watcher):
    watch_first_record(browser, watcher)
    page = browser.find_element(By.TAG_NAME, "body")
    page.send_keys(Keys.ARROW_RIGHT)
    wait_body(browser, move="1")
    page.send_keys(Keys.ARROW_RIGHT)
    wait_body(browser, move="2")
    page.send_keys(Keys.ARROW_LEFT)
    wait_body(browser, move="1")
    # The slider goes straight to a move.
    slider = browser.find_element(By.ID, "slider")
    moves = int(slider.get_attribute("max"))
    assert moves > 12
    browser.execute_script("arguments[0].value = 10; arguments[0].dispatchEvent(new Event('input'))", slider)
    wait_body(browser, move="10")
    assert "move 10 of" in browser.find_element(By.ID, "move").text
    # The zoo bot's analysis of the move about to be made, with the share it gave the move played.
    browser.find_element(By.ID, "replay-analysis").click()
    until(browser, "return document.body.dataset.analysis || document.getElementById('analysis-note').textContent;")
    note = browser.find_element(By.ID, "analysis-note").text
    assert "the move played had" in note, note
    assert len(browser.find_elements(By.CSS_SELECTOR, "#bars .bar-row")) == int(body(browser, "analysis"))
    assert len(browser.find_elements(By.CSS_SELECTOR, "#bars .bar-row.played")) == 1
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(ARTIFACTS / "watch_analysis.png"))
    # Autoplay at the fastest speed moves on by itself, and pauses.
    Select(browser.find_element(By.ID, "speed")).select_by_index(2)
    browser.find_element(By.ID, "autoplay").click()
    until(browser, "return Number(document.body.dataset.move) >= 13;")
    browser.find_element(By.ID, "autoplay").click()
    assert body(browser, "autoplay") == ""


@pytest.mark.xdist_group("records")
def test_a_replay_is_analyzed_from_the_seat_its_view_shows(browser, watcher):
    """Replay analysis was of the seat to move only. A finished game's replay shows every seat's
    view, so the analysis follows the seat the View shows: the seat to move gets the bars of its
    moves, another seat its own value from what it knew then (the decision is not its own)."""
    watch_first_record(browser, watcher)
    slider = browser.find_element(By.ID, "slider")
    browser.execute_script("arguments[0].value = 10; arguments[0].dispatchEvent(new Event('input'))", slider)
    wait_body(browser, move="10")
    analyze = browser.find_element(By.ID, "replay-analysis")
    analyze.click()  # the full board: the seat to move
    until(browser, "return document.body.dataset.analysis || document.getElementById('analysis-note').textContent;")
    to_move = body(browser, "analysis-seat")
    assert to_move in ("0", "1"), browser.find_element(By.ID, "analysis-note").text
    legal = int(body(browser, "analysis"))
    assert legal > 0
    other = "1" if to_move == "0" else "0"
    for seat in [other, to_move]:
        # A seat counts only the moves it sees (its own and the public ones): its move 10 is the
        # move its own log shows there, whoever makes it.
        Select(browser.find_element(By.ID, "watch-seat")).select_by_value(seat)
        wait_body(browser, viewer=seat, move="10")
        assert body(browser, "analysis") is None, "a new view clears the analysis shown"
        analyze.click()
        until(browser, "return document.body.dataset.analysis || document.getElementById('analysis-note').textContent;")
        note = browser.find_element(By.ID, "analysis-note").text
        assert body(browser, "analysis-seat") == seat, note
        assert f"for seat {seat}" in note, note
        bars = len(browser.find_elements(By.CSS_SELECTOR, "#bars .bar-row"))
        played = len(browser.find_elements(By.CSS_SELECTOR, "#bars .bar-row.played"))
        if "from what it knew" not in note:  # the seat's own decision
            assert "the move played had" in note, note
            assert int(body(browser, "analysis")) == bars > 0 and played == 1
        else:
            assert "the move played had" not in note, note
            assert (body(browser, "analysis"), bars, played) == ("0", 0, 0)


def moves_offered(browser):
    return [m.get_attribute("title") for m in browser.find_elements(By.CSS_SELECTOR, "#moves button[data-action]")]


def new_version(browser, version):
    """Waits until the table's version is no longer `version` (a move, a step or an undo answered)."""
    until(browser, "return document.body.dataset.version !== args[0];", version)


def test_a_person_undoes_a_move(server, browser):
    start_table(browser, server, "launchpad23", players=2, seed=5)
    browser.find_element(By.ID, "start").click()
    wait_body(browser, game="launchpad23", waiting="you")
    undo = browser.find_element(By.ID, "undo")
    assert not undo.is_enabled(), "nothing to undo before the first move"
    before = moves_offered(browser)
    version = body(browser, "version")
    browser.find_elements(By.CSS_SELECTOR, "#moves button[data-action]")[-1].click()
    new_version(browser, version)
    while body(browser, "waiting") == "bot":
        version = body(browser, "version")
        browser.find_element(By.ID, "step").click()
        new_version(browser, version)
    assert len(browser.find_elements(By.CSS_SELECTOR, "#log li")) >= 1
    version = body(browser, "version")
    browser.find_element(By.ID, "undo").click()
    new_version(browser, version)
    assert not browser.find_element(By.ID, "error").is_displayed(), browser.find_element(By.ID, "error").text
    assert body(browser, "waiting") == "you"
    assert moves_offered(browser) == before
    assert browser.find_elements(By.CSS_SELECTOR, "#log li") == []
    assert not browser.find_element(By.ID, "undo").is_enabled()


def test_a_reload_resumes_the_game(server, browser):
    """Reloading the page lost the game (and left its table holding a slot until it expired): the
    address now holds the table's id, the seat and its key (in the #fragment, never sent to the
    server), and the page reads it."""
    start_table(browser, server, "last_blast", players=2)
    browser.find_element(By.ID, "start").click()
    wait_body(browser, game="last_blast", waiting="you")
    version = body(browser, "version")
    browser.find_elements(By.CSS_SELECTOR, "#moves button[data-action]")[0].click()
    new_version(browser, version)
    version, offered, text = body(browser, "version"), moves_offered(browser), browser.find_element(By.ID, "turn").text
    address = browser.current_url
    assert "#table=" in address and "key0=" in address
    browser.refresh()
    wait_body(browser, ready="1")
    assert body(browser, "game") == "last_blast" and body(browser, "version") == version
    assert moves_offered(browser) == offered and browser.find_element(By.ID, "turn").text == text
    assert not browser.find_element(By.ID, "error").is_displayed()
    # A made-up key is refused: the page says so and offers a new table.
    browser.get("about:blank")
    browser.get(address.replace("key0=", "key0=0"))
    wait_body(browser, ready="1")
    assert browser.find_element(By.ID, "error").is_displayed()
    assert "key" in browser.find_element(By.ID, "error").text
    assert browser.find_element(By.ID, "setup").is_displayed()
