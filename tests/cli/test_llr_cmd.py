"""`arena llr`: JSON from counts, and one-line errors for bad input."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from arena.cli.llr_cmd import llr_command
from arena.stats import sprt


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(llr_command, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_pentanomial_json_has_every_field_and_matches_the_library() -> None:
    code, out, err = run("--pentanomial", "39,8843,26675,9240,44", "--elo0", "0.5", "--elo1", "2.5")
    assert code == 0, err
    data = json.loads(out)
    assert out.count("\n") == 1
    for key in ("llr", "lower", "upper", "verdict", "elo", "elo_ci", "los", "pairs", "games", "model",
                "elo0", "elo1", "draw_ratio", "elo_normalized", "elo_logistic", "pentanomial"):
        assert key in data, key
    assert data["model"] == "normalized" and data["pairs"] == 44841 and data["games"] == 89682
    assert data["llr"] == pytest.approx(sprt.llr_normalized(0.5, 2.5, [39, 8843, 26675, 9240, 44]))
    assert data["lower"] == pytest.approx(-2.944438979) and data["upper"] == pytest.approx(2.944438979)
    assert data["verdict"] == "continue"
    assert data["elo_ci"][0] < data["elo"] < data["elo_ci"][1]
    assert data["elo_normalized"][1] == data["elo"]


def test_trinomial_is_w_d_l_and_the_logistic_model_and_bounds_apply() -> None:
    code, out, err = run("--trinomial", "300,100,100", "--model", "logistic", "--elo0", "0", "--elo1", "10",
                         "--alpha", "0.1", "--beta", "0.2")
    assert code == 0, err
    data = json.loads(out)
    assert data["games"] == 500 and "pairs" not in data and data["trinomial"] == [300, 100, 100]
    assert data["verdict"] == "H1" and data["elo"] > 100 and data["los"] > 0.999
    assert data["llr"] == pytest.approx(sprt.llr_logistic(0, 10, [100, 100, 300]))
    assert (data["lower"], data["upper"]) == pytest.approx((-1.504077397, 2.079441542))
    assert data["draw_ratio"] == pytest.approx(0.2)
    code, out, _ = run("--trinomial", "100,100,300", "--elo0", "0", "--elo1", "10")
    assert json.loads(out)["verdict"] == "H0"


def test_all_wins_give_null_normalized_elo_not_infinity() -> None:
    code, out, _ = run("--pentanomial", "0,0,0,0,7")
    assert code == 0
    data = json.loads(out)  # strict JSON: no Infinity
    assert data["elo"] is None and data["elo_logistic"][1] > 1000


@pytest.mark.parametrize(("args", "message"), [
    ([], "give exactly one of --pentanomial"),
    (["--pentanomial", "1,2,3,4,5", "--trinomial", "1,2,3"], "give exactly one of"),
    (["--pentanomial", "1,2,3"], "--pentanomial takes 5 comma-separated counts"),
    (["--trinomial", "a,1,2"], "--trinomial: not a number"),
    (["--trinomial", "1,-1,2"], "counts must be non-negative"),
    (["--pentanomial", "0,0,0,0,0"], "every count is 0"),
    (["--trinomial", "1,1,1", "--alpha", "0.7", "--beta", "0.5"], "alpha and beta must be in (0, 1)"),
    (["--trinomial", "1,1,1", "--elo0", "5", "--elo1", "0"], "elo0 must be below elo1"),
])
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    code, out, err = run(*args)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("arena llr: ") and message in err, err
