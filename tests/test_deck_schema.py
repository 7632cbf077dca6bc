"""`kkprint schema` checks deck files as their authors write them: every example, template and the
starter pass, so do partial overrides, expressions and extends; typos and wrong kinds do not."""

from __future__ import annotations

import json

import jsonschema
import pytest
import yaml
from conftest import ROOT, run_cli

from kkprint.base.models import adapter
from kkprint.base.yamlio import load_yaml_file
from kkprint.deck.model import SheetFile


@pytest.fixture(scope="module")
def schema() -> dict:
    result = run_cli("schema")
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    jsonschema.Draft202012Validator.check_schema(found)
    return found


def problems(schema: dict, data) -> list[str]:
    validator = jsonschema.Draft202012Validator(schema)
    return [f"{list(e.absolute_path)}: {e.message[:120]}" for e in validator.iter_errors(json.loads(json.dumps(data)))]


DECKS = sorted((ROOT / "examples" / "decks").glob("*/*.yaml"))
TEMPLATES = sorted((ROOT / "templates").glob("*.yaml"))


@pytest.mark.parametrize("path", DECKS + TEMPLATES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_example_and_template_passes_as_written(schema, path):
    assert problems(schema, load_yaml_file(path)) == []


def test_the_starter_passes_as_written(schema, tmp_path):
    assert run_cli("new", "deck", "mine", "--dir", str(tmp_path)).returncode == 0
    assert problems(schema, load_yaml_file(tmp_path / "mine.yaml")) == []


@pytest.mark.parametrize("path", sorted((ROOT / "templates" / "sheets").glob("*.yaml")), ids=lambda p: p.stem)
def test_every_sheet_layout_passes_its_own_schema(path):
    assert problems(adapter(SheetFile).json_schema(), load_yaml_file(path)) == []


VALID = {
    "extends without name or card": "extends: poker\nlayout: {title: {x: 3}}\n",
    "a region overriding only x": "extends: poker\nlayout: {title: {x: 3}, footer: {text: '${edition}'}}\n",
    "a region removed and a key removed": "extends: poker\nlayout: {footer: null, title: {field: null, text: hi}}\n",
    "numbers from expressions": (
        "name: d\ncard: {size: poker}\nlayout:\n"
        "  r: {type: shape, x: '${wx}mm', y: '${10 + row * 6}', w: 10, h: '${h}', rotation: '${turn}',"
        " opacity: '${0.5}', stroke_width: '${s}', dash: [1, '${gap}'], radius: '${r}', shape: '${form}',"
        " points: [[0, 0], ['${w}', 0]], fill: {gradient: linear, from: '#ffffff', to: '${c}', angle: '${a}'}}\n"
        "  t: {type: text, x: 1, y: 1, w: 9, h: 9, text: '${hp:03d}', size: '${14 if len(name) < 12 else 10}',"
        " min_size: '${m}', leading: '${l}', align: '${al}', max_lines: '${n}'}\n"
    ),
    "regions extending regions": (
        "name: d\ncard: {size: poker}\nlayout:\n"
        "  a: {type: text, x: 1, y: 1, w: 9, h: 9, text: a}\n  b: {extends: a, dx: 10, dy: '${step}'}\n"
    ),
    "backs extending fronts, both spellings": (
        "name: d\ncard: {size: poker}\nlayouts: {item: {regions: {a: {type: text, x: 1, y: 1, w: 9, h: 9, text: a}}}}\n"
        "back: {extends: item, a: {text: b}}\nbacks: {hero: {extends: item, regions: {a: {text: c}}}}\n"
    ),
    "tables, icons with their size, a version": (
        "name: d\ncard: {size: poker}\nversion: '0.3'\n"
        "tables: {tint: {attack: '#c03030'}, terrain: terrain.csv, ranks: {file: r.xlsx, sheet: R},"
        " moves: {forest: {cost: 2, name: Forest}}}\n"
        "icons: {coin: {src: icons/coin.svg, scale: 1.4, dy: -0.5}, gem: icons/gem.svg}\n"
        "layout: {a: {type: icon, icon: coin, x: 1, y: 1, w: 9, h: 9}}\n"
    ),
}


@pytest.mark.parametrize("name", sorted(VALID))
def test_valid_decks_pass(schema, name):
    assert problems(schema, yaml.safe_load(VALID[name])) == []


INVALID = {
    "a typo at the top": "name: d\ncard: {size: poker}\ncopies_feild: qty\nlayout: {}\n",
    "a typo in a region": "extends: poker\nlayout: {title: {colur: '#ffffff'}}\n",
    "a key another type has": "name: d\ncard: {size: poker}\nlayout: {t: {type: text, x: 1, y: 1, w: 9, h: 9, icon: coin}}\n",
    "an unknown region type": "name: d\ncard: {size: poker}\nlayout: {t: {type: video, x: 1, y: 1, w: 9, h: 9}}\n",
    "a size in words": "name: d\ncard: {size: poker}\nlayout: {t: {type: text, x: 1, y: 1, w: 9, h: 9, size: big}}\n",
    "a length in furlongs": "name: d\ncard: {size: poker}\nlayout: {t: {type: text, x: 1furlong, w: 9, h: 9}}\n",
    "a colour as a number": "extends: poker\nlayout: {title: {colour: 7}}\n",
    "no name nor card nor extends": "layout: {t: {type: text, x: 1, y: 1, w: 9, h: 9, text: a}}\n",
    "a layout as a list": "name: d\ncard: {size: poker}\nlayout: [a, b]\n",
    "extends as a number": "extends: 3\n",
    "an icon scale in words": "name: d\ncard: {size: poker}\nicons: {coin: {src: c.svg, scale: big}}\nlayout: {}\n",
    "an icon without its file": "name: d\ncard: {size: poker}\nicons: {coin: {scale: 1.2}}\nlayout: {}\n",
    "tables as a list": "name: d\ncard: {size: poker}\ntables: [a.csv]\nlayout: {}\n",
    "a condition as a number": "extends: poker\nlayout: {title: {when: 3}}\n",
    "an opacity of 2": "extends: poker\nlayout: {title: {opacity: 2}}\n",
}


@pytest.mark.parametrize("name", sorted(INVALID))
def test_invalid_decks_are_flagged(schema, name):
    assert problems(schema, yaml.safe_load(INVALID[name])) != []


@pytest.mark.parametrize("name", ["a typo in a region", "a size in words", "an opacity of 2", "an icon scale in words"])
def test_what_the_schema_flags_the_build_refuses_too(tmp_path, name):
    (tmp_path / "d.yaml").write_text(INVALID[name] + "cards: [{name: A}]\n", encoding="utf-8")
    result = run_cli("build", str(tmp_path / "d.yaml"), "--out", str(tmp_path / "out"))
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
