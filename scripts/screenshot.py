"""The README's picture of the score pad: a finished 4-player Kardinal & König game on a phone,
the grid on the left and the scores below it on the right. Needs Chromium (apt-get install
chromium) and a Japanese font for the page (fonts-noto-cjk):

    .venv/bin/python scripts/screenshot.py            # writes docs/scorepad.png
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from test_pad_browser import ARGS, PHONE, Server, as_tally  # noqa: E402  (one game, one server helper)


def main() -> None:
    from PIL import Image
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or sys.exit("needs Chromium: apt-get install chromium")
    with tempfile.TemporaryDirectory() as folder:
        server = Server(Path(folder)).start()
        try:
            request = urllib.request.Request(
                server.url + "/api/games",
                data=json.dumps({"game": "kardinal"}).encode(),
                headers={"content-type": "application/json"},
                method="POST",
            )
            made = json.loads(urllib.request.urlopen(request).read())
            request = urllib.request.Request(
                f"{server.url}/api/games/{made['id']}?replace=1",
                data=json.dumps(as_tally()).encode(),
                headers={"content-type": "application/json"},
                method="PUT",
            )
            urllib.request.urlopen(request).read()
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=chromium, args=ARGS)
                page = browser.new_context(locale="ja-JP", **{**PHONE, "device_scale_factor": 1}).new_page()
                page.goto(server.url + made["url"])
                page.wait_for_selector(".verdict")
                top = Path(folder) / "top.png"
                results = Path(folder) / "results.png"
                page.screenshot(path=str(top))
                page.evaluate("document.querySelector('header.bar').style.position = 'static'")  # not over the scores
                page.locator("#results").screenshot(path=str(results))
                browser.close()
        finally:
            server.stop()
        left, right = Image.open(top), Image.open(results)
        sheet = Image.new("RGB", (left.width + right.width + 24, max(left.height, right.height)), "#e9e9ee")
        sheet.paste(left, (0, 0))
        sheet.paste(right, (left.width + 24, 0))
        target = ROOT / "docs" / "scorepad.png"
        sheet.save(target, optimize=True)
        print(target)


if __name__ == "__main__":
    main()
