"""The page of `rocketgym serve` in a real browser (headless Chromium through Selenium): a person
plays a whole game of every game against the heuristic bot by clicking legal moves and the bots'
step button, undoes a move, and steps a recorded arena game forward and back beside the arena's
table of its file. Screenshots of each game's board and of the replay are saved under
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
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

CHROMIUM = shutil.which("chromium")
DRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(not CHROMIUM or not DRIVER,
                                reason="chromium and chromium-driver are not installed (scripts/setup.sh)")
ARTIFACTS = pathlib.Path(os.environ.get("ROCKETGYM_ARTIFACTS", BUILD / "browser-artifacts"))
GAMES = ["launchpad23", "launch_pad", "rocket_squad", "last_blast", "lift_off"]
SCREENSHOT_AT = {"last_blast": 16}  # clicks into the game (default 40): a board in mid-game


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


@pytest.mark.parametrize("game", GAMES)
def test_a_person_plays_a_whole_game_against_the_heuristic(server, browser, game):
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
    clicks = 0
    shot = False
    while body(browser, "waiting") != "over":
        assert clicks < 20000, "the game did not end"
        version = body(browser, "version")
        if body(browser, "waiting") == "bot":
            browser.find_element(By.ID, "step").click()
        else:
            assert body(browser, "waiting") == "you"
            moves = browser.find_elements(By.CSS_SELECTOR, "#moves button[data-action]")
            assert moves, "the person to move has legal moves to click"
            move = rng.choice(moves)
            assert move.get_attribute("title"), "every move has its action text as tooltip"
            move.click()
        wait(browser, lambda b: body(b, "version") != version or browser.find_element(By.ID, "error").is_displayed())
        assert not browser.find_element(By.ID, "error").is_displayed(), browser.find_element(By.ID, "error").text
        clicks += 1
        if clicks == SCREENSHOT_AT.get(game, 40):
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            browser.save_screenshot(str(ARTIFACTS / f"{game}.png"))
            shot = True
    assert "Scores" in browser.find_element(By.ID, "result").text
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(ARTIFACTS / f"{game}_end.png"))
    if not shot:
        browser.save_screenshot(str(ARTIFACTS / f"{game}.png"))


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
