"""A spec's ``work.projects`` (issue 26): the work chat's project channels and the project board's projects are the
spec's, each spec ticket is on the board as written (status reached through the usual transitions by ``now``,
comments verbatim), ticket keys carry the project's ``key``, and the validator refuses what the world cannot honour
in one line naming the path."""

from __future__ import annotations

import json
import re
import sqlite3

import pytest

from builder.persona import SpecError, complete, load
from builder.persona.model import Persona
from builder.world import simulate
from builder.world.projects import STATUSES, board
from builder.world.work_chat import channels

from tests.conftest import DEFAULT_PERSONA, REPO, shared
from tests.world import test_projects as invariants

PROJECTS = [
    {
        "name": "Orchard Scout rollout",
        "key": "ORCH",
        "description": "Put the rovers into three pilot orchards before the bloom.\nOwner: Dana; reviews with Elena.",
        "tickets": [
            {
                "title": "Calibrate the canopy lidar on rover 3",
                "status": "done",
                "priority": "high",
                "assignee": "Sam Okafor",
                "points": 5,
                "due": "2026-10-30",
                "comments": [
                    {"author": "Sam Okafor", "text": "Calibration run logged; drift <b>under</b> 2 cm & steady."},
                    {"author": "dana whitfield", "text": "Great, closing after the field check.\nThanks!"},
                ],
            },
            {
                "title": "Write the pilot orchard safety checklist",
                "status": "in_review",
                "type": "story",
                "priority": "urgent",
                "due": "2026-11-20",
                "description": "Ladders, PPE, the stop button.\n\n- One page\n- Signed by the grower",
                "comments": [{"author": "Elena Vasquez", "text": "Left two notes on the ladder section."}],
            },
            {
                "title": "Battery swap takes too long in the cold",
                "status": "in_progress",
                "type": "bug",
                "assignee": "Lena Fischer",
                "points": 8,
            },
            {"title": "Order spare wheel hubs for the pilot fleet", "status": "backlog", "priority": "low"},
        ],
    },
    {
        "name": "Field app offline mode",
        "tickets": [
            {"title": "Cache the row maps on the tablet", "type": "story", "assignee": "Elena Vasquez", "points": 13},
            {
                "title": "Sync conflict loses harvest notes",
                "status": "done",
                "type": "bug",
                "priority": "urgent",
                "points": 21,
                "comments": [{"author": "Lena Fischer", "text": "Reproduced on build 412: the second edit wins."}],
            },
            {"title": "Show the last sync time in the header", "status": "in_progress", "due": "2027-01-08"},
            {"title": "Field test with the Hood River crew", "status": "in_review", "assignee": "Lena Fischer"},
        ],
    },
]


def _spec() -> dict:
    spec = json.loads(DEFAULT_PERSONA.read_text())
    spec["work"]["projects"] = json.loads(json.dumps(PROJECTS))
    return spec


@pytest.fixture(scope="module")
def spec_world():
    def make():
        persona = complete(Persona.model_validate(_spec()))
        return persona, simulate(persona)

    return shared("world-dana-spec-projects", make)


def test_the_projects_are_the_specs_in_chat_and_on_the_board(spec_world):
    persona, world = spec_world
    b = board(world)
    assert [(p["name"], p["slug"], p["key"]) for p in b["projects"]] == [
        ("Orchard Scout rollout", "orchard-scout-rollout", "ORCH"),
        ("Field app offline mode", "field-app-offline-mode", b["prefix"]),
    ]
    assert b["prefix"] == "DES" and b["projects"][0]["description"] == PROJECTS[0]["description"]
    projs = [c for c in channels(world) if c["name"].startswith("proj-")]
    assert [c["name"] for c in projs] == ["proj-orchard-scout-rollout", "proj-field-app-offline-mode"]
    assert all(p["name"] in c["topic"] for p, c in zip(b["projects"], projs))
    said = [e for e in world.of_kind("work_chat_message") if e.data["channel"] == "proj-orchard-scout-rollout"]
    assert len(said) > 100
    # Every key the chat says is a ticket of the project its prefix names; a number has one prefix.
    tickets = {t["key"]: t for t in b["tickets"]}
    keys = {k for e in world.of_kind("work_chat_message") for k in re.findall(r"\b(?:ORCH|DES)-\d+\b", e.data["text"])}
    assert {k.split("-")[0] for k in keys} == {"ORCH", "DES"}
    for k in keys:
        project = "Orchard Scout rollout" if k.startswith("ORCH-") else "Field app offline mode"
        assert tickets[k]["project"] == project, k
    assert all(t["key"].startswith("ORCH-") == (t["project"] == "Orchard Scout rollout") for t in b["tickets"])
    numbers = [t["number"] for t in b["tickets"]]
    assert len(numbers) == len(set(numbers))


def test_spec_tickets_are_seeded_as_written(spec_world, tmp_path):
    from apps.board.seed import seed

    persona, world = spec_world
    con = sqlite3.connect(seed(world, tmp_path / "board.sqlite"))
    assert json.loads(con.execute("SELECT value FROM meta WHERE key = 'project_keys'").fetchone()[0]) == {
        "orchard-scout-rollout": "ORCH",
        "field-app-offline-mode": "DES",
    }
    now = world.now.isoformat()
    (current,) = con.execute("SELECT id FROM sprints WHERE opens <= ? AND ? < closes", (now, now)).fetchone()
    for pr in PROJECTS:
        for t in pr["tickets"]:
            rows = con.execute(
                "SELECT t.id, t.key, p.name, t.type, t.status, t.priority, a.name, t.due, t.points, t.description,"
                " t.created_at, t.sprint_id, t.world_ref FROM tickets t JOIN projects p ON p.id = t.project_id"
                " JOIN people a ON a.id = t.assignee_id WHERE t.title = ?",
                (t["title"],),
            ).fetchall()
            assert len(rows) == 1, t["title"]
            (row,) = rows
            tid, key, project, kind, status, priority, assignee, due, points, description, created, sprint, ref = row
            assert key.startswith(f"{pr.get('key', 'DES')}-") and project == pr["name"]
            assert (kind, status, priority) == (
                t.get("type", "task"),
                t.get("status", "todo"),
                t.get("priority", "medium"),
            )
            assert assignee == t.get("assignee", "Dana Whitfield")
            assert due == t.get("due") and (points == t["points"] if "points" in t else 1 <= points <= 21)
            if "description" in t:
                assert description == t["description"]
            assert created < now and ref is not None
            # A backlog ticket is in no sprint, a done one in a past sprint, the others in the current one.
            if status == "backlog":
                assert sprint is None
            else:
                assert (sprint == current) == (status != "done") and sprint <= current
            path = [
                r[0]
                for r in con.execute(
                    "SELECT new FROM activity WHERE ticket_id = ? AND field = 'status' ORDER BY at", (tid,)
                )
            ]
            assert path == STATUSES[1 : STATUSES.index(status) + 1], (t["title"], path)
            comments = con.execute(
                "SELECT p.name, c.body, c.created_at FROM comments c JOIN people p ON p.id = c.author_id"
                " WHERE c.ticket_id = ? ORDER BY c.id",
                (tid,),
            ).fetchall()
            want = [
                ("Dana Whitfield" if c["author"] == "dana whitfield" else c["author"], c["text"])
                for c in t.get("comments", [])
            ]
            assert [(a, body) for a, body, _ in comments] == want
            times = [at for _, _, at in comments]
            assert times == sorted(times) and all(created < at <= now for at in times)
    con.close()


def test_spec_world_keeps_the_boards_rules(spec_world):
    """The shipped personas' board invariants hold with spec tickets among the builder's own."""
    invariants.test_status_history_follows_the_workflow_and_the_sprints(spec_world)
    invariants.test_planning_commitments_follow_the_meeting(spec_world)
    invariants.test_chat_mentions_are_tickets_and_people_are_the_team(spec_world)
    invariants.test_projects_are_the_work_chats(spec_world)


def test_a_team_without_colleagues_and_a_slug_clash(tmp_path):
    """A spec with an employer and no colleagues: tickets go to the persona; two names of one slug get two."""
    spec = json.loads((REPO / "personas" / "jordan-lee.json").read_text())
    spec["work"] = {
        "employer": "Harbor Lane Studio",
        "projects": [
            {"name": "Spring catalogue!", "tickets": [{"title": "Proof the cover", "status": "done"}]},
            {"name": "spring  catalogue", "key": "CAT", "tickets": [{"title": "Print run", "status": "in_progress"}]},
        ],
    }
    world = simulate(complete(Persona.model_validate(spec)))
    b = board(world)
    assert [p["slug"] for p in b["projects"]] == ["spring-catalogue", "spring-catalogue-2"]
    mine = {t["title"]: t for t in b["tickets"]}
    assert mine["Proof the cover"]["status"] == "done" and mine["Print run"]["status"] == "in_progress"
    assert mine["Print run"]["key"].startswith("CAT-") and mine["Print run"]["assignee"] == spec["identity"]["name"]


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda w: w.pop("employer"), "work.projects: projects need work.employer"),
        (
            lambda w: w["projects"][0]["tickets"][2].update(assignee="Marcus Whitfield"),
            "work.projects[0].tickets[2].assignee: 'Marcus Whitfield' is neither the persona nor a colleague",
        ),
        (
            lambda w: w["projects"][1]["tickets"][1]["comments"][0].update(author="Nobody Known"),
            "work.projects[1].tickets[1].comments[0].author: 'Nobody Known' is neither the persona nor a colleague",
        ),
        (
            lambda w: w["projects"][1].update(name="orchard scout ROLLOUT"),
            "work.projects[1].name: 'orchard scout ROLLOUT' is also projects[0]'s name",
        ),
        (lambda w: w["projects"][1].update(key="ORCH"), "work.projects[1].key: 'ORCH' is also projects[0]'s key"),
        (
            lambda w: w["projects"][0]["tickets"][0].update(due="2027-03-01"),
            "work.projects[0].tickets[0].due: must be from 2025-05-16 to 2027-01-15",
        ),
        (lambda w: w["projects"][0].update(key="Orch"), "work.projects[0].key: string should match pattern"),
        (lambda w: w["projects"][0]["tickets"][0].update(status="blocked"), "work.projects[0].tickets[0].status:"),
        (lambda w: w["projects"][0]["tickets"][0].update(points=34), "work.projects[0].tickets[0].points:"),
        (lambda w: w["projects"].extend(w["projects"][:1] * 7), "work.projects: list should have at most 8 items"),
    ],
)
def test_refusals_name_the_path(tmp_path, mutate, message):
    spec = _spec()
    mutate(spec["work"])
    path = tmp_path / "p.json"
    path.write_text(json.dumps(spec))
    with pytest.raises(SpecError) as err:
        load(path)
    assert any(message.lower() in line.lower() for line in err.value.lines), err.value.lines


def test_a_spec_without_projects_draws_its_own():
    """Left out, the projects are drawn as before (the shipped personas' worlds are unchanged: scripts/persona-hashes)."""
    p = load(DEFAULT_PERSONA)
    assert p.work.projects is None and "projects" not in json.loads(p.model_dump_json(exclude_none=True))["work"]
