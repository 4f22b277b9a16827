"""The referee's API (bow3d.serve.referee) through Starlette's TestClient: the answer is `bow3d los --json`'s
for the same positions (on the scene the saved-scene route writes), bad requests are refused naming the
field, the page and the verdict speak French with lang=fr."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from bow3d.cli import main
from bow3d.ldraw import Library
from bow3d.serve.app import Server, create_app, three_spec
from bow3d.serve.catalogue import Catalogue
from bow3d.serve.referee import MAX_BODY_BYTES, Referee
from bow3d.serve.store import Store

SCENES = Path(__file__).resolve().parents[2] / "scenes"
FACTS = ("firer", "target", "visible", "visible_fraction", "hidden_fraction", "distance_studs", "in_front_arc",
         "blockers", "samples", "eye_ldu", "target_feet_ldu", "target_top_ldu", "firer_feet_ldu", "complete",
         "transparent_fraction", "sight_method", "covered", "cover_threshold", "range_penalty_bricks", "verdict",
         "text")


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    catalogue = Catalogue([SCENES / "village.yaml", SCENES / "western-town.yaml"], Library.from_env(None))
    server = Server(catalogue, Store(":memory:"), tmp_path_factory.mktemp("serve"), referee=None)
    server.referee = Referee(server.catalogue, lambda: three_spec(server))
    with TestClient(create_app(server)) as test_client:
        yield test_client


def los_json(path: Path, firer: str, target: str, capsys) -> dict:
    capsys.readouterr()
    assert main(["los", str(path), firer, target, "--json", "--allow-missing"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(("scene", "firer", "target", "placements"), [
    ("village", "blue-rifle-2", "red-pistol", {}),
    ("village", "blue-rifle-2", "red-pistol", {"blue-rifle-2": [30.5, 20.5, 45], "blue-jeep": [38.5, 27.5, 90]}),
    ("village", "red-archer-1", "blue-driver", {"red-archer-1": [40.5, 40.5, 225.0]}),
    ("western-town", "black-bart", "citizen-revolver", {}),
    ("western-town", "marshal", "scattergun", {"marshal": [50.5, 30.5, 0], "scattergun": [70.5, 25.5, 135]}),
])
def test_the_answer_is_bow3d_los_on_the_saved_scene(client, tmp_path: Path, capsys, scene, firer, target,
                                                    placements) -> None:
    answer = client.post(f"/api/referee/{scene}/los", json={"firer": firer, "target": target,
                                                             "placements": placements})
    assert answer.status_code == 200, answer.text
    saved = client.post(f"/api/referee/{scene}/scene", json={"placements": placements})
    assert saved.status_code == 200 and saved.headers["content-type"].startswith("application/yaml")
    assert f'filename="{scene}-referee.yaml"' in saved.headers["content-disposition"]
    folder = tmp_path / "scenes"
    shutil.copytree(SCENES, folder, ignore=shutil.ignore_patterns("*.yaml", "*.py", "*.txt", "*.md"))
    path = folder / f"{scene}-referee.yaml"
    path.write_text(saved.text, encoding="utf-8")
    cli = los_json(path, firer, target, capsys)
    got = answer.json()
    assert {k: got[k] for k in FACTS} == {k: cli[k] for k in FACTS}
    assert got["placements"] == {k: [float(v) for v in p] for k, p in placements.items()}
    assert set(got["poses"]) >= {firer, target} and all(len(got["poses"][k]) == 3 for k in (firer, target))
    assert got["rings"] and got["length_unit"] in ("studs", "in")


def test_a_placement_moves_the_figure_and_its_pose(client) -> None:
    before = client.post("/api/referee/village/poses", json={}).json()["poses"]["blue-rifle-2"]
    after = client.post("/api/referee/village/poses", json={"placements": {"blue-rifle-2": [30.5, 20.5, 405]}})
    assert after.status_code == 200
    assert after.json()["placements"] == {"blue-rifle-2": [30.5, 20.5, 45.0]}
    pose = after.json()["poses"]["blue-rifle-2"]
    assert pose != before and pose[0][:2] == [610.0, 410.0]   # world LDU: 20 per stud (figure centred on its stud)


def test_the_world_puts_every_figure_back_between_questions(client) -> None:
    ask = {"firer": "blue-rifle-2", "target": "red-pistol"}
    first = client.post("/api/referee/village/los", json=ask).json()
    client.post("/api/referee/village/los", json={**ask, "placements": {"blue-jeep": [40.5, 10.5, 0]}})
    assert client.post("/api/referee/village/los", json=ask).json()["text"] == first["text"]


@pytest.mark.parametrize(("body", "code", "field"), [
    ({"firer": "nobody", "target": "red-pistol"}, "unknown-unit", "firer"),
    ({"firer": "blue-rifle-2", "target": "red-pistol", "placements": {"nobody": [1.5, 1.5, 0]}}, "unknown-unit",
     "placements.nobody"),
    ({"firer": "blue-rifle-2", "target": "red-pistol", "placements": {"blue-driver": [1.5, 1.5, 0]}}, "unknown-unit",
     "placements.blue-driver"),
    ({"firer": "blue-rifle-2", "target": "red-pistol", "placements": {"blue-rifle-2": [500.5, 1.5, 0]}},
     "off-battlefield", "placements.blue-rifle-2"),
    ({"firer": "blue-rifle-2", "target": "red-pistol", "placements": {"blue-rifle-2": [44.5, 33.5, 0]}},
     "bad-placement", "units["),                                  # red-pistol's stud
    ({"firer": "blue-rifle-2", "target": "blue-rifle-2"}, "same-unit", "target"),
    ({"firer": "../../etc/passwd", "target": "red-pistol"}, "bad-request", "firer"),
    ({"firer": "blue-rifle-2", "target": "red-pistol", "placements": {"blue-rifle-2": [1e300, 1.5, 0]}},
     "bad-request", "placements.blue-rifle-2.0"),
    ({"firer": "blue-rifle-2", "target": "red-pistol", "placements": {"blue-rifle-2": [1.5, 1.5]}},
     "bad-request", "placements.blue-rifle-2"),
    ({"firer": "blue-rifle-2", "target": "red-pistol", "placements": {"blue-rifle-2": ["1", 1.5, 0]}},
     "bad-request", "placements.blue-rifle-2.0"),
    ({"firer": "blue-rifle-2", "target": "red-pistol", "extra": 1}, "bad-request", "extra"),
    ({"firer": "blue-rifle-2"}, "bad-request", "target"),
    ({"firer": "blue-rifle-2", "target": "red-pistol", "lang": "de"}, "bad-request", "lang"),
])
def test_bad_questions_are_refused_naming_the_field(client, body, code, field) -> None:
    response = client.post("/api/referee/village/los", json=body)
    assert response.status_code == 400
    error = response.json()
    assert error["type"] == "error" and error["code"] == code and field in error["message"], error


@pytest.mark.parametrize("raw", [b'{"firer": "blue-rifle-2", "target": "red-pistol", "placements": '
                                 b'{"blue-rifle-2": [NaN, 1.5, 0]}}',
                                 b'{"firer": "blue-rifle-2", "target": "red-pistol", "placements": '
                                 b'{"blue-rifle-2": [Infinity, 1.5, 0]}}',
                                 b'{"firer": "blue-rifle-2", "target": "red-pistol", "placements": '
                                 b'{"blue-rifle-2": [1e999, 1.5, 0]}}',
                                 b'{"firer": "blue-rifle-2", "target": "red-pistol", "placements": '
                                 b'{"blue-rifle-2": [' + b"9" * 5000 + b', 1.5, 0]}}'])
def test_numbers_that_are_not_finite_are_refused(client, raw: bytes) -> None:
    response = client.post("/api/referee/village/los", content=raw, headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert response.json()["code"] in ("bad-request", "bad-json")


@pytest.mark.parametrize(("raw", "code"), [
    (b"[1, 2]", "bad-json"), (b"not json", "bad-json"), (b"", "bad-json"),
    (b'{"firer": "' + b"a" * MAX_BODY_BYTES + b'"}', "too-large"),
])
def test_bodies_that_are_not_a_json_object_are_refused(client, raw: bytes, code: str) -> None:
    response = client.post("/api/referee/village/los", content=raw)
    assert response.status_code == 400 and response.json()["code"] == code


@pytest.mark.parametrize("name", ["..%2F..%2Fetc", "..%2F..%2Fetc%2Fpasswd", "%2Fetc%2Fpasswd", "nowhere",
                                  "village.yaml", ".village"])
def test_a_scene_is_named_only_from_the_catalogue(client, name: str) -> None:
    assert client.get(f"/referee/{name}").status_code == 404
    for route in ("los", "poses", "scene"):
        response = client.post(f"/api/referee/{name}/{route}", json={"firer": "a", "target": "b"})
        assert response.status_code == 404


def test_the_page_carries_the_scene_three_and_the_words(client) -> None:
    page = client.get("/referee/village")
    assert page.status_code == 200 and '<html lang="en">' in page.text
    assert 'id="referee-canvas"' in page.text and "/static/referee.js" in page.text
    assert "async function loadThree(spec)" in page.text and 'id="bow3d-three"' in page.text
    data = json.loads(page.text.split('id="bow3d-referee">')[1].split("</script>")[0])
    assert data["scene"] == "village" and {"blue-rifle-2", "blue-jeep"} <= {f["id"] for f in data["figures"]}
    for name in ("referee.js", "referee.css"):
        assert client.get(f"/static/{name}").status_code == 200


def test_french_with_lang_fr(client) -> None:
    page = client.get("/referee/western-town?lang=fr")
    assert page.status_code == 200 and '<html lang="fr">' in page.text
    assert json.loads(page.text.split('id="bow3d-referee">')[1].split("</script>")[0])["lang"] == "fr"
    ask = {"firer": "black-bart", "target": "citizen-revolver"}
    english = client.post("/api/referee/western-town/los", json=ask).json()["text"]
    french = client.post("/api/referee/western-town/los", json={**ask, "lang": "fr"}).json()["text"]
    assert french != english and " voit " in french and "pouces" in french
    by_query = client.post("/api/referee/western-town/los?lang=fr", json=ask).json()["text"]
    assert by_query == french
