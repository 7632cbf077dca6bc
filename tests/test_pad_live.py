"""The score pad beyond one phone: single-field changes that never overwrite what a phone did not
see, undo and redo that restore a tally exactly, the history, finished/renamed/deleted games,
players across games and their charts, the pushed event stream, and every refusal a 4xx in the
reader's language (issue 31: never a 500)."""

import json
import socket
import sqlite3
import threading
from io import BytesIO

import pytest
from conftest import free_port, start_score_pad
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from test_pad_api import JSON, JSON_BODY, LOCAL, example

from kkprint.scoring.scorers import SCORERS
from kkprint.web.pad import charts
from kkprint.web.pad.app import create_app
from kkprint.web.pad.store import Store


def new_game(client, game, tally=None):
    made = client.post("/api/games", json={"game": game}).json()
    if tally is not None:
        assert client.put(f"/api/games/{made['id']}?replace=1", json=tally).status_code == 200
    return f"/api/games/{made['id']}"


def fields(client, url, *changes, lang="en", player=""):
    return client.post(
        f"{url}/fields?lang={lang}", json={"changes": list(changes)}, headers={"x-kkprint-player": player}
    )


def test_a_field_is_set_only_over_the_value_its_phone_saw(client):
    url = new_game(client, "kardinal")
    path = "players.0.lands.france.cards"
    first = fields(client, url, {"path": path, "value": 5, "base": None}).json()
    assert first["tally"]["players"][0]["lands"]["france"]["cards"] == 5 and first["conflicts"] == []
    stale = fields(client, url, {"path": path, "value": 7, "base": None}).json()  # typed over 5 unseen
    assert stale["conflicts"] == [{"path": path, "value": 5}]
    assert stale["tally"]["players"][0]["lands"]["france"]["cards"] == 5
    seen = fields(client, url, {"path": path, "value": 7, "base": 5}).json()
    assert seen["conflicts"] == [] and seen["tally"]["players"][0]["lands"]["france"]["cards"] == 7
    forced = fields(client, url, {"path": path.split("."), "value": 8}).json()  # no base: a script's choice
    assert forced["tally"]["players"][0]["lands"]["france"]["cards"] == 8


def test_three_phones_on_one_map_row_keep_every_mark(client):
    url = new_game(client, "webofpower")

    def phone(seat):
        for column in range(seat, 12, 3):
            fields(client, url, {"path": ["monasteries", 0, column], "value": str(seat + 1), "base": "."})

    threads = [threading.Thread(target=phone, args=(seat,)) for seat in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert client.get(url).json()["tally"]["monasteries"][0] == "123" * 4


@pytest.mark.parametrize(
    "path, value",
    [
        ("players.9.name", "X"),  # no 10th player
        ("monasteries.0.40", "1"),  # no 41st column
        ("monasteries.0.4", "12"),  # a square holds one mark
        ("players.0.name.x", "y"),  # a name has no parts
        ("", 1),
        ([], 1),
        ([True], 1),
        (["a" * 100], 1),
    ],
)
def test_a_field_that_is_not_there_is_422_in_the_readers_language(client, path, value):
    url = new_game(client, "webofpower")
    for lang in ("en", "ja"):
        answer = fields(client, url, {"path": path, "value": value}, lang=lang)
        assert answer.status_code == 422, answer.text
        assert answer.json()["error"].isascii() == (lang == "en")


@settings(max_examples=40, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    steps=st.lists(
        st.tuples(
            st.sampled_from(["players.0.name", "players.1.ships", "players.2.lands.italy.cards", "players.1.dice"]),
            st.none() | st.integers(0, 9) | st.text(max_size=4) | st.lists(st.integers(1, 6), max_size=3),
        ),
        min_size=1,
        max_size=8,
    ),
    back=st.integers(0, 8),
)
def test_undo_restores_each_earlier_tally_exactly_and_redo_each_later(tmp_path_factory, steps, back):
    client = TestClient(
        create_app(Store(tmp_path_factory.mktemp("undo") / "pad.sqlite3")), base_url=LOCAL, headers=JSON_BODY
    )
    url = new_game(client, "kardinal")
    seen = [client.get(url).json()["tally"]]
    for path, value in steps:
        view = fields(client, url, {"path": path, "value": value}).json()
        if view["tally"] != seen[-1]:
            seen.append(view["tally"])
    back = min(back, len(seen) - 1)
    for count in range(1, back + 1):
        view = client.post(f"{url}/undo", json={}).json()
        assert view["tally"] == seen[-1 - count]
    if back == len(seen) - 1:
        assert client.post(f"{url}/undo?lang=ja", json={}).status_code == 409  # nothing before the start
    for count in range(back - 1, -1, -1):
        assert client.post(f"{url}/redo", json={}).json()["tally"] == seen[-1 - count]
    assert client.post(f"{url}/redo", json={}).status_code == 409


def test_a_change_after_undo_drops_the_redo_and_history_says_who_did_what(client):
    url = new_game(client, "court")
    fields(client, url, {"path": "players.0.name", "value": "Aki"}, player="Aki")
    fields(client, url, {"path": "players.1.name", "value": "Ben"}, player="Ben")
    client.post(f"{url}/undo", json={}, headers={"x-kkprint-player": "Aki"})
    view = fields(client, url, {"path": "queen", "value": "Aki"}, player="Aki").json()
    assert view["can_undo"] and not view["can_redo"]
    steps = client.get(f"{url}/history?lang=en").json()["steps"]
    assert [(s["by"], s["state"]) for s in steps] == [("Aki", "done"), ("Ben", "dropped"), ("Aki", "done")]
    assert steps[1]["undone_by"] == "Aki"
    assert steps[0]["changes"] == [{"label": "Who holds the Queen", "before": "–", "after": "Aki"}]
    assert steps[2]["changes"] == [{"label": "name of player 1", "before": "–", "after": "Aki"}]
    japanese = client.get(f"{url}/history?lang=ja").json()["steps"]
    assert (
        japanese[0]["changes"][0]["label"] != "Who holds the Queen" and not japanese[0]["changes"][0]["label"].isascii()
    )


def test_a_phones_player_name_is_kept_as_text(client):
    url = new_game(client, "court")
    hostile = "%3Cscript%3E%0A%E2%80%AEAki"  # <script>, a new line, an RTL override, percent-encoded
    fields(client, url, {"path": "queen", "value": "x"}, player=hostile)
    (step,) = client.get(f"{url}/history").json()["steps"]
    assert step["by"] == "<script>Aki"  # control characters gone, the rest kept as text


def test_finished_renamed_deleted_and_brought_back(client, store):
    url = new_game(client, "kardinal", example("kardinal"))
    view = client.patch(url, json={"name": "  Friday   night ", "finished": True}).json()
    assert view["name"] == "Friday night" and view["finished"]
    assert "Friday night" in client.get("/").text
    assert client.patch(url, json={"finished": "yes"}).status_code == 422
    assert client.request("DELETE", url, content=b"{}").status_code == 200
    assert "Friday night" not in client.get("/").text.split("Recently deleted")[0]
    assert client.put(url, json={"queen": "x"}).status_code == 410  # no change to a deleted game
    page = client.get(url.replace("/api/games/", "/g/") + "?lang=en")
    assert page.status_code == 200 and "This game was deleted." in page.text
    assert client.post(f"{url}/restore", json={}).json()["deleted"] is False
    assert "Friday night" in client.get("/").text.split("Recently deleted")[0]
    client.request("DELETE", url, content=b"{}")
    store.purge_deleted(now=store.get(url.rsplit("/", 1)[1]).deleted + 8 * 86400)  # a week later
    assert client.get(url).status_code == 404


def test_player_pages_and_leaderboards_count_finished_games(client):
    """Two finished K&K games and one in progress: the numbers on the pages are the scorers'."""
    first = example("kardinal")
    second = example("kardinal")
    second["players"][2]["minus_two"] = 0  # Chie does better the second time
    scores = []
    for tally in (first, second):
        url = new_game(client, "kardinal", tally)
        view = client.patch(url, json={"finished": True}).json()
        scores.append({p["name"]: p["total"] for p in view["result"]["players"]})
    new_game(client, "kardinal", first)  # not finished: not counted
    page = client.get("/players/chie?lang=en").text
    chie = [s["Chie"] for s in scores]
    assert 'data-figure="games">2<' in page and f'data-figure="best">{max(chie)}<' in page
    assert f'data-figure="average">{sum(chie) / 2:.1f}<' in page
    assert page.count('class="badge">in progress') == 1
    assert all(f'data-score="{s}"' in page for s in chie)  # the points of the chart over time
    board = client.get("/leaderboard/kardinal?lang=en").text
    aki = board.split('data-player="Aki"')[1].split("</tr>")[0]
    assert "<td>2</td><td>2</td><td>100</td>" in aki  # two games, two wins
    assert client.get("/players/nobody").status_code == 404
    assert client.get("/leaderboard/chess").status_code == 404


@pytest.mark.parametrize("game", sorted(SCORERS))
def test_each_chart_adds_up_to_the_score_a_winner_is_chosen_by(client, game):
    view = client.get(new_game(client, game, example(game)) + "?lang=en").json()
    result = view["result"]
    drawn = charts.bars(game, result)
    for bar, player in zip(drawn.bars, result["players"]):
        assert sum(s.value for s in bar.segments) == bar.total == charts.score(player)
        assert f'data-total="{bar.total}"' in view["html"]


def test_the_event_stream_sends_the_game_then_each_change(tmp_path):
    """A real `kkprint serve`: a listener hears the game at once, then a change made elsewhere."""
    import http.client

    port = free_port()
    server = start_score_pad(tmp_path, port)
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("POST", "/api/games", body=json.dumps({"game": "court"}), headers=JSON_BODY)
        game = json.loads(connection.getresponse().read())["id"]
        listener = socket.create_connection(("127.0.0.1", port), timeout=10)
        listener.sendall(f"GET /api/games/{game}/events?lang=en HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        received = _events(listener, 1)
        assert json.loads(received[0])["version"] == 1
        connection.request(
            "POST",
            f"/api/games/{game}/fields",
            body=json.dumps({"changes": [{"path": "queen", "value": "Ben"}]}),
            headers=JSON_BODY,
        )
        assert connection.getresponse().status == 200
        (pushed,) = _events(listener, 1)
        assert json.loads(pushed)["tally"]["queen"] == "Ben"
        listener.close()
    finally:
        server.terminate()
        server.wait(timeout=10)


def _events(sock, count):
    """The data of the next ``count`` "view" events on a raw event stream."""
    found, buffer = [], b""
    while len(found) < count:
        chunk = sock.recv(65536)
        assert chunk, "the stream closed"
        buffer += chunk
        while b"\r\n\r\n" in buffer or b"\n\n" in buffer:
            sep = b"\r\n\r\n" if b"\r\n\r\n" in buffer else b"\n\n"
            block, buffer = buffer.split(sep, 1)
            lines = block.decode("utf-8", "replace").splitlines()
            if "event: view" in lines:
                found.append("".join(line[6:] for line in lines if line.startswith("data: ")))
    return found


# -- issue 31: every request that can fail is a 4xx in the reader's language ----------------------


@pytest.mark.parametrize(
    "body",
    [b'{"players": ["\\ud800"]}', b'{"\\udfff": 1}', b'{"players": 1e400}', b'{"n": ' + b"9" * 5000 + b"}"],
)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_bodies_no_tally_can_hold_are_422(client, body, lang):
    url = new_game(client, "culdcept")
    for method, path in (
        ("PUT", url),
        ("POST", f"{url}/fields"),
        ("POST", "/api/score/culdcept"),
        ("POST", "/api/games"),
    ):
        answer = client.request(method, f"{path}?lang={lang}", content=body)
        assert answer.status_code == 422, (method, path, answer.text)
        assert answer.json()["error"].isascii() == (lang == "en")


@pytest.mark.parametrize("body", [{"game": ["kardinal"]}, {"game": {"a": 1}}, {"game": None}, ["kardinal"], "kardinal"])
def test_a_game_that_is_no_name_is_422(client, body):
    answer = client.post("/api/games?lang=ja", json=body)
    assert answer.status_code == 422 and not answer.json()["error"].isascii()


def test_a_kk_player_named_with_an_emoji_still_gets_the_chart(client):
    from pypdf import PdfReader

    tally = example("kardinal")
    tally["players"][0]["name"] = "👑😀 Aki"
    url = new_game(client, "kardinal", tally).replace("/api/games/", "/g/")
    answer = client.get(f"{url}/chart.pdf?lang=en")
    assert answer.status_code == 200 and answer.headers["content-type"] == "application/pdf"
    text = PdfReader(BytesIO(answer.content)).pages[0].extract_text()
    assert "□ Aki" in text and "39" in text  # the emoji that cannot be printed is a box, not a 500


def test_a_full_disk_is_507_in_one_log_line_and_nothing_half_written(client, store, caplog):
    url = new_game(client, "court")
    before = client.get(url).json()
    store._db.execute("PRAGMA max_page_count = " + str(store._db.execute("PRAGMA page_count").fetchone()[0]))
    big = {"path": "queen", "value": {f"{n:040}": "x" * 40 for n in range(600)}}  # (48 KB, no text over 40)
    with caplog.at_level("WARNING"):
        answer = fields(client, url, big, lang="ja")
    assert answer.status_code == 507 and not answer.json()["error"].isascii()
    assert [r.getMessage() for r in caplog.records] == [
        "kkprint: the saved-games file could not be written: database or disk is full"
    ]
    after = client.get(url).json()
    assert after["tally"] == before["tally"] and after["version"] == before["version"]
    assert client.get(f"{url}/history").json()["steps"] == []


def test_a_client_that_drops_mid_request_is_one_log_line(tmp_path):
    """A real server: a PUT that promises 1,000 bytes and leaves after 10 gets no traceback in
    the log, only one line; the server goes on answering."""
    import urllib.request

    port = free_port()
    server = start_score_pad(tmp_path, port)
    try:
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/games", data=b'{"game": "court"}', headers=JSON_BODY, method="POST"
        )
        game = json.loads(urllib.request.urlopen(request).read())["id"]
        for _ in range(3):
            dropped = socket.create_connection(("127.0.0.1", port))
            dropped.sendall(
                f"PUT /api/games/{game} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                'Content-Length: 1000\r\n\r\n{"queen": '.encode()
            )
            dropped.close()
        assert urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games/{game}", timeout=5).status == 200
    finally:
        server.terminate()
        log = server.communicate(timeout=10)[1]
    assert "Traceback" not in log and "Exception" not in log
    dropped_lines = [line for line in log.splitlines() if "left before sending its whole body" in line]
    assert 1 <= len(dropped_lines) <= 3


def test_a_guest_without_the_key_gets_a_page_in_their_language(store):
    lan = TestClient(create_app(store, lan=True, key="k" * 22), base_url=LOCAL, raise_server_exceptions=False)
    page = lan.get("/", headers={"accept-language": "ja"})
    assert page.status_code == 403 and page.headers["content-type"].startswith("text/html")
    assert '<html lang="ja">' in page.text and "QRコード" in page.text
    english = lan.get("/players", headers={"accept-language": "en"})
    assert english.status_code == 403 and "needs its QR code" in english.text
    api = lan.post("/api/games?lang=ja", json={"game": "court"}, headers=JSON_BODY)
    assert api.status_code == 403 and not api.json()["error"].isascii()


@pytest.mark.parametrize("path", ["/g/nope", "/players/nobody", "/leaderboard/chess", "/no/such/page"])
def test_pages_that_are_not_there_say_so_in_the_readers_language(client, path):
    page = client.get(path + "?lang=ja")
    assert page.status_code == 404 and '<html lang="ja">' in page.text
    assert "Not Found" not in page.text and "no such" not in page.text


# the tally fuzzer's bodies, and mappings with the new endpoints' own keys around them
BODIES = JSON | st.dictionaries(
    st.sampled_from(["changes", "path", "value", "base", "name", "finished", "count", "game"]), JSON, max_size=4
)


@settings(max_examples=150, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    game=st.sampled_from(sorted(SCORERS)),
    body=BODIES,
    path=st.lists(st.sampled_from(["players", "0", 1, "name", "monasteries", "x", 11]), max_size=5),
)
def test_no_body_on_the_new_endpoints_gives_a_500(tmp_path_factory, game, body, path):
    client = TestClient(
        create_app(Store(tmp_path_factory.mktemp("fuzz") / "pad.sqlite3")),
        base_url=LOCAL,
        headers=JSON_BODY,
        raise_server_exceptions=False,
    )
    url = new_game(client, game)
    for method, target, sent in (
        ("POST", f"{url}/fields", body),
        ("POST", f"{url}/fields", {"changes": [{"path": path, "value": body, "base": None}]}),
        ("PATCH", url, body),
        ("POST", f"{url}/undo", body),
        ("POST", f"{url}/redo", body),
        ("POST", f"{url}/players", body),
        ("POST", f"{url}/restore", body),
    ):
        answer = client.request(method, target, json=sent)
        assert answer.status_code < 500, (method, target, answer.text)
        assert "error" in answer.json() or answer.status_code == 200
    for page in (url.replace("/api/games/", "/g/"), f"{url}/history", "/", "/players"):
        assert client.get(page).status_code == 200, page


def test_the_database_keeps_history_and_players_in_sqlite(tmp_path):
    path = tmp_path / "pad.sqlite3"
    client = TestClient(create_app(Store(path)), base_url=LOCAL, headers=JSON_BODY)
    url = new_game(client, "culdcept")
    fields(client, url, {"path": "players.0", "value": "Aki"})
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT COUNT(*) FROM steps").fetchone()[0] == 2  # the start and the change
        assert db.execute("SELECT player, name FROM seats").fetchall() == [("aki", "Aki")]


def test_ctrl_c_with_phones_listening_stops_cleanly_with_130(tmp_path):
    """Open event streams do not hold the server up, nor end in an error line."""
    import signal
    import urllib.request

    port = free_port()
    server = start_score_pad(tmp_path, port)
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/games", data=b'{"game": "court"}', headers=JSON_BODY, method="POST"
    )
    game = json.loads(urllib.request.urlopen(request).read())["id"]
    listeners = []
    for _ in range(3):
        listener = socket.create_connection(("127.0.0.1", port), timeout=10)
        listener.sendall(f"GET /api/games/{game}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        _events(listener, 1)
        listeners.append(listener)
    server.send_signal(signal.SIGINT)
    log = server.communicate(timeout=15)[1]
    assert server.returncode == 130 and "every change is saved" in log
    assert "ERROR" not in log and "Traceback" not in log, log
    for listener in listeners:
        listener.close()


def test_a_kk_tally_naming_lands_in_any_language_fills_the_pages_rows(client):
    """The CLI's tally says France, フランス, Frankreich: saved with the lands' ids, the page's
    fields show them, and the scores are the same."""
    tally = example("kardinal")
    view = client.get(new_game(client, "kardinal", tally) + "?lang=en").json()
    assert [sorted(p["lands"]) for p in view["tally"]["players"]] == [
        ["castile", "denmark", "france", "saxony"],
        ["bavaria", "denmark", "france", "italy", "saxony"],
        ["england", "france", "hungary"],
    ]
    assert view["result"] == client.post("/api/score/kardinal?lang=en", json=tally).json()
    twice = {"players": [{"name": "A", "lands": {"France": {"cards": 1}, "france": {"cards": 2}}}]}
    view = client.put(new_game(client, "kardinal") + "?replace=1", json=twice).json()
    assert view["tally"]["players"][0]["lands"] == twice["players"][0]["lands"]  # left for the scorer to refuse


def test_a_culdcept_square_in_the_clis_one_card_form_is_the_pages_cards_field(client, store):
    """The CLI takes ``card: K`` for one card; the page's field is ``cards``. A tally put in that
    form shows in the field, and typing into it scores (it used to hold both keys and fail), as
    it does for a game saved in that form before the pad reshaped what it takes."""
    tally = example("culdcept")  # (its first square says {card: K, owner: Aki})
    url = new_game(client, "culdcept", tally)
    view = client.get(url).json()
    assert view["tally"]["squares"][0] == {"cards": ["K"], "owner": tally["players"][0]}
    assert view["result"] is not None
    changed = fields(client, url, {"path": "squares.0.cards", "value": ["8"], "base": ["K"]}).json()
    assert changed["tally"]["squares"][0] == {"cards": ["8"], "owner": tally["players"][0]} and changed["result"]
    merged = client.put(url, json={"squares": [{"card": "3"}]}).json()  # a part of a tally, in the CLI's form
    assert merged["tally"]["squares"][0] == {"cards": ["3"], "owner": tally["players"][0]} and merged["result"]

    older = new_game(client, "culdcept")
    game_id = older.rsplit("/", 1)[1]
    store.change(game_id, tally, replace=True)  # saved as it came, the way the pad once kept it
    assert client.get(older).json()["tally"]["squares"][0] == {"card": "K", "owner": tally["players"][0]}
    changed = fields(client, older, {"path": "squares.0.cards", "value": ["8"], "base": ["K"]}).json()
    assert changed["tally"]["squares"][0] == {"cards": ["8"], "owner": tally["players"][0]}
    assert changed["result"] is not None and changed["error"] is None


def test_a_text_longer_than_a_name_is_refused_naming_its_place(client):
    """Every text a tally holds is at most 40 characters (the pages' fields take no more): a
    script's name of 10,000 characters would make every page that shows it as wide."""
    url = new_game(client, "kardinal")
    long = "x" * 41
    for lang, place in (("en", "name of player 2"), ("ja", "プレイヤー2の名前")):
        answer = fields(client, url, {"path": "players.1.name", "value": long}, lang=lang)
        assert answer.status_code == 422 and answer.json()["error"] == f"{place}: " + (
            "at most 40 characters" if lang == "en" else "40文字までにしてください"
        )
    assert client.put(url, json={"players": [{"name": "y" * 10_000}]}).status_code == 422
    assert client.post("/api/games", json={"game": "court", "tally": {"players": [{"name": long}]}}).status_code == 422
    assert client.put(url, json={"players": [{"lands": {long: {"cards": 1}}}]}).status_code == 422  # a key too
    assert fields(client, url, {"path": "players.1.name", "value": "x" * 40}).status_code == 200
    assert client.get(url).json()["tally"]["players"][1]["name"] == "x" * 40


def test_the_history_names_every_field_in_words(client):
    """A field a script changed, deeper than the page's own (arms per kind), is named in words."""
    url = new_game(client, "kardinal", example("kardinal"))
    client.put(url, json={"players": [{"lands": {"france": {"arms": {"cross": 1, "fan": 2}}}}]})
    for lang, words in (("en", "Aki · France · arms · cross"), ("ja", "Aki · フランス · 紋章 · 十字")):
        labels = [change["label"] for change in client.get(f"{url}/history?lang={lang}").json()["steps"][0]["changes"]]
        assert words in labels and not any("." in label or "_" in label for label in labels)


def test_a_listener_that_goes_leaves_nothing_waiting():
    """A phone that reloads or leaves ends its listener by cancellation: no wait of it stays
    pending (each would be destroyed pending when collected, and Python says so on stderr)."""
    import asyncio
    import gc

    from kkprint.web.pad.live import Hub

    async def main():
        hub, stop = Hub(), asyncio.Event()
        heard = []

        async def listen():
            async for _ in hub.changes("g", stop):
                heard.append(1)

        async def heard_of(count):
            while len(heard) < count:
                await asyncio.sleep(0)

        listeners = [asyncio.create_task(listen()) for _ in range(3)]
        await asyncio.wait_for(heard_of(3), 5)  # the game as it is
        hub.publish("g")
        await asyncio.wait_for(heard_of(6), 5)
        assert hub.listening("g") == 3 and len(heard) == 6  # the game as it was, then the change
        for listener in listeners:
            listener.cancel()
        await asyncio.gather(*listeners, return_exceptions=True)
        await asyncio.sleep(0)
        left = asyncio.all_tasks() - {asyncio.current_task()}
        assert hub.listening("g") == 0 and not left, left
        last = asyncio.create_task(listen())
        await asyncio.wait_for(heard_of(7), 5)
        stop.set()  # the server stopping: the listener ends by itself, and its waits with it
        await asyncio.wait_for(last, 5)
        assert asyncio.all_tasks() == {asyncio.current_task()}

    asyncio.run(main())
    gc.collect()


@pytest.mark.parametrize("written", ["KARDINAL", "Kardinal", "kardinal"])
def test_a_game_id_is_taken_in_any_case_on_every_route_that_names_one(client, written):
    """The README: game ids may be written in any case. A leaderboard's page has one address
    (another case is sent there, the query kept); the API takes the id as it is written."""
    board = client.get(f"/leaderboard/{written}?lang=ja", follow_redirects=False)
    if written != "kardinal":
        assert board.status_code == 308 and board.headers["location"] == "/leaderboard/kardinal?lang=ja"
    page = client.get(f"/leaderboard/{written}?lang=en")
    assert page.status_code == 200 and str(page.url).endswith("/leaderboard/kardinal?lang=en")
    assert "Kardinal" in page.text
    scored = client.post(f"/api/score/{written}", json=example("kardinal"))
    assert (
        scored.status_code == 200
        and scored.json() == client.post("/api/score/kardinal", json=example("kardinal")).json()
    )
    made = client.post("/api/games", json={"game": written})
    assert made.status_code == 201 and made.json()["game"] == "kardinal"
    assert client.get(made.json()["url"]).status_code == 200
    assert client.get(f"/leaderboard/{written}x").status_code == 404  # (still no scorer of another name)
