"""SPRT with config agents: a hyperparameters file as NEW/OLD of `arena sprt` (and `arena match`),
and `arena run` of a tournament config with an ``sprt`` key."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli.match_cmd import match_command
from arena.cli.run_cmd import run_command
from arena.cli.sprt_cmd import sprt_command
from arena.errors import ConfigError
from arena.games.registry import game_names
from arena.tournament.config import parse_config

GAME = next(name for name in game_names() if name.startswith("connect"))
ROOT = Path(__file__).resolve().parents[2]
RANDOM = f"python3 {ROOT / 'bots/connect4_random.py'}"
FAST = {"algorithm": "alphabeta", "maxDepth": 2, "description": "shallow search for tests"}


def invoke(command: object, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(command, list(args))  # type: ignore[arg-type]
    return result.exit_code, result.stdout, result.stderr


def hyp_file(tmp_path: Path, name: str = "shallow.json", **extra: object) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps({**FAST, **extra}))
    return path


def test_sprt_takes_a_hyperparameters_file_as_new_and_refuses_it_edited(tmp_path: Path) -> None:
    hyp = hyp_file(tmp_path)
    logs = str(tmp_path / "logs")
    code, out, err = invoke(sprt_command, str(hyp), RANDOM, "--game", GAME, "--max-pairs", "1",
                            "--logs", logs, "--json")
    assert code in (0, 3, 4), err
    assert json.loads(out)["pairs"] == 1
    record = json.loads((Path(logs) / "games" / "00000.json").read_text())
    assert [p["id"] for p in record["players"]] == ["shallow", "connect4_random"]
    state = json.loads((Path(logs) / "sprt.json").read_text())
    assert state["settings"]["new"]["hyperparameters"] == str(hyp.resolve())
    assert len(state["settings"]["new"]["sha256"]) == 64
    hyp.write_text(json.dumps({**FAST, "maxDepth": 3}))  # another agent now
    code, _, err = invoke(sprt_command, str(hyp), RANDOM, "--game", GAME, "--max-pairs", "1", "--logs", logs)
    assert code == 2 and "other settings" in err and err.count("\n") == 1


def test_a_bad_hyperparameters_file_is_a_one_line_usage_error(tmp_path: Path) -> None:
    bad = str(hyp_file(tmp_path, "bad.json", maxDepth=0))
    for command, args, where in ((sprt_command, ["--logs", str(tmp_path / "l")], "NEW"),
                                 (match_command, ["--quiet"], "CMD1")):
        code, out, err = invoke(command, bad, RANDOM, "--game", GAME, *args)
        assert code == 2 and out == "", err
        assert where in err and "maxDepth" in err and "Traceback" not in err
    assert not (tmp_path / "l").exists()


def test_match_plays_a_hyperparameters_file(tmp_path: Path) -> None:
    hyp = hyp_file(tmp_path)
    code, out, err = invoke(match_command, RANDOM, str(hyp), "--game", GAME, "--json", "--quiet")
    assert code == 0, err
    record = json.loads(out)
    assert record["players"][1]["id"] == "shallow" and record["termination"] != "crash", record["reason"]


def config(tmp_path: Path, **changes: object) -> dict[str, object]:
    hyp = hyp_file(tmp_path)
    obj: dict[str, object] = {
        "id": "sprt-test", "game": GAME, "timeLimit": 20000,
        "agents": [{"type": "hyperparameters", "id": "new", "path": str(hyp)},
                   {"type": "executable", "id": "old", "path": RANDOM}],
        "sprt": {"elo0": 0, "elo1": 100, "maxPairs": 2},
    }
    obj.update(changes)
    return obj


def test_run_of_an_sprt_config_plays_pairs_resumes_and_exits_like_arena_sprt(tmp_path: Path) -> None:
    path = tmp_path / "sprt.json"
    path.write_text(json.dumps(config(tmp_path)))
    logs = tmp_path / "logs"
    code, out, err = invoke(run_command, str(path), "--logs", str(logs), "--json")
    assert code in (0, 3, 4), err
    summary = json.loads(out)
    assert summary["pairs"] == 2 or summary["stopped"] in ("H1", "H0")
    assert err.splitlines()[0].startswith("new (NEW) against old (OLD)")
    state = json.loads((logs / "sprt-test" / "sprt.json").read_text())
    assert state["settings"]["new_id"] == "new" and state["settings"]["old"].endswith("connect4_random.py")
    games = sorted(p.name for p in (logs / "sprt-test" / "games").iterdir())
    assert games[:2] == ["00000.json", "00001.json"]
    code2, _, err2 = invoke(run_command, str(path), "--logs", str(logs))
    assert code2 == code and "resuming" in err2


@pytest.mark.parametrize(("changes", "message"), [
    ({"sprt": {"elo2": 1}}, "sprt.elo2: unknown key"),
    ({"sprt": [1]}, "sprt: must be an object"),
    ({"sprt": {"elo0": 5, "elo1": 5}}, "sprt.elo0: must be below elo1"),
    ({"sprt": {"alpha": 1}}, "sprt.alpha: must be between 0 and 1"),
    ({"sprt": {"beta": "0.05"}}, "sprt.beta: must be a number"),
    ({"sprt": {"model": "bayes"}}, "sprt.model: 'bayes' is not one of normalized, logistic"),
    ({"sprt": {"maxPairs": 0}}, "sprt.maxPairs: must be a positive integer"),
    ({"sprt": {"elo1": 5000}}, "sprt: "),
    ({"tournamentType": "roundRobin"}, "tournamentType: not used with 'sprt'"),
    ({"gamesPerPair": 4}, "gamesPerPair: not used with 'sprt'"),
    ({"game": "kuhn_poker", "players": 3}, "sprt: an SPRT .* games of two seats, and kuhn_poker is set for 3"),
    ({"game": "kuhn_poker", "players": 2, "gamesPerGroup": 2}, "gamesPerGroup: not used with 'sprt'"),
    ({"game": "kuhn_poker", "players": 2, "openingPlies": 2}, "openingPlies: not for kuhn_poker"),
])
def test_bad_sprt_configs_name_the_key(tmp_path: Path, changes: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message.replace("(", r"\(")) as caught:
        parse_config(config(tmp_path, **changes), base_dir=tmp_path)
    assert "\n" not in str(caught.value)


def test_an_sprt_needs_two_agents_and_no_person(tmp_path: Path) -> None:
    obj = config(tmp_path)
    three = [*obj["agents"], {"type": "executable", "id": "third", "path": RANDOM}]  # type: ignore[misc]
    with pytest.raises(ConfigError, match="exactly two agents"):
        parse_config({**obj, "agents": three}, base_dir=tmp_path)
    person = [obj["agents"][0], {"type": "player", "id": "me"}]  # type: ignore[index]
    with pytest.raises(ConfigError, match=r"agents\[1\].type: a 'player' cannot take part"):
        parse_config({**obj, "agents": person}, base_dir=tmp_path)
    parsed = parse_config(obj, base_dir=tmp_path)
    assert parsed.sprt == {"elo0": 0.0, "elo1": 100.0, "alpha": 0.05, "beta": 0.05, "model": "normalized",
                           "maxPairs": 2, "score": "rank"}


def test_run_of_an_sprt_config_of_a_game_of_two_seats(tmp_path: Path) -> None:
    kuhn = [f"python3 {ROOT / 'bots' / name}" for name in ("kuhn_poker_heuristic.py", "kuhn_poker_random.py --seed 2")]
    obj = config(tmp_path, game="kuhn_poker", players=2, legalMoves=True, concurrency=2,
                 agents=[{"id": "new", "path": kuhn[0]}, {"id": "old", "path": kuhn[1]}])
    path = tmp_path / "kuhn.json"
    path.write_text(json.dumps(obj))
    logs = tmp_path / "logs"
    code, out, err = invoke(run_command, str(path), "--logs", str(logs), "--json")
    assert code == 4, err  # elo1 100 is not decided in 2 pairs
    assert json.loads(out)["pairs"] == 2
    settings = json.loads((logs / "sprt-test" / "sprt.json").read_text())["settings"]
    assert settings["game_identity"] == {"name": "kuhn_poker", "players": 2, "params": {}} and settings["legal_moves"]
    records = [json.loads((logs / "sprt-test" / "games" / f"0000{i}.json").read_text()) for i in range(4)]
    assert [[s["id"] for s in r["seats"]] for r in records] == [["new", "old"], ["old", "new"]] * 2
    assert records[0]["seed"] == records[1]["seed"] != records[2]["seed"] == records[3]["seed"]
