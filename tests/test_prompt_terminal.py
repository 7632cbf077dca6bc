"""The K&K prompt in a pseudo-terminal, as a person meets it: arrow keys edit a line (readline),
Ctrl-C keeps what was typed and exits 130, --resume goes on from there, and corrections are
taken in Japanese."""

import json
import os
import subprocess
import sys

import pytest
from conftest import ROOT

pexpect = pytest.importorskip("pexpect", reason="pexpect drives the pseudo-terminal")

LEFT = "\x1b[D"


def spawn(*args, env_extra=None):
    env = {**os.environ, "KKPRINT_LANG": "ja", "TERM": "xterm", **(env_extra or {})}
    return pexpect.spawn(
        sys.executable,
        ["-m", "kkprint", "scorer", "kardinal", *args],
        cwd=str(ROOT),
        env=env,
        encoding="utf-8",
        timeout=30,
        dimensions=(40, 200),
    )


def answer_names(child, names):
    for name in names:
        child.expect("プレイヤー")
        child.sendline(name)
    child.expect("プレイヤー")
    child.sendline("")


def test_arrow_keys_edit_and_ctrl_c_saves_then_resume_finishes(tmp_path, kardinal_game):
    saved = tmp_path / "tally.yaml"
    child = spawn("--save", str(saved))
    child.expect("プレイヤー")
    child.send("AkX" + LEFT + LEFT + "i" + "\r")  # "AkX", two steps left, "i" inserted after the A: "AikX"
    answer_names(child, ["Ben", "Chie"])
    child.expect(r"フランス \(8\)")
    child.sendline("5 4")
    child.expect(r"フランス \(8\)")
    child.sendline("2 3")
    child.expect(r"フランス \(8\)")
    child.sendintr()  # Ctrl-C in the middle of the table
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    text = saved.read_text(encoding="utf-8")
    assert text.startswith("# kkprint tally")
    import yaml

    data = yaml.safe_load(text)
    names = [p["name"] for p in data["players"]]
    assert names[0] == "AikX" and names[1:] == ["Ben", "Chie"]  # the arrow keys moved the cursor, not into the name
    assert data["players"][1]["lands"]["フランス"]["cards"] == 2  # lands by their names, counts as numbers

    child = spawn("--resume", str(saved), "--json")
    child.expect(r"フランス \(8\)")  # Chie's France: the first question not answered yet
    child.sendline("1")
    lands_left = len(kardinal_game.lands) * 3 - 3
    for _ in range(lands_left + 9):
        child.expect(": ")
        child.sendline("")
    child.expect("訂正")
    child.sendline("AikX 船 0")  # a correction in Japanese words
    child.expect("訂正")
    child.sendline("Ben フランス 3 2")
    child.expect("訂正")
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    output = child.before
    result = json.loads(output[output.index("{") :])
    assert [p["name"] for p in result["players"]] == ["AikX", "Ben", "Chie"]
    assert result["players"][0]["lands"]["france"]["land"] == 8 and result["players"][1]["lands"]["france"]["land"] == 5


def test_control_characters_are_refused_where_typed(tmp_path):
    child = spawn("--save", str(tmp_path / "t.yaml"))
    child.expect("プレイヤー")
    child.send("Aki\x16\x07\r")  # Ctrl-V, then a bell: readline inserts it into the name as typed
    child.expect("制御文字")
    child.expect("プレイヤー1")
    child.sendline("Aki")
    child.expect("プレイヤー2")
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130


def test_ctrl_c_without_save_keeps_the_tally_in_the_data_folder(tmp_path):
    data_dir = tmp_path / "data"
    child = spawn(env_extra={"KKPRINT_DATA_DIR": str(data_dir)})
    answer_names(child, ["Aki", "Ben", "Chie"])
    child.expect(r"フランス \(8\)")
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    kept = list((data_dir / "unfinished").glob("kardinal-*.yaml"))
    assert len(kept) == 1 and "--resume" in child.before and str(kept[0]) in child.before.replace("\r\n", "")


@pytest.mark.parametrize(
    "lang, said", [("en", "interrupted; nothing was saved"), ("ja", "中断しました。何も保存していません")]
)
def test_ctrl_c_among_the_names_says_nothing_was_saved(tmp_path, lang, said):
    """Ctrl-C after two names said "interrupted before anything was typed": the names were
    typed, but a tally is saved only once the list of names ends."""
    data_dir = tmp_path / "data"
    child = spawn("--lang", lang, env_extra={"KKPRINT_DATA_DIR": str(data_dir)})
    for name in ("Aki", "Ben"):
        child.expect(": ")
        child.sendline(name)
    child.expect(": ")
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert child.before.strip().splitlines()[-1].strip() == said, child.before
    assert not data_dir.exists() or not any(data_dir.rglob("*.yaml"))


def test_tables_are_drawn_with_colour_at_a_terminal_and_plain_in_a_pipe():
    example = str(ROOT / "examples" / "webofpower-state.yaml")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "kkprint", "scorer", "webofpower", example, "--lang", "en"],
        cwd=str(ROOT),
        env={**os.environ, "TERM": "xterm-256color"},
        encoding="utf-8",
        timeout=30,
        dimensions=(40, 160),
    )
    child.expect(pexpect.EOF)
    shown = child.before
    assert "\x1b[" in shown and "Winner: Ben" in shown  # rich: bold, the winner in colour
    piped = subprocess.run(
        [sys.executable, "-m", "kkprint", "scorer", "webofpower", example, "--lang", "en"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert "\x1b[" not in piped.stdout and "Winner: Ben" in piped.stdout


def test_ctrl_d_keeps_the_answers_and_says_where(tmp_path):
    """Ctrl-D half-way is an error (exit 2), but not a loss: the message names the file the
    answers are in and the command that goes on from it, and the file holds them (and says how
    to go on, in Japanese); Ctrl-D at once after --resume names that file too."""
    saved = tmp_path / "tally.yaml"
    child = spawn("--save", str(saved))
    answer_names(child, ["Aki", "Ben", "Chie"])
    child.expect(r"フランス \(8\)")
    child.sendline("5 4")
    child.expect(r"フランス \(8\)")
    child.sendeof()  # Ctrl-D at Ben's France
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
    said = " ".join(child.before.split())
    assert f"入力した分は {saved} に保存しました" in said and f"--resume {saved}" in said, said
    import yaml

    data = yaml.safe_load(saved.read_text(encoding="utf-8"))
    assert data["players"][0]["lands"]["フランス"] == {"cards": 5, "arms": 4}
    told = saved.read_text(encoding="utf-8").splitlines()[2]  # (the file says so too, in the reader's language)
    assert told == f"# まだ入力の途中です。続けるには: kkprint scorer kardinal --resume {saved}", told
    again = spawn("--resume", str(saved))  # Ctrl-D at once: nothing new typed, the file still named
    again.expect(r"フランス \(8\)")
    again.sendeof()
    again.expect(pexpect.EOF)
    again.close()
    said = " ".join(again.before.split())
    assert again.exitstatus == 2 and f"入力した分は {saved} に保存しました" in said, said
