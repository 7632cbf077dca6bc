"""Every page of the score pad as a phone shows it, in a real Chromium: no serious or critical
accessibility problem (axe-core, from npm: .ci/run installs it), light and dark; the totals in
view at 360 px; hostile names shown as text on every page and every download; the numbers of
the charts and the player pages read back from the page."""

import json
import os
import urllib.request
from io import BytesIO
from pathlib import Path

import pytest
from conftest import ROOT
from test_pad_browser import ARGS, CHROMIUM, HOSTILE_NAMES, PHONE, Server, _example_players, _renamed

from kkprint.base.yamlio import load_yaml_file
from kkprint.scoring.scorers import SCORERS

AXE = Path(
    os.environ.get("KKPRINT_AXE")
    or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "kkprint-axe/node_modules/axe-core/axe.min.js"
)
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine (apt-get install chromium)")


@pytest.fixture
def server(tmp_path):
    running = Server(tmp_path / "data").start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


def call(server, path, body, method="POST"):
    request = urllib.request.Request(
        server.url + path, data=json.dumps(body).encode(), headers={"content-type": "application/json"}, method=method
    )
    return json.loads(urllib.request.urlopen(request).read())


def get(server, path):
    return json.loads(urllib.request.urlopen(server.url + path).read())


def saved_games(server, names=None):
    """Every game, filled from its example (names replaced by ``names`` in order), finished."""
    made = {}
    for game, scorer in SCORERS.items():
        tally = load_yaml_file(ROOT / "examples" / scorer.example)
        if names:
            tally = _renamed(tally, dict(zip(_example_players(tally), names)))
        made[game] = call(server, "/api/games", {"game": game})["id"]
        call(server, f"/api/games/{made[game]}?replace=1", tally, "PUT")
        call(server, f"/api/games/{made[game]}/fields", {"changes": [{"path": "players.0", "value": None}]})
        call(server, f"/api/games/{made[game]}/undo", {})  # a history with an undone step
        call(server, f"/api/games/{made[game]}", {"finished": True}, "PATCH")
    return made


def every_page(server, made, person):
    return [
        "/",
        "/players",
        f"/players/{person}",
        *(f"/leaderboard/{game}" for game in SCORERS),
        *(f"/g/{game_id}" for game_id in made.values()),
        "/g/not-a-game",
    ]


@pytest.mark.skipif(not AXE.is_file(), reason=f"axe-core is not installed at {AXE} (npm install axe-core; see .ci/run)")
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_page_has_a_serious_accessibility_problem(browser, server, scheme):
    made = saved_games(server)
    context = browser.new_context(locale="ja-JP", color_scheme=scheme, bypass_csp=True, **PHONE)
    page = context.new_page()
    found = {}
    for path in every_page(server, made, "aki"):
        page.goto(server.url + path)
        page.wait_for_load_state("networkidle")
        if page.locator("#history").count():
            page.click("#history summary")
            page.locator("#history-list li").first.wait_for()
        page.add_script_tag(path=str(AXE))
        problems = page.evaluate(
            """async () => (await axe.run(document, {resultTypes: ['violations']})).violations
                 .filter(v => v.impact === 'serious' || v.impact === 'critical')
                 .map(v => `${v.id}: ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', ')}`)"""
        )
        if problems:
            found[path] = problems
    assert found == {}, json.dumps(found, indent=1, ensure_ascii=False)
    context.close()


@pytest.mark.parametrize("width", [360, 390])
def test_the_totals_are_in_view_on_a_narrow_phone(browser, server, width):
    """Every game's totals are on the screen without scrolling sideways: the page is no wider
    than the phone and each player's total lies within it."""
    made = saved_games(server)
    context = browser.new_context(locale="en-US", **{**PHONE, "viewport": {"width": width, "height": 740}})
    page = context.new_page()
    for game, game_id in made.items():
        page.goto(f"{server.url}/g/{game_id}")
        page.wait_for_load_state("networkidle")
        assert page.evaluate("document.documentElement.scrollWidth") <= width, game
        totals = page.locator(".totals li")
        assert totals.count() == len(get(server, f"/api/games/{game_id}")["result"]["players"])
        for index in range(totals.count()):
            box = totals.nth(index).bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= width, (game, box)
    context.close()


def test_charts_and_player_pages_show_the_saved_games_numbers(browser, server):
    made = saved_games(server)
    context = browser.new_context(locale="en-US", **PHONE)
    page = context.new_page()
    results = {game: get(server, f"/api/games/{game_id}")["result"] for game, game_id in made.items()}
    for game, game_id in made.items():
        page.goto(f"{server.url}/g/{game_id}")
        drawn = page.evaluate(
            "() => [...document.querySelectorAll('svg.bars g.bar')].map(g => [g.dataset.name,"
            " g.querySelector('text.total').textContent, [...g.querySelectorAll('rect')].map(r => +r.dataset.value)])"
        )
        for (name, total, values), player in zip(drawn, results[game]["players"]):
            expected = player.get("game_total", player["total"])
            assert name == player["name"] and total == str(expected) and sum(values) == expected
    aki = [
        (game, next(p for p in result["players"] if p["name"] == "Aki"))
        for game, result in results.items()
        if any(p["name"] == "Aki" for p in result["players"])
    ]
    page.goto(f"{server.url}/players/aki")
    for game, player in aki:
        section = page.locator(f"section.record[data-game='{game}']")
        score = player.get("game_total", player["total"])
        assert section.locator("[data-figure='games']").inner_text() == "1"
        assert section.locator("[data-figure='best']").inner_text() == str(score)
        assert section.locator("[data-figure='wins']").inner_text() == (
            "1" if "Aki" in results[game]["winners"] else "0"
        )
        assert section.locator("circle.point").get_attribute("data-score") == str(score)
    page.goto(f"{server.url}/leaderboard/kardinal")
    rows = page.locator("table.board-table tbody tr")
    assert rows.first.get_attribute("data-player") == results["kardinal"]["winners"][0]
    context.close()


@pytest.mark.parametrize("policy", ["with-csp", "without-csp"])
def test_hostile_names_stay_text_on_every_page_and_download(browser, server, policy):
    """The hostile corpus as the players of every game: on the player pages, the leaderboards,
    the history, the charts, the list and the games, nothing runs and every name reads as typed;
    the tally export and chart.pdf carry the names as text."""
    from pypdf import PdfReader

    from kkprint.base.yamlio import parse_yaml

    names = HOSTILE_NAMES[:5]
    made = saved_games(server, names)
    context = browser.new_context(locale="en-US", bypass_csp=policy == "without-csp", **PHONE)
    page = context.new_page()
    ran, blocked = [], []
    page.expose_function("__xss", lambda n: ran.append(n))
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', e => window.__blocked = "
        "(window.__blocked || []).concat([e.violatedDirective]))"
    )
    from urllib.parse import quote

    from kkprint.web.pad.store import player_key

    for path in every_page(server, made, quote(player_key(names[0]), safe="")):
        page.goto(server.url + path)
        page.wait_for_load_state("networkidle")
        if page.locator("#history").count():
            page.click("#history summary")
            page.locator("#history-list li").first.wait_for()
        blocked += page.evaluate("window.__blocked || []")
        shown = page.evaluate(
            "document.body.innerText + ' ' + [...document.querySelectorAll('input, option')].map(e => e.value).join(' ')"
            " + ' ' + [...document.querySelectorAll('svg text, svg title')].map(e => e.textContent).join(' ')"
        )
        if path.startswith("/players/"):
            assert names[0] in shown, path
        if path.startswith(("/g/", "/leaderboard/")) and "not-a-game" not in path:
            assert any(name in shown for name in names), path
    assert ran == [] and blocked == [], (ran, blocked)
    context.close()
    for game_id in made.values():
        exported = urllib.request.urlopen(f"{server.url}/g/{game_id}/tally.yaml").read().decode()
        players = parse_yaml(exported, "tally.yaml")["players"]
        assert [p["name"] if isinstance(p, dict) else p for p in players] == names[: len(players)]
    pdf = urllib.request.urlopen(f"{server.url}/g/{made['kardinal']}/chart.pdf?lang=en").read()
    text = PdfReader(BytesIO(pdf)).pages[0].extract_text()
    text = " ".join(text.split())  # the chart's narrow cells wrap a long name over lines
    assert "</script><svg onload=__xss(1)>" in text and "<img src=x onerror=__xss(2)>" in text
