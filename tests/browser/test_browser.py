"""The page of `rocketgym serve` in a real browser (headless Chromium through Selenium): a person
plays a whole game of every game against the heuristic bot by clicking the board and the bots'
step button (with the last-move marker, a hint's analysis bars and every hand shown at the end),
the page fits 1024 px, undoes a move, steps a recorded arena game forward and back beside the
arena's table of its file, and goes through a replay by keys, slider and autoplay. Screenshots of each game's board and of the replay are saved under
$ROCKETGYM_ARTIFACTS (default <build>/browser-artifacts). Skipped, saying why, without chromium,
chromium-driver or selenium (scripts/setup.sh installs them)."""

import os
import pathlib
import random
import shutil
import subprocess

import pytest

from conftest import BINARY, BUILD, start_server, stop_server

selenium = pytest.importorskip("selenium", reason="python3-selenium is not installed (scripts/setup.sh)")
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.common.exceptions import ElementClickInterceptedException  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

CHROMIUM = shutil.which("chromium")
DRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(not CHROMIUM or not DRIVER,
                                reason="chromium and chromium-driver are not installed (scripts/setup.sh)")
ARTIFACTS = pathlib.Path(os.environ.get("ROCKETGYM_ARTIFACTS", BUILD / "browser-artifacts"))
GAMES = ["launchpad23", "launch_pad", "rocket_squad", "last_blast", "lift_off"]
# Clicks into the game (default 20) after which the hint is asked and the screenshot taken: a board
# in mid-game.
SCREENSHOT_AT = {"last_blast": 16, "launch_pad": 40, "lift_off": 40}


@pytest.fixture(scope="module")
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1300,1100"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)
    yield driver
    driver.quit()


def wait(browser, condition, timeout=120):
    return WebDriverWait(browser, timeout, poll_frequency=0.02).until(lambda b: condition(b))


def body(browser, key):
    return browser.find_element(By.TAG_NAME, "body").get_attribute("data-" + key)


def board_clickables(browser):
    """What the board offers to click now: the highlighted pieces, cards, dice or targets
    (boards.js: data-ref) and the buttons beside the board for moves with nothing to click."""
    return browser.find_elements(By.CSS_SELECTOR, "#board [data-ref].pickable, #board [data-ref].target, "
                                                   "#board-choices button.board-choice")


def click_on_board(browser, target):
    """Clicks what the board offers; a place partly covered by its pieces (a zone under its
    rockets) is clicked near its top left corner, where it shows."""
    try:
        target.click()
    except ElementClickInterceptedException:
        size = target.size
        ActionChains(browser).move_to_element_with_offset(target, -size["width"] / 2 + 3,
                                                          -size["height"] / 2 + 3).click().perform()


def state_of(browser):
    return body(browser, "version"), body(browser, "selection")


@pytest.mark.parametrize("game", GAMES)
def test_a_person_plays_a_whole_game_by_clicking_the_board(server, browser, game):
    """A whole game against the heuristic bot, played by clicking the board (never the text list):
    the bots' last move is marked on the board and named in one line, the hint shows the zoo bot's
    analysis as a bar per legal move, and the end names the winner and shows every hand."""
    browser.get(server.url + "/")
    wait(browser, lambda b: body(b, "ready") == "1")
    Select(browser.find_element(By.ID, "game")).select_by_value(game)
    Select(browser.find_element(By.ID, "players")).select_by_value("2")
    browser.find_element(By.ID, "seed").send_keys("11")
    assert browser.find_element(By.ID, "seat0").get_attribute("value") == "human"
    assert browser.find_element(By.ID, "seat1").get_attribute("value") == "heuristic"
    browser.find_element(By.ID, "start").click()
    wait(browser, lambda b: body(b, "version") is not None and body(b, "game") == game)
    rng = random.Random(game)
    clicks = board_clicks = marked = 0
    hinted = False
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    while body(browser, "waiting") != "over":
        assert clicks < 20000, "the game did not end"
        before = state_of(browser)
        if body(browser, "waiting") == "bot":
            browser.find_element(By.ID, "step").click()
        else:
            assert body(browser, "waiting") == "you"
            if not hinted and clicks >= SCREENSHOT_AT.get(game, 20):
                # The zoo bot's analysis of this decision: a bar per legal move, the best marked.
                legal = len(browser.find_elements(By.CSS_SELECTOR, "#moves button[data-action]"))
                browser.find_element(By.ID, "hint").click()
                wait(browser, lambda b: body(b, "analysis") or b.find_element(By.ID, "analysis-note").text)
                assert body(browser, "analysis") == str(legal), browser.find_element(By.ID, "analysis-note").text
                assert len(browser.find_elements(By.CSS_SELECTOR, "#bars .bar-row")) == legal
                assert browser.find_elements(By.CSS_SELECTOR, "#board .hinted, #board-choices .hinted")
                assert "zoo:" + game in browser.find_element(By.ID, "analysis-note").text
                browser.execute_script("window.scrollTo(0, 0)")
                browser.save_screenshot(str(ARTIFACTS / f"{game}.png"))
                hinted = True
            before = state_of(browser)  # the hint starts the clicks over
            offered = board_clickables(browser)
            assert offered, "the board offers something to click to the person to move"
            target = rng.choice(offered)
            board_clicks += target.tag_name != "button"
            click_on_board(browser, target)
        wait(browser, lambda b: state_of(b) != before or b.find_element(By.ID, "error").is_displayed())
        assert not browser.find_element(By.ID, "error").is_displayed(), browser.find_element(By.ID, "error").text
        clicks += 1
        last = body(browser, "last-move")
        if last and body(browser, "waiting") != "over":
            # The bots' last move: one line naming it, and a marker on the board.
            assert last in browser.find_element(By.ID, "last-move").text
            assert browser.find_elements(By.CSS_SELECTOR, "#board .last-move-marker")
            marked += 1
    assert hinted, "the game lasted long enough to ask for a hint"
    assert board_clicks > 0, "moves were played by clicking the board's pieces, cards and places"
    assert marked > 0, "a bot's move was marked on the board"
    # The end: the winner in words, then every hand, from the full board.
    result = browser.find_element(By.ID, "result").text
    assert "Scores" in result and ("win" in result or "draw" in result), result
    wait(browser, lambda b: body(b, "revealed") == "full")
    hands = browser.find_elements(By.CSS_SELECTOR, "#board .hand")
    if game != "launchpad23":  # the one game without hands
        assert len(hands) == 2
    for hand in hands:
        shown = hand.get_attribute("textContent")
        assert "hidden" not in shown and "cards in hand" not in shown and "?" not in shown, shown
    browser.save_screenshot(str(ARTIFACTS / f"{game}_end.png"))


def test_the_page_is_readable_from_1024_pixels(server, browser):
    """At 1024 px the board, the move list and the analysis fit the width: nothing spills right."""
    browser.set_window_size(1024, 900)
    try:
        for game in GAMES:
            browser.get(server.url + "/")
            wait(browser, lambda b: body(b, "ready") == "1")
            Select(browser.find_element(By.ID, "game")).select_by_value(game)
            browser.find_element(By.ID, "start").click()
            wait(browser, lambda b: body(b, "game") == game and body(b, "version") is not None)
            width = browser.execute_script("return document.documentElement.clientWidth")
            assert browser.execute_script("return document.documentElement.scrollWidth") <= width, game
            for part in ["board", "side", "moves"]:
                box = browser.find_element(By.ID, part).rect
                assert box["x"] + box["width"] <= width, (game, part, box)
    finally:
        browser.set_window_size(1300, 1100)


def test_a_recorded_game_is_stepped_forward_and_back(server, browser, tmp_path):
    # The records file of a real arena: heuristic against random, one seed in both seat orders.
    path = tmp_path / "records.jsonl"
    subprocess.run([str(BINARY), "arena", "--game", "rocket_squad", "--agent", "heuristic", "--agent", "random",
                    "--games", "1", "--seed", "3", "--output", str(tmp_path / "arena"), "--no-plot",
                    "--records", str(path)], check=True, capture_output=True, timeout=300)
    assert len(path.read_text().splitlines()) == 2
    watcher = start_server("--records", str(path))
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    try:
        browser.get(watcher.url + "/")
        wait(browser, lambda b: body(b, "ready") == "1")
        assert browser.find_element(By.ID, "watch").is_displayed()
        # The arena's table of the file, beside the list of its games.
        rows = browser.find_elements(By.CSS_SELECTOR, "#watch-arena #arena-agents tbody tr")
        assert [r.find_element(By.TAG_NAME, "td").text for r in rows] == ["heuristic", "random"]
        browser.find_element(By.ID, "watch-start").click()
        wait(browser, lambda b: body(b, "mode") == "watch" and body(b, "move") == "0")
        browser.save_screenshot(str(ARTIFACTS / "watch_move_0.png"))
        for move in range(1, 31):
            browser.find_element(By.ID, "forward").click()
            wait(browser, lambda b: body(b, "move") == str(move))
            if move % 10 == 0:
                browser.save_screenshot(str(ARTIFACTS / f"watch_forward_{move}.png"))
        assert len(browser.find_elements(By.CSS_SELECTOR, "#log li")) == 30
        # ...and beside the watched game and its move list.
        arena = browser.find_element(By.ID, "arena")
        assert arena.is_displayed() and "Arena table" in arena.text and "Head to head" in arena.text
        assert len(arena.find_elements(By.CSS_SELECTOR, "#arena-agents tbody tr")) == 2
        Select(browser.find_element(By.ID, "watch-seat")).select_by_value("0")
        wait(browser, lambda b: body(b, "viewer") == "0")
        assert "move 30 of" in browser.find_element(By.ID, "move").text
        browser.save_screenshot(str(ARTIFACTS / "watch_rocket_squad.png"))
        for move in range(29, 24, -1):
            browser.find_element(By.ID, "back").click()
            wait(browser, lambda b: body(b, "move") == str(move))
        browser.save_screenshot(str(ARTIFACTS / "watch_back_25.png"))
        Select(browser.find_element(By.ID, "watch-seat")).select_by_value("full")
        wait(browser, lambda b: body(b, "viewer") == "full")
        assert len(browser.find_elements(By.CSS_SELECTOR, "#log li")) == 25
    finally:
        stop_server(watcher)


def test_a_replay_goes_by_keys_slider_and_autoplay_with_the_bots_analysis(browser, tmp_path):
    path = tmp_path / "records.jsonl"
    subprocess.run([str(BINARY), "arena", "--game", "rocket_squad", "--agent", "heuristic", "--agent", "random",
                    "--games", "1", "--seed", "4", "--output", str(tmp_path / "arena"), "--no-plot",
                    "--records", str(path)], check=True, capture_output=True, timeout=300)
    watcher = start_server("--records", str(path))
    try:
        browser.get(watcher.url + "/")
        wait(browser, lambda b: body(b, "ready") == "1")
        browser.find_element(By.ID, "watch-start").click()
        wait(browser, lambda b: body(b, "mode") == "watch" and body(b, "move") == "0")
        page = browser.find_element(By.TAG_NAME, "body")
        page.send_keys(Keys.ARROW_RIGHT)
        wait(browser, lambda b: body(b, "move") == "1")
        page.send_keys(Keys.ARROW_RIGHT)
        wait(browser, lambda b: body(b, "move") == "2")
        page.send_keys(Keys.ARROW_LEFT)
        wait(browser, lambda b: body(b, "move") == "1")
        # The slider goes straight to a move.
        slider = browser.find_element(By.ID, "slider")
        moves = int(slider.get_attribute("max"))
        assert moves > 12
        browser.execute_script("arguments[0].value = 10; arguments[0].dispatchEvent(new Event('input'))", slider)
        wait(browser, lambda b: body(b, "move") == "10")
        assert "move 10 of" in browser.find_element(By.ID, "move").text
        # The zoo bot's analysis of the move about to be made, with the share it gave the move played.
        browser.find_element(By.ID, "replay-analysis").click()
        wait(browser, lambda b: body(b, "analysis") or b.find_element(By.ID, "analysis-note").text)
        note = browser.find_element(By.ID, "analysis-note").text
        assert "the move played had" in note, note
        assert len(browser.find_elements(By.CSS_SELECTOR, "#bars .bar-row")) == int(body(browser, "analysis"))
        assert len(browser.find_elements(By.CSS_SELECTOR, "#bars .bar-row.played")) == 1
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(ARTIFACTS / "watch_analysis.png"))
        # Autoplay at the fastest speed moves on by itself, and pauses.
        Select(browser.find_element(By.ID, "speed")).select_by_index(2)
        browser.find_element(By.ID, "autoplay").click()
        wait(browser, lambda b: int(body(b, "move")) >= 13)
        browser.find_element(By.ID, "autoplay").click()
        assert body(browser, "autoplay") == ""
    finally:
        stop_server(watcher)


def moves_offered(browser):
    return [m.get_attribute("title") for m in browser.find_elements(By.CSS_SELECTOR, "#moves button[data-action]")]


def test_a_person_undoes_a_move(server, browser):
    browser.get(server.url + "/")
    wait(browser, lambda b: body(b, "ready") == "1")
    Select(browser.find_element(By.ID, "game")).select_by_value("launchpad23")
    Select(browser.find_element(By.ID, "players")).select_by_value("2")
    browser.find_element(By.ID, "seed").send_keys("5")
    browser.find_element(By.ID, "start").click()
    wait(browser, lambda b: body(b, "game") == "launchpad23" and body(b, "waiting") == "you")
    undo = browser.find_element(By.ID, "undo")
    assert not undo.is_enabled(), "nothing to undo before the first move"
    before = moves_offered(browser)
    version = body(browser, "version")
    browser.find_elements(By.CSS_SELECTOR, "#moves button[data-action]")[-1].click()
    wait(browser, lambda b: body(b, "version") != version)
    while body(browser, "waiting") == "bot":
        version = body(browser, "version")
        browser.find_element(By.ID, "step").click()
        wait(browser, lambda b: body(b, "version") != version)
    assert len(browser.find_elements(By.CSS_SELECTOR, "#log li")) >= 1
    version = body(browser, "version")
    browser.find_element(By.ID, "undo").click()
    wait(browser, lambda b: body(b, "version") != version)
    assert not browser.find_element(By.ID, "error").is_displayed(), browser.find_element(By.ID, "error").text
    assert body(browser, "waiting") == "you"
    assert moves_offered(browser) == before
    assert browser.find_elements(By.CSS_SELECTOR, "#log li") == []
    assert not browser.find_element(By.ID, "undo").is_enabled()


def test_a_reload_resumes_the_game(server, browser):
    """Reloading the page lost the game (and left its table holding a slot until it expired): the
    address now holds the table's id, the seat and its key (in the #fragment, never sent to the
    server), and the page reads it."""
    browser.get(server.url + "/")
    wait(browser, lambda b: body(b, "ready") == "1")
    Select(browser.find_element(By.ID, "game")).select_by_value("last_blast")
    Select(browser.find_element(By.ID, "players")).select_by_value("2")
    browser.find_element(By.ID, "start").click()
    wait(browser, lambda b: body(b, "game") == "last_blast" and body(b, "waiting") == "you")
    version = body(browser, "version")
    browser.find_elements(By.CSS_SELECTOR, "#moves button[data-action]")[0].click()
    wait(browser, lambda b: body(b, "version") != version)
    version, offered, text = body(browser, "version"), moves_offered(browser), browser.find_element(By.ID, "turn").text
    address = browser.current_url
    assert "#table=" in address and "key0=" in address
    browser.refresh()
    wait(browser, lambda b: body(b, "ready") == "1")
    assert body(browser, "game") == "last_blast" and body(browser, "version") == version
    assert moves_offered(browser) == offered and browser.find_element(By.ID, "turn").text == text
    assert not browser.find_element(By.ID, "error").is_displayed()
    # A made-up key is refused: the page says so and offers a new table.
    browser.get("about:blank")
    browser.get(address.replace("key0=", "key0=0"))
    wait(browser, lambda b: body(b, "ready") == "1")
    assert browser.find_element(By.ID, "error").is_displayed()
    assert "key" in browser.find_element(By.ID, "error").text
    assert browser.find_element(By.ID, "setup").is_displayed()
