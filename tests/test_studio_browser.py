"""The deck studio in a real browser: Debian's Chromium, headless, driven by Playwright, against a
real `kkprint studio` process on a copy of an example deck that the tests edit as a designer
would. Skipped, with the reason printed, on a machine without Chromium (CI installs it)."""

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import test_pad_browser
from conftest import ROOT, free_port
from test_pad_browser import AXE, CHROMIUM, HOSTILE_NAMES

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine (apt-get install chromium)")
HEIST = ROOT / "examples" / "decks" / "heist"
SIZES = {"desktop": (1280, 800), "tablet": (768, 1024), "phone": (360, 740)}
browser = test_pad_browser.browser  # the pad's fixture: Chromium, launched once for the module


class StudioProcess:
    """`kkprint studio DECK --no-open` as a user starts it; returns once it accepts connections."""

    def __init__(self, deck: Path, lang: str = "en", **popen):
        self.port = free_port()
        env = {**os.environ, "KKPRINT_LANG": lang}
        command = [sys.executable, "-m", "kkprint", "studio", str(deck), "--no-open", "--port", str(self.port)]
        self.process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, **popen
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return
            except OSError:
                assert self.process.poll() is None, "the studio did not start: " + self.process.stderr.read()
                assert time.monotonic() < deadline, "the studio did not start within 30 s"
                time.sleep(0.1)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def stop(self) -> tuple[int, str]:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=20)
        finally:
            if self.process.poll() is None:
                self.process.kill()
        return self.process.returncode, self.process.stderr.read()


@pytest.fixture
def heist(tmp_path):
    folder = tmp_path / "heist"
    shutil.copytree(HEIST, folder)
    return folder


@pytest.fixture
def studio(heist):
    running = StudioProcess(heist / "heist.yaml")
    yield running
    running.stop()


def open_page(browser, url, lang="en-US", size="desktop", every_picture=True, **options):
    width, height = SIZES[size]
    context = browser.new_context(locale=lang, viewport={"width": width, "height": height}, **options)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    drawn(page, every_picture)
    return context, page, errors


def drawn(page, every_picture=True):
    """Wait until the studio has nothing left to draw and (unless some cards cannot be drawn)
    every card shows its picture."""
    page.wait_for_function(
        "every => document.querySelectorAll('.tile').length > 0"
        " && (!every || [...document.querySelectorAll('.tile img')].every(img => img.complete && img.naturalWidth > 0))"
        " && document.getElementById('status').classList.contains('live')",
        arg=every_picture,
    )


def pictures(page):
    return page.evaluate(
        "() => Object.fromEntries([...document.querySelectorAll('.tile')].map(t => [t.dataset.index, t.querySelector('img').getAttribute('src')]))"
    )


def save(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_saved_cell_changes_that_cards_picture_within_2_s_and_no_other(browser, studio, heist):
    context, page, errors = open_page(browser, studio.url)
    before = pictures(page)
    assert len(before) == 10 and all(before.values())
    save(heist / "items.csv", "Crowbar,item,Tool,Muscle,1,", "Crowbar,item,Tool,Muscle,3,")
    page.wait_for_function(
        "old => document.querySelector('.tile[data-index=\"1\"] img').getAttribute('src') !== old",
        arg=before["1"],
        timeout=2000,  # the promise: the picture changes within 2 s of the save
    )
    drawn(page)
    after = pictures(page)
    assert after["1"] != before["1"]
    assert {index: url for index, url in after.items() if index != "1"} == {
        index: url for index, url in before.items() if index != "1"
    }
    assert errors == []
    context.close()


def test_a_broken_deck_shows_its_line_while_the_cards_stay_and_fixing_it_clears_it(browser, studio, heist):
    context, page, errors = open_page(browser, studio.url)
    before = pictures(page)
    save(heist / "heist.yaml", "card: {size: poker}", "card: {size: poker")
    page.wait_for_selector("#problems:not([hidden])")
    problem = page.inner_text("#problem-list")
    assert "heist.yaml" in problem and "line 8" in problem and "not valid YAML" in problem
    assert pictures(page) == before and page.locator(".tile img").count() == 10
    save(heist / "heist.yaml", "card: {size: poker", "card: {size: poker}")
    page.wait_for_selector("#problems", state="hidden")
    assert pictures(page) == before and errors == []
    context.close()


def test_a_card_opened_large_shows_its_regions_names_and_data_row(browser, studio):
    context, page, errors = open_page(browser, studio.url)
    page.click(".tile[data-index='1'] .tile-picture")
    page.wait_for_selector("#faces .region")
    assert page.inner_text("#card-title") == "No. 5 · Crowbar"
    chips = page.eval_on_selector_all(".face:first-child .region-chip", "chips => chips.map(c => c.textContent)")
    assert chips == ["banner", "frame", "title", "text", "footer", "cost", "art", "type", "flavour", "loud", "starter"]
    heights = page.eval_on_selector_all(".region-chip", "chips => chips.map(c => c.getBoundingClientRect().height)")
    assert min(heights) >= 44  # a fingertip's target (they were 26 px)
    outlined = page.eval_on_selector_all(".face:first-child .region", "regions => regions.map(r => r.dataset.name)")
    assert "loud" in outlined and "flavour" not in outlined and "starter" not in outlined  # not on this card
    loud = page.locator(".face:first-child .region[data-name='loud']")
    loud.hover()
    assert loud.locator(".region-name").is_visible() and loud.locator(".region-name").inner_text() == "loud"
    loud.click()
    info = page.inner_text("#region")
    assert "heist.yaml, line 40" in info and "loud:" in info and "noise >= 2" in info
    page.click(".face:first-child .region-chip[data-name='starter']")
    assert "not printed on this card (cards: 1-4)" in page.inner_text("#region")
    row = page.inner_text("#row")
    assert "Crowbar" in row and "Muscle" in row and "#b71c1c" in row and "<b>Force</b> a {lock}" in row
    assert page.inner_text("#origin") == "items.csv row 3"
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.getElementById('card-title').textContent.endsWith('Grappling Hook')")
    page.keyboard.press("Escape")
    assert not page.is_visible("#card") and errors == []
    context.close()


def test_a_card_whose_text_is_too_small_shows_the_preflights_warning_on_that_card(browser, tmp_path):
    """The tile of the card whose rules shrink under 6 pt is marked; opened large it lists the
    warning with its region and line, and outlines that region as warned; its neighbour has
    nothing to warn about."""
    from test_studio import small_text_deck

    keep = Path(os.environ.get("KKPRINT_SCREENSHOTS") or tmp_path)
    keep.mkdir(parents=True, exist_ok=True)
    running = StudioProcess(small_text_deck(tmp_path / "small"))
    try:
        context, page, errors = open_page(browser, running.url)
        marked = page.eval_on_selector_all(".tile", "tiles => tiles.map(t => t.classList.contains('warned'))")
        assert marked == [False, True, False]
        page.screenshot(path=str(keep / "studio-grid-warning.png"))
        page.click(".tile[data-index='1'] .tile-picture")
        page.wait_for_selector("#warnings .finding")
        said = page.eval_on_selector_all("#warnings .finding", "items => items.map(i => [i.className, i.textContent])")
        assert said == [
            [
                "finding warning",
                "region 'rules' (line 6): text shrinks to 4.5 pt to fit its box, below the 6 pt that still reads; "
                "give it a larger box or fewer words",
            ]
        ]
        flagged = page.eval_on_selector_all(
            ".face:first-child .flagged-warning", "marks => marks.map(m => m.dataset.name)"
        )
        assert flagged == ["rules", "rules"]  # its outline on the picture, and its chip
        page.wait_for_function(
            "() => [...document.querySelectorAll('#faces img')].every(img => img.complete && img.naturalWidth > 0)"
        )
        page.screenshot(path=str(keep / "studio-card-warning.png"))
        page.keyboard.press("ArrowLeft")
        page.wait_for_function("() => document.getElementById('card-title').textContent.endsWith('Short')")
        assert page.inner_text("#warnings") == "Nothing to warn about."
        assert page.locator(".flagged-warning").count() == 0 and errors == []
        context.close()
    finally:
        running.stop()


def test_filters_flip_and_sheets_as_they_will_print(browser, studio):
    context, page, errors = open_page(browser, studio.url)

    def visible():
        return page.eval_on_selector_all(".tile:not([hidden]) .tile-title", "titles => titles.map(t => t.textContent)")

    page.fill("#search", "crow")
    assert visible() == ["Crowbar"]
    page.fill("#search", "")
    page.select_option("#field", "crew")
    page.select_option("#value", "Muscle")
    assert visible() == ["Crowbar", "Grappling Hook", "Loot Bag"] and page.inner_text("#shown") == "3 of 10 cards"
    page.select_option("#field", "")
    page.select_option("#layout", "plan")
    assert visible() == ["The Blueprint", "The Getaway"]
    page.select_option("#layout", "")
    fronts = pictures(page)
    page.click("#flip")
    backs = pictures(page)
    assert all(backs[index] != fronts[index] for index in fronts) and len(set(backs.values())) < len(backs)
    page.click("#show-sheets")
    page.wait_for_selector(".sheet-page img")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.sheet-page img')].every(img => img.complete && img.naturalWidth > 0)"
    )
    captions = page.eval_on_selector_all(".sheet-page figcaption", "captions => captions.map(c => c.textContent)")
    assert captions == [
        "Sheet 1 · front",
        "Sheet 1 · back",
        "Sheet 2 · front",
        "Sheet 2 · back",
        "Sheet 3 · front",
        "Sheet 3 · back",
    ]
    assert page.is_hidden("#grid")
    page.select_option("#backs", "none")
    page.wait_for_function("() => document.querySelectorAll('.sheet-page').length === 3")
    assert errors == []
    context.close()


@pytest.mark.parametrize("policy", ["with-csp", "without-csp"])
def test_a_hostile_deck_is_shown_as_text_and_never_runs(browser, tmp_path, policy):
    """Names, texts, the deck's name and its file's name that would run __xss(n) if the page ever
    treated them as markup: shown as written, nothing runs, nothing is blocked by the policy."""
    folder = tmp_path / "deck"
    folder.mkdir()
    names = [name for name in HOSTILE_NAMES if name.isascii()]  # (a card needs characters the font has)
    quoted = [name.replace('"', '""') for name in names]
    rows = "\n".join(f'"{name}","{name}"' for name in quoted)
    (folder / "cards.csv").write_text("name,text\n" + rows + "\n", encoding="utf-8")
    deck = folder / "<svg onload=__xss(8)>.yaml"
    deck.write_text("name: '<img src=x onerror=__xss(9)>'\nextends: poker\ndata: cards.csv\n", encoding="utf-8")
    running = StudioProcess(deck)
    try:
        context, page, errors = open_page(browser, running.url, every_picture=False, bypass_csp=policy == "without-csp")
        ran = []
        page.expose_function("__xss", lambda n: ran.append(n))
        page.add_init_script(
            "document.addEventListener('securitypolicyviolation', e => window.__blocked = "
            "(window.__blocked || []).concat([e.violatedDirective]))"
        )
        page.reload()
        drawn(page, every_picture=False)
        titles = page.eval_on_selector_all(".tile-title", "titles => titles.map(t => t.textContent)")
        assert titles == names
        assert page.inner_text("#deck-name") == "<img src=x onerror=__xss(9)>"
        assert page.title().startswith("<svg onload=__xss(8)>.yaml")
        page.click(".tile[data-index='0'] .tile-picture")
        page.wait_for_selector("#row td")
        assert HOSTILE_NAMES[0] in page.inner_text("#row") and HOSTILE_NAMES[0] in page.inner_text("#card-title")
        page.keyboard.press("Escape")
        problems = page.inner_text("#problem-list")  # markup that is not kkprint's is refused, in words
        assert "<svg onload=__xss(8)>.yaml" in problems and "</script> closes a tag that was never opened" in problems
        assert ran == [] and page.evaluate("window.__blocked || []") == [] and errors == []
        context.close()
    finally:
        running.stop()


IN_ORDER = r"""element => {
  // each run of the page's own words (not the deck's, isolated in <bdi>): where its first and last
  // letters are drawn, in the order they are written
  const found = [];
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement.closest('bdi')) continue;
    const text = node.textContent;
    for (const at of new Set([text.search(/\S/), text.length - 1 - [...text].reverse().join('').search(/\S/)])) {
      if (at < 0 || at >= text.length) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + 1);
      const box = range.getBoundingClientRect();
      found.push([text[at], Math.round(box.left), Math.round(box.top)]);
    }
  }
  return found;
}"""


def reads_in_order(page, selector):
    """Every letter of the page's own words in ``selector`` is drawn after the one before it (to
    its right on the same line, or on a later line): nothing the deck wrote turned them around."""
    found = page.eval_on_selector(selector, IN_ORDER)
    assert len(found) >= 3, found
    for (_, left, top), (_, next_left, next_top) in zip(found, found[1:]):
        assert next_top > top + 2 or (abs(next_top - top) <= 2 and next_left > left), (selector, found)


def test_text_that_turns_right_to_left_is_isolated_in_the_problems_and_the_card(browser, tmp_path):
    """A card's name and colour written with U+202E (right-to-left override): the problem list,
    the card opened large (its title, its error, its preflight) show them as written, but the
    words after them still read left to right (they read backwards: the override ran on to the
    end of the line)."""
    folder = tmp_path / "rtl"
    folder.mkdir()
    (folder / "cards.csv").write_text("name,colour\n\u202eevil name,\u202e#zz\nPlain,#336699\n", encoding="utf-8")
    (folder / "rtl.yaml").write_text(
        "name: rtl\ncard: {size: poker}\ndata: cards.csv\nlayout:\n"
        "  box: {type: shape, shape: rect, x: 5, y: 5, w: 53, h: 20, fill: '${colour}'}\n"
        "  title: {type: text, x: 5, y: 30, w: 53, h: 8, field: name, size: 12}\n",
        encoding="utf-8",
    )
    running = StudioProcess(folder / "rtl.yaml")
    try:
        context, page, errors = open_page(browser, running.url, every_picture=False)
        page.wait_for_selector("#problems:not([hidden])")
        item = "#problem-list li:first-child"
        assert "\u202eevil name" in page.inner_text(item) and "#1a2b3c" in page.inner_text(item)
        isolated = page.eval_on_selector_all(f"{item} bdi", "all => all.map(b => b.textContent)")
        assert isolated[0].endswith("rtl.yaml") and isolated[1:3] == ["\u202eevil name", "cards.csv"]
        reads_in_order(page, item)
        page.click(item)
        page.wait_for_selector("#card-error:not([hidden])")
        for selector in ("#card-title", "#card-error", "#warnings li:first-child"):
            reads_in_order(page, selector)
        assert errors == []
        context.close()
    finally:
        running.stop()


def test_the_sheets_last_built_stay_on_screen_while_the_deck_does_not_build(browser, studio, heist):
    """A column no card has stops the build: the sheet view, even opened afresh, shows the sheets
    last built, said to be out of date, beneath the deck's problems; mended, they are built again."""
    context, page, errors = open_page(browser, studio.url)
    page.click("#show-sheets")
    page.wait_for_selector(".sheet-page img")
    good = page.eval_on_selector_all(".sheet-page img", "all => all.map(i => i.getAttribute('src'))")
    save(heist / "heist.yaml", 'field: null, text: "${name}"', 'field: null, text: "${nmae}"')
    page.wait_for_selector("#problems:not([hidden])")
    page.reload()
    page.wait_for_selector("#problems:not([hidden])")
    page.click("#show-sheets")
    page.wait_for_function("() => document.getElementById('sheet-status').textContent.includes('last built')")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.sheet-page img')].every(img => img.complete && img.naturalWidth > 0)"
    )
    kept = page.eval_on_selector_all(".sheet-page img", "all => all.map(i => i.getAttribute('src'))")
    assert kept == good and page.is_visible("#problems") and "'nmae'" in page.inner_text("#problem-list")
    assert page.inner_text("#sheet-status") == "The deck has problems; the sheets show how it last built."
    paper = page.input_value("#paper")  # a paper never built (its error, no sheets), then back: drawn again
    page.select_option("#paper", "letter")
    page.wait_for_function("() => document.getElementById('sheet-status').textContent.includes('nmae')")
    assert page.locator(".sheet-page").count() == 0
    page.select_option("#paper", paper)
    page.wait_for_function("() => document.getElementById('sheet-status').textContent.includes('last built')")
    assert page.locator(".sheet-page").count() == len(good)
    save(heist / "heist.yaml", 'field: null, text: "${nmae}"', 'field: null, text: "${name}"')
    page.wait_for_function("() => document.getElementById('sheet-status').textContent.endsWith('as they will print')")
    assert page.locator(".sheet-page").count() == len(good) and errors == []
    context.close()


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_column_no_card_has_and_a_broken_svg_are_listed_together(browser, studio, heist, lang, size, tmp_path):
    """The deck names a column no card has; then an SVG is broken: both are listed at once (the
    SVG's was listed only once the column was mended), the SVG's cards are marked, and every
    front is kept as it last drew, saying why; nothing is wider than the screen. The pictures
    are kept for a person to look at (KKPRINT_SCREENSHOTS=folder keeps them there)."""
    keep = Path(os.environ.get("KKPRINT_SCREENSHOTS") or tmp_path)
    keep.mkdir(parents=True, exist_ok=True)
    context, page, errors = open_page(browser, studio.url + f"?lang={lang}", lang=f"{lang}-JP", size=size)
    save(heist / "heist.yaml", 'field: null, text: "${name}"', 'field: null, text: "${nmae}"')
    page.wait_for_selector("#problems:not([hidden])")
    (heist / "art" / "vault.svg").write_text("<svg><g>not closed", encoding="utf-8")
    page.wait_for_function("() => document.querySelectorAll('#problem-list li').length === 2", timeout=20000)
    drawn(page)
    column, art = page.eval_on_selector_all("#problem-list li", "items => items.map(i => i.innerText)")
    assert "nmae" in column and "vault.svg" in art
    assert ("used on 6 cards" if lang == "en" else "6枚") in art
    broken = page.eval_on_selector_all(".tile.broken", "tiles => tiles.map(t => t.dataset.index)")
    assert broken == ["0", "1", "4", "5", "6", "7"]
    held = "as it last drew" if lang == "en" else "最後に描けたときのまま"
    assert held in page.get_attribute(".tile[data-index='2']", "title")
    assert page.locator(".tile.stale").count() == 10
    assert page.evaluate("() => document.documentElement.scrollWidth") <= SIZES[size][0]
    page.screenshot(path=str(keep / f"studio-two-problems-{size}-{lang}.png"), full_page=True)
    assert errors == []
    context.close()


def broken_art(page, heist):
    """The heist deck's sheets built, then a broken SVG (six cards show it) and a card whose
    colour is wrong saved: the problems listed, the sheets the last good ones."""
    page.click("#show-sheets")
    page.wait_for_selector(".sheet-page img")
    page.click("#show-cards")
    (heist / "art" / "vault.svg").write_text("<svg><g>not closed", encoding="utf-8")
    save(heist / "items.csv", "#b71c1c,vault,2", "#b71cZZ,vault,2")
    page.wait_for_selector("#problems:not([hidden])")
    page.wait_for_function("() => document.querySelectorAll('#problem-list li').length === 2")


def every_view(page):
    """The studio's views one after another, for a test to look at each: the grid (with its
    problems), a card opened large with a region chosen, the sheets (the last good ones)."""
    yield "grid"
    page.click(".tile[data-index='1'] .tile-picture")
    page.wait_for_selector("#faces .region-chip")
    page.click(".face:first-child .region-chip[data-name='cost']")
    yield "card"
    page.click("#close")
    page.click("#show-sheets")
    page.wait_for_selector(".sheet-pages.stale .sheet-page img")
    yield "sheets"


SMALL_TARGETS = """() => [...document.querySelectorAll('a, button, input, select, summary, [role=button]')]
  .filter((e) => e.getClientRects().length > 0 && !e.matches('.region'))
  .filter((e) => { const box = e.getBoundingClientRect(); return box.width < 44 || box.height < 44; })
  .map((e) => `${e.tagName}#${e.id}.${e.className} ${e.textContent.trim().slice(0, 12)} `
    + `${Math.round(e.getBoundingClientRect().width)}x${Math.round(e.getBoundingClientRect().height)}`)"""


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_target_a_finger_taps_is_44_px_on_a_360_px_phone(browser, studio, heist, lang):
    """At 360 px, in every view, everything a finger taps is at least 44 × 44 px (the language
    links were 32 tall, the size slider 18, the card's ‹ › × 42, short region chips 36 wide)
    and nothing is wider than the phone. The outlines on a card's picture are as large as its
    regions: the chips beside it are what a finger taps."""
    context, page, errors = open_page(
        browser, studio.url + f"?lang={lang}", lang=f"{lang}-JP", size="phone", has_touch=True
    )
    broken_art(page, heist)
    for view in every_view(page):
        assert page.evaluate(SMALL_TARGETS) == [], view
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 360, view
    assert errors == []
    context.close()


@pytest.mark.skipif(not AXE.is_file(), reason=f"axe-core is not installed at {AXE} (npm install axe-core; see .ci/run)")
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_view_has_a_serious_accessibility_problem_light_or_dark(browser, studio, heist, scheme):
    """axe-core on the grid with its problems, a card opened large and the sheets, in the light
    and the dark scheme: nothing serious or critical (contrast among them)."""
    context, page, errors = open_page(browser, studio.url, color_scheme=scheme, bypass_csp=True)
    broken_art(page, heist)
    page.add_script_tag(path=str(AXE))
    found = {}
    for view in every_view(page):
        problems = page.evaluate(
            """async () => (await axe.run(document, {resultTypes: ['violations']})).violations
                 .filter(v => v.impact === 'serious' || v.impact === 'critical')
                 .map(v => `${v.id}: ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', ')}`)"""
        )
        if problems:
            found[view] = problems
    assert found == {} and errors == []
    context.close()


def test_the_dark_scheme_darkens_the_page_and_not_the_cards(browser, studio):
    """With the system dark, the page, its tools and a card opened large are dark, their words
    light; the cards' pictures are drawn as they print (no filter on them)."""
    context, page, errors = open_page(browser, studio.url, color_scheme="dark")

    def lightness(selector, what="backgroundColor"):
        colour = page.eval_on_selector(selector, f"e => getComputedStyle(e).{what}")
        red, green, blue = (float(part) for part in re.findall(r"[\d.]+", colour)[:3])
        return (0.2126 * red + 0.7152 * green + 0.0722 * blue) / 255

    assert lightness("body") < 0.15 and lightness(".studio-tools") < 0.15 and lightness("body", "color") > 0.8
    assert lightness("#search") < 0.2 and lightness("#flip") < 0.2
    page.click(".tile[data-index='1'] .tile-picture")
    page.wait_for_selector("#faces .region-chip")
    assert lightness("#card") < 0.2 and lightness(".dialog-bar") < 0.2 and lightness("#row td", "color") > 0.8
    filters = page.eval_on_selector_all(".tile img, #faces img", "all => all.map(i => getComputedStyle(i).filter)")
    assert set(filters) == {"none"} and errors == []
    context.close()


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("size", sorted(SIZES))
def test_screenshots_fit_a_desktop_and_a_tablet_in_both_languages(browser, studio, lang, size, tmp_path):
    """The grid and a card opened large, with nothing wider than the screen; the pictures are kept
    for a person to look at (KKPRINT_SCREENSHOTS=folder keeps them there)."""
    keep = Path(os.environ.get("KKPRINT_SCREENSHOTS") or tmp_path)
    keep.mkdir(parents=True, exist_ok=True)
    context, page, errors = open_page(browser, studio.url + f"?lang={lang}", lang=f"{lang}-JP", size=size)
    width = SIZES[size][0]
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    status = page.inner_text("#status")
    assert status == ("Live: redrawn as you save" if lang == "en" else "表示中: 保存するたびに描き直します")
    page.screenshot(path=str(keep / f"studio-{size}-{lang}.png"))
    page.click(".tile[data-index='1'] .tile-picture")
    page.wait_for_selector("#faces .region")
    page.wait_for_function(
        "() => [...document.querySelectorAll('#faces img')].every(img => img.complete && img.naturalWidth > 0)"
    )
    page.click(".face:first-child .region[data-name='cost']")
    box = page.locator("#card").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width
    page.screenshot(path=str(keep / f"studio-card-{size}-{lang}.png"))
    assert errors == []
    context.close()


@pytest.mark.parametrize("ignored", [False, True], ids=["terminal", "background-job"])
def test_ctrl_c_stops_the_studio_with_a_page_open(browser, heist, ignored):
    """130 after a Ctrl-C, also for a studio started with SIGINT ignored (a script's `cmd &`):
    uvicorn stops on it all the same, and the studio ended with 0 there."""

    def ignoring_ctrl_c() -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)

    running = StudioProcess(heist / "heist.yaml", **({"preexec_fn": ignoring_ctrl_c} if ignored else {}))
    context, page, errors = open_page(browser, running.url)
    code, said = running.stop()
    assert code == 130 and "Traceback" not in said
    assert said.splitlines()[0] == f"Deck studio: {running.url}" and said.splitlines()[-1] == "deck studio stopped"
    context.close()
