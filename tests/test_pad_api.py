"""The score pad's JSON API and pages, through Starlette's test client (no browser): the same
answers as the CLI, 422 with the place for bad tallies, nothing lost across a restart, and no
body — however odd — that makes it answer 500."""

import json
import random

import pytest
from conftest import JSON_BODY, LOCAL, ROOT, free_port, run_cli, start_score_pad
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from kkprint.base.yamlio import load_yaml_file
from kkprint.scoring.scorers import SCORERS
from kkprint.web.pad.app import create_app
from kkprint.web.pad.store import Store, merge


def example(game):
    return load_yaml_file(ROOT / "examples" / SCORERS[game].example)


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game", sorted(SCORERS))
def test_api_answers_exactly_what_the_cli_prints(client, game, lang):
    cli = run_cli("scorer", game, str(ROOT / "examples" / SCORERS[game].example), "--json", "--lang", lang)
    assert cli.returncode == 0, cli.stderr
    answer = client.post(f"/api/score/{game}?lang={lang}", json=example(game))
    assert answer.status_code == 200
    assert answer.json() == json.loads(cli.stdout)


def test_bad_tally_is_422_naming_the_place(client):
    tally = example("kardinal")
    tally["players"][1]["lands"]["Denmark"] = {"cards": 9, "arms": 0}
    answer = client.post("/api/score/kardinal?lang=en", json=tally)
    assert answer.status_code == 422
    assert "player 'Ben', land 'Denmark'" in answer.json()["error"] and "only 4" in answer.json()["error"]
    answer = client.post("/api/score/kardinal?lang=ja", json=tally)
    assert "プレイヤー「Ben」、国「デンマーク」" in answer.json()["error"]  # (the land in the reader's words)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_tally_our_cards_refuse_asks_of_another_edition_without_naming_a_command_line_option(client, lang):
    """The pad cannot check against the sources alone: its refusal asks whether the cards are of
    another edition, and does not send the players to ``--check sources`` (the command line's
    own refusal does, tested in test_kardinal_prompt)."""
    aki = {"name": "Aki", "lands": {"Denmark": {"cards": 2, "arms": 2}}, "carriages": 2}  # (our cards show 1)
    tally = {"players": [aki, {"name": "Ben"}, {"name": "Chie"}]}
    error = client.post(f"/api/score/kardinal?lang={lang}", json=tally).json()["error"]
    assert ("another edition?" in error) if lang == "en" else ("別の版のカードですか" in error)
    assert "--check" not in error and "sources" not in error


def test_the_score_api_answers_in_the_language_the_browser_asks_for(client):
    """Without ``?lang``, the browser's Accept-Language; the place of a mistake is named in it
    too (it began with an English "body:"); a script that asks for nothing gets English."""
    tally = example("kardinal")
    tally["players"][1]["lands"]["Denmark"] = {"cards": 9, "arms": 0}
    japanese = client.post("/api/score/kardinal", json=tally, headers={"accept-language": "ja-JP,ja;q=0.9"})
    assert japanese.status_code == 422
    error = japanese.json()["error"]
    assert error.startswith("リクエストの本文: ") and "プレイヤー「Ben」" in error and "body" not in error
    english = client.post("/api/score/kardinal", json=tally)
    assert english.json()["error"].startswith("the request's body: player 'Ben'")
    scored = client.post("/api/score/kardinal", json=example("kardinal"), headers={"accept-language": "ja"})
    cli = run_cli("scorer", "kardinal", str(ROOT / "examples" / SCORERS["kardinal"].example), "--json", "--lang", "ja")
    assert scored.json() == json.loads(cli.stdout)


def test_unknown_game_and_not_json(client):
    assert client.post("/api/score/chess", json={}).status_code == 404
    answer = client.post("/api/score/kardinal", content=b"{not json", headers={"content-type": "application/json"})
    assert answer.status_code == 422 and "not JSON" in answer.json()["error"]
    answer = client.post("/api/score/kardinal", content=b"NaN", headers={"content-type": "application/json"})
    assert answer.status_code == 422


def test_bodies_are_limited_in_size(client):
    huge = b'{"players": "' + b"x" * (70 * 1024) + b'"}'
    assert client.post("/api/score/kardinal", content=huge).status_code == 413
    assert client.post("/api/games", content=huge).status_code == 413


def test_saved_game_survives_a_restart_and_exports_the_cli_tally(tmp_path):
    path = tmp_path / "pad.sqlite3"
    first = TestClient(create_app(Store(path)), base_url=LOCAL, headers=JSON_BODY)
    made = first.post("/api/games", json={"game": "kardinal"}).json()
    assert made["url"] == f"/g/{made['id']}" and len(made["id"]) >= 20  # the id is an unguessable token
    changed = first.put(f"/api/games/{made['id']}", json=example("kardinal")).json()
    assert changed["result"]["winners"] == ["Aki"] and changed["version"] == 2
    again = TestClient(create_app(Store(path)), base_url=LOCAL, headers=JSON_BODY)  # a new server on the same database
    view = again.get(f"/api/games/{made['id']}?lang=en").json()
    assert view["result"]["winners"] == ["Aki"] and view["tally"]["players"][0]["name"] == "Aki"
    exported = again.get(f"/g/{made['id']}/tally.yaml")
    assert exported.status_code == 200
    saved = tmp_path / "exported.yaml"
    saved.write_text(exported.text, encoding="utf-8")
    cli = run_cli("scorer", "kardinal", str(saved), "--json")
    assert cli.returncode == 0 and json.loads(cli.stdout)["winners"] == ["Aki"]
    assert made["id"] in again.get("/").text  # listed among the saved games


def test_parts_from_two_phones_merge(client):
    made = client.post("/api/games", json={"game": "kardinal"}).json()
    url = f"/api/games/{made['id']}"
    client.put(url, json={"players": [{"name": "Aki"}, None, None]})
    client.put(url, json={"players": [None, {"name": "Ben", "lands": {"france": {"cards": 2, "arms": 1}}}, None]})
    client.put(url, json={"players": [{"lands": {"france": {"cards": 5, "arms": 2}}}, None, {"name": "Chie"}]})
    view = client.get(url + "?lang=en").json()
    names = [p["name"] for p in view["tally"]["players"]]
    assert names == ["Aki", "Ben", "Chie"]
    assert view["result"]["players"][0]["lands"]["france"]["land"] == 8
    assert view["result"]["players"][1]["lands"]["france"]["land"] == 5


def test_a_half_filled_game_is_saved_with_its_problem_pointing_at_the_field(client):
    made = client.post("/api/games", json={"game": "kardinal"}).json()
    view = client.put(
        f"/api/games/{made['id']}?lang=ja",
        json={"players": [{"name": "A", "lands": {"france": {"cards": 9}}}, {"name": "B"}, {"name": "C"}]},
    ).json()
    assert view["result"] is None and view["tally"]["players"][0]["lands"]["france"]["cards"] == 9
    assert view["error"]["path"] == ["players", "0", "lands", "france", "cards"]
    assert "山札には8枚しかありません" in view["error"]["message"]


def test_players_can_be_added_and_removed(client):
    made = client.post("/api/games", json={"game": "webofpower-board"}).json()
    url = f"/api/games/{made['id']}"
    view = client.post(url + "/players", json={"count": 5}).json()
    assert len(view["tally"]["players"]) == 5 and all(
        len(r["monasteries"]) == 5 for r in view["tally"]["regions"].values()
    )
    view = client.post(url + "/players", json={"count": 99}).json()
    assert len(view["tally"]["players"]) == 5  # the game's own limit
    assert client.post(url + "/players", json={"count": "x"}).status_code == 422


@pytest.mark.parametrize("game", sorted(SCORERS))
def test_every_game_has_a_page_in_both_languages(client, game):
    made = client.post("/api/games", json={"game": game}).json()
    for lang, word in (("ja", "得点表"), ("en", "Score pad")):
        page = client.get(f"/g/{made['id']}?lang={lang}")
        assert page.status_code == 200 and word in page.text
        assert "http://" not in page.text.replace("http://www.w3.org", "")  # nothing from the internet


def test_the_filled_chart_downloads(client):
    from io import BytesIO

    from pypdf import PdfReader

    made = client.post("/api/games", json={"game": "kardinal"}).json()
    client.put(f"/api/games/{made['id']}", json=example("kardinal"))
    answer = client.get(f"/g/{made['id']}/chart.pdf?lang=en&paper=letter")
    assert answer.status_code == 200 and answer.headers["content-type"] == "application/pdf"
    text = PdfReader(BytesIO(answer.content)).pages[0].extract_text()
    assert all(value in text for value in ("Aki", "Ben", "Chie", "39", "32", "16"))


def test_lan_mode_needs_the_key_for_the_list_but_not_for_a_game(store):
    lan = TestClient(
        create_app(store, lan=True, key="k" * 22), base_url=LOCAL, headers=JSON_BODY, raise_server_exceptions=False
    )
    assert lan.get("/").status_code == 403
    assert lan.post("/api/games", json={"game": "court"}).status_code == 403
    assert lan.get("/?key=wrong").status_code == 403
    assert lan.get("/?key=" + "k" * 22).status_code == 200  # and the cookie it sets opens the rest
    made = lan.post("/api/games", json={"game": "court"}).json()
    stranger = TestClient(create_app(store, lan=True, key="k" * 22), base_url=LOCAL, headers=JSON_BODY)
    assert stranger.get(f"/g/{made['id']}").status_code == 200  # the game's address is its token
    assert stranger.get("/g/not-a-game").status_code == 404


def test_merge_rules():
    assert merge({"a": 1, "b": 2}, {"b": None, "c": 3}) == {"a": 1, "c": 3}
    assert merge({"l": [1, 2, 3]}, {"l": [None, 5, None]}) == {"l": [1, 5, 3]}
    assert merge({"dice": [6, 6, 6, 2]}, {"dice": [5, 5]}) == {"dice": [5, 5]}  # plain values replace
    assert merge({"p": [{"n": "a"}]}, {"p": [None, {"n": "b"}]}) == {"p": [{"n": "a"}, {"n": "b"}]}


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**12), 10**12)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=6)
        | st.dictionaries(
            st.sampled_from(
                [
                    "players",
                    "name",
                    "lands",
                    "France",
                    "cards",
                    "arms",
                    "ships",
                    "phase",
                    "monasteries",
                    "cardinals",
                    "interim",
                    "regions",
                    "alliances",
                    "roads",
                    "dice",
                    "queen",
                    "squares",
                    "owner",
                    "card",
                    "x",
                    "0",
                ]
            )
            | st.text(max_size=8),
            inner,
            max_size=6,
        )
    ),
    max_leaves=40,
)


@settings(max_examples=150, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
@given(game=st.sampled_from(sorted(SCORERS)), body=JSON)
def test_no_body_gives_a_500(tmp_path_factory, game, body):
    client = TestClient(
        create_app(Store(tmp_path_factory.mktemp("fuzz") / "pad.sqlite3")),
        base_url=LOCAL,
        headers=JSON_BODY,
        raise_server_exceptions=False,
    )
    scored = client.post(f"/api/score/{game}", json=body)
    assert scored.status_code in (200, 422), scored.text
    assert "Traceback" not in scored.text
    made = client.post("/api/games", json={"game": game}).json()
    changed = client.put(f"/api/games/{made['id']}", json=body)
    assert changed.status_code in (200, 413, 422), changed.text
    if changed.status_code == 200:
        page = client.get(f"/g/{made['id']}")
        assert page.status_code == 200, page.text


def test_random_bytes_never_give_a_500(client):
    made = client.post("/api/games", json={"game": "culdcept"}).json()
    rng = random.Random(7)
    for _ in range(200):
        body = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200)))
        for method, url in (
            ("POST", "/api/score/culdcept"),
            ("PUT", f"/api/games/{made['id']}"),
            ("POST", "/api/games"),
            ("POST", f"/api/games/{made['id']}/players"),
        ):
            answer = client.request(method, url, content=body, headers={"content-type": "application/json"})
            assert answer.status_code in (200, 201, 413, 422), (answer.status_code, answer.text)


@pytest.mark.parametrize("game", sorted(SCORERS))
def test_a_new_game_only_lacks_names(client, game):
    """A blank game is the scorer's own format: once the names (and Court's Queen) are typed, it scores."""
    from kkprint.web.pad import forms

    made = client.post("/api/games", json={"game": game}).json()
    tally = made["tally"]
    low = forms.PLAYER_RANGE[game][0]
    names = ["Aki", "Ben", "Chie", "Dan", "Eri"][:low]
    tally["players"] = [{**p, "name": n} if isinstance(p, dict) else n for p, n in zip(tally["players"], names)]
    if game == "court":  # (and the Queen's holder: the final round always has one)
        tally["players"] = [{"name": n, "dice": [1, 2, 3]} for n in names]
        tally["queen"] = names[-1]
    view = client.put(f"/api/games/{made['id']}?replace=1&lang=en", json=tally).json()
    assert view["error"] is None, view["error"]
    assert view["result"]["game"] == game


@pytest.mark.parametrize(
    "game, patch, path",
    [
        (
            "court",
            {"players": [{"name": "A", "dice": [7, 1, 1]}, {"name": "B", "dice": [1, 1, 1]}]},
            ["players", "0", "dice"],
        ),
        ("culdcept", {"players": ["A", "B"], "squares": [{"cards": ["Z"], "owner": "A"}]}, ["squares", "0", "cards"]),
        ("webofpower-board", {"players": ["A", "B", "C"], "roads": [None, "x", None]}, ["roads", "1"]),
        ("webofpower", {"players": ["A", "B", "C"], "cardinals": {"C": [None, 9, None]}}, ["cardinals", "C", "1"]),
    ],
)
def test_every_game_points_a_mistake_at_its_field(client, game, patch, path):
    made = client.post("/api/games", json={"game": game}).json()
    view = client.put(f"/api/games/{made['id']}?lang=en", json=patch).json()
    assert view["error"]["path"] == path, view["error"]


def test_serve_lan_shows_a_qr_code_and_the_key_opens_the_list(tmp_path):
    """`kkprint serve --lan` as a user starts it: the address with its key, a QR code of it."""
    import urllib.error
    import urllib.request

    port = free_port()
    server = start_score_pad(tmp_path, port, "--lan")
    try:
        server.terminate()
        shown = server.communicate(timeout=15)[1]
        address = next(line.split(": ", 1)[1].strip() for line in shown.splitlines() if line.startswith("Score pad:"))
        key = address.split("?key=")[1]
        assert len(key) >= 20 and any(block in shown for block in "█▀▄")  # the QR code, drawn in blocks
        assert (tmp_path / "scorepad-key").read_text().strip() == key  # the same address after a restart
        server = start_score_pad(tmp_path, port, "--lan")
        local = f"http://127.0.0.1:{port}"
        assert urllib.request.urlopen(f"{local}/?key={key}", timeout=5).status == 200
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"{local}/", timeout=5)
        assert refused.value.code == 403
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.mark.parametrize("route", ["192.0.2.7", None])
def test_the_lan_address_is_where_the_network_is_reached_from(monkeypatch, route):
    """`serve --lan` shows this machine's address on the local network: the one a datagram to
    10.255.255.255 would leave from (the routing table says; nothing is sent), or 127.0.0.1
    where no route leads there. The browser test gives the pad a fake address in its place, so
    this asks the question itself, of a stand-in socket."""
    import socket
    from types import SimpleNamespace

    from kkprint.web.pad import serve

    class Probe:
        def __init__(self, family, kind):
            assert (family, kind) == (socket.AF_INET, socket.SOCK_DGRAM)

        def __enter__(self):
            return self

        def __exit__(self, *exception):
            return False

        def connect(self, address):
            if route is None:
                raise OSError(101, "Network is unreachable")

        def getsockname(self):
            return (route, 40000)

    monkeypatch.setattr(
        serve, "socket", SimpleNamespace(socket=Probe, AF_INET=socket.AF_INET, SOCK_DGRAM=socket.SOCK_DGRAM)
    )
    assert serve.lan_address() == (route or "127.0.0.1")


def test_a_port_in_use_is_one_line_and_exit_2(tmp_path, monkeypatch):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        monkeypatch.setenv("KKPRINT_DATA_DIR", str(tmp_path))
        monkeypatch.setenv("KKPRINT_LANG", "en")
        result = run_cli("serve", "--port", str(port))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert (
        result.stderr.strip() == f"kkprint: error: serve: port {port} cannot be used (another program is using it); "
        "choose another with --port"
    )


def test_ctrl_c_stops_the_score_pad_with_130(tmp_path):
    import signal

    server = start_score_pad(tmp_path, free_port())
    server.send_signal(signal.SIGINT)
    err = server.communicate(timeout=15)[1]
    assert server.returncode == 130 and "every change is saved" in err and "Traceback" not in err


def test_a_damaged_saved_games_file_is_one_line(tmp_path, monkeypatch):
    (tmp_path / "scorepad.sqlite3").write_bytes(b"not a database at all" * 50)
    monkeypatch.setenv("KKPRINT_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("KKPRINT_LANG", "en")
    result = run_cli("serve", "--port", str(free_port()))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.strip().endswith(
        "scorepad.sqlite3: is not a saved-games database; move it away to start afresh"
    )


SECURITY_HEADERS = ("content-security-policy", "x-content-type-options", "referrer-policy")


@pytest.mark.parametrize("path", ["/", "/static/pad/pad.js", "/api/score/court", "/no/such/page"])
def test_every_answer_carries_the_security_headers(client, path):
    answer = client.get(path)
    assert all(name in answer.headers for name in SECURITY_HEADERS), answer.headers
    policy = answer.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy and "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert answer.headers["x-content-type-options"] == "nosniff" and answer.headers["referrer-policy"] == "no-referrer"


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example", "192.168.1.20"])
def test_a_foreign_host_is_refused(store, host):
    """A DNS-rebinding page reaches the socket but names its own host: nothing is read or changed."""
    client = TestClient(create_app(store), base_url=f"http://{host}", headers=JSON_BODY)
    for answer in (client.get("/"), client.get("/api/games/x"), client.post("/api/games", json={"game": "court"})):
        assert answer.status_code == 421 and "error" in answer.json()
        assert all(name in answer.headers for name in SECURITY_HEADERS)
    assert store.recent() == []


def test_the_lan_address_is_answered_when_given(store):
    client = TestClient(
        create_app(store, hosts=("127.0.0.1", "192.168.1.20")), base_url="http://192.168.1.20:8000", headers=JSON_BODY
    )
    assert client.get("/").status_code == 200
    for local in ("http://localhost:8000", "http://[::1]:8000"):
        assert TestClient(create_app(store), base_url=local).get("/").status_code == 200


def test_writes_need_json_from_the_pads_own_origin(client, store):
    """A foreign page can send a form or text/plain without asking the pad: both are refused,
    and a JSON request whose browser says it comes from elsewhere is refused too."""
    made = client.post("/api/games", json={"game": "court"}).json()
    game = f"/api/games/{made['id']}"
    form = client.post(
        "/api/games", content=b"game=court", headers={"content-type": "application/x-www-form-urlencoded"}
    )
    assert form.status_code == 415
    text = client.put(game, content=b'{"queen": "x"}', headers={"content-type": "text/plain"})
    assert text.status_code == 415
    foreign = client.put(game, json={"queen": "x"}, headers={"origin": "http://evil.example"})
    assert foreign.status_code == 403
    cross_site = client.put(game, json={"queen": "x"}, headers={"sec-fetch-site": "cross-site"})
    assert cross_site.status_code == 403
    assert client.get(game).json()["tally"].get("queen") != "x"  # none of them changed anything
    own = client.put(game, json={"queen": "x"}, headers={"origin": "http://127.0.0.1", "sec-fetch-site": "same-origin"})
    assert own.status_code == 200 and own.json()["tally"]["queen"] == "x"
    assert len(store.recent()) == 1


def test_refusals_are_in_the_readers_language(store):
    client = TestClient(create_app(store), base_url="http://evil.example", headers={"accept-language": "ja"})
    assert not client.get("/").json()["error"].isascii()


def test_the_saved_games_file_is_the_users_alone(tmp_path):
    import stat

    path = tmp_path / "pad.sqlite3"
    Store(path).create("court", {"players": []})
    for part in tmp_path.iterdir():
        assert stat.S_IMODE(part.stat().st_mode) == 0o600, part


def test_the_page_holds_the_regions_in_the_order_the_api_gives_them(client):
    """A Web of Power board's regions renamed out of alphabetical order (Zeeland, then Aragon):
    the state a page is sent with lists them as the API and the pushed updates do. Sorted, the
    page took every update for a game of another shape and reloaded itself, ten times a second."""
    import re

    made = client.post("/api/games", json={"game": "webofpower-board"}).json()
    tally = made["tally"]
    first, second, *rest = list(tally["regions"])
    tally["regions"] = {
        **{name: tally["regions"][name] for name in rest},
        "Zeeland": tally["regions"][first],
        "Aragon": tally["regions"][second],
    }
    answer = client.put(f"/api/games/{made['id']}?replace=1", json=tally).json()
    order = list(answer["tally"]["regions"])
    assert order[-2:] == ["Zeeland", "Aragon"]
    assert list(client.get(f"/api/games/{made['id']}").json()["tally"]["regions"]) == order
    page = client.get(f"/g/{made['id']}").text
    state = re.search(r'<script id="state" type="application/json">(.*?)</script>', page, re.S)
    assert state is not None
    assert list(json.loads(state.group(1))["tally"]["regions"]) == order


def test_sigint_stops_a_pad_started_where_ctrl_c_is_ignored_alike(tmp_path):
    """A script's background job starts with SIGINT ignored; uvicorn stops on it all the same and
    then raises it again to no effect: the pad said nothing and ended with 0, as if it had not
    been stopped. It says it stopped, with 130, as after a Ctrl-C at a terminal."""
    import signal

    def ignoring_ctrl_c() -> None:  # (as `cmd &` in a script starts it)
        signal.signal(signal.SIGINT, signal.SIG_IGN)

    server = start_score_pad(tmp_path, free_port(), preexec_fn=ignoring_ctrl_c)
    try:
        server.send_signal(signal.SIGINT)
        said = server.communicate(timeout=15)[1]
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(timeout=10)
    assert server.returncode == 130 and "every change is saved" in said and "Traceback" not in said, said


LAN = "http://192.0.2.7:8765"  # this machine on the table's Wi-Fi, as `serve --lan` shows it in the QR code


def lan_pad(store, cookies=None):
    app = create_app(store, lan=True, key="k" * 22, hosts=("127.0.0.1", "localhost", "192.0.2.7"), address=LAN)
    return TestClient(app, base_url=LOCAL, headers=JSON_BODY, cookies=cookies)


def test_under_lan_a_games_page_gives_the_address_the_phones_reach(store):
    """Opened on the host as 127.0.0.1, the game's page said http://127.0.0.1:…/g/ID (the
    browser's own address), which no phone can open: it gives the address of the QR code."""
    host = lan_pad(store)
    assert host.get("/?key=" + "k" * 22).status_code == 200
    made = host.post("/api/games", json={"game": "kardinal"}).json()
    page = host.get(made["url"]).text
    assert f'<code id="address">{LAN}/g/{made["id"]}</code>' in page and "open it on the other phones" in page
    alone = TestClient(create_app(store), base_url=LOCAL, headers=JSON_BODY)  # (without --lan: the browser's own)
    page = alone.get(made["url"] + "?lang=en").text
    assert '<code id="address"></code>' in page
    assert "open it on the other phones" not in page  # (127.0.0.1: this computer only)
    assert 'phones reach it when the pad runs with <code class="option">--lan</code>' in page


def _links(html):
    import re

    return sorted({href for href in re.findall(r'href="([^"]+)"', html) if href.startswith(("/", "?"))})


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_under_lan_a_phone_given_a_games_address_is_linked_only_where_it_may_go(store, lang):
    """SPEC §5: with --lan the list of games, the players' pages and the leaderboards need the
    key of the QR code (a player's page links to every game they played: it would give away
    those games' addresses), and a game's own address, its token, opens that game alone. So a
    phone that was given only a game's address is shown no link that would answer it 403: its
    page, the scores pushed to it and the answers to its changes name the players without
    links; a phone with the key has them, and a stranger without either still sees nothing."""
    host = lan_pad(store)
    host.get("/?key=" + "k" * 22)
    made = host.post("/api/games", json={"game": "kardinal"}).json()
    host.put(f"/api/games/{made['id']}?replace=1", json=example("kardinal"))
    guest = lan_pad(store)  # no key: only the game's address
    page = guest.get(f"{made['url']}?lang={lang}")
    assert page.status_code == 200 and "Aki" in page.text
    for href in _links(page.text):
        assert guest.get(href if href.startswith("/") else made["url"] + href).status_code != 403, href
    for answer in (
        guest.get(f"/api/games/{made['id']}?lang={lang}").json(),
        guest.post(
            f"/api/games/{made['id']}/fields?lang={lang}", json={"changes": [{"path": "players.0.ships", "value": 4}]}
        ).json(),
    ):
        assert "Aki" in answer["html"] and "/players/" not in answer["html"]
    linked = _links(host.get(f"{made['url']}?lang={lang}").text)
    assert {"/", "/players", "/players/aki"} <= set(linked)
    assert all(host.get(href).status_code == 200 for href in linked if href.startswith("/players"))
    assert "/players/" in host.get(f"/api/games/{made['id']}?lang={lang}").json()["html"]
    for closed in ("/", "/players", "/players/aki", "/leaderboard/kardinal", "/api/games/"):
        assert guest.get(closed).status_code == 403, closed  # the key's pages stay the key's
    assert guest.get("/?key=%C3%A9").status_code == 403  # (a key that is not ASCII was a 500)


def test_a_result_cell_never_breaks_before_its_arrow_and_keeps_names_text():
    """A Japanese cell whose last phrase BudouX ends before " → " got a break opportunity right
    before the arrow (``）<wbr>\u00a0→``); a name with markup in it stays text in every language."""
    from kkprint.web.pad.app import _line_breaks

    for lang in ("ja", "en"):
        cell = str(_line_breaks(lang)("国（山札の枚数） → 3"))
        assert "<wbr>\u00a0→" not in cell and "\u00a0→ 3" in cell, cell
        named = str(_line_breaks(lang)("山田<img src=x onerror=alert(1)> → 3"))
        assert "<img" not in named and "&lt;img" in named, named
