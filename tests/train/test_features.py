"""The linear-feature contract of the search adapters: evaluation == weights . features."""

from __future__ import annotations

import random

import pytest

from arena.train.model import linear_game


def _positions(game_name: str, count: int, seed: int = 3) -> list[object]:
    game = linear_game(game_name)
    adapter = game.adapter()
    rng = random.Random(seed)
    out: list[object] = []
    while len(out) < count:
        pos = game.initial(adapter)
        while game.outcome(adapter, pos) is None and len(out) < count:
            out.append(pos)
            pos = adapter.play(pos, rng.choice(adapter.moves(pos)))
    return out


def _dot(game_name: str, weights: dict[str, int], pos: object) -> float:
    values = linear_game(game_name).features(pos)
    return sum(weights[name] * values[name] for name in linear_game(game_name).feature_names)


@pytest.mark.parametrize("game_name", ["connect4", "checkers"])
def test_the_evaluation_is_the_dot_product_of_weights_and_features(game_name: str) -> None:
    game = linear_game(game_name)
    rng = random.Random(5)
    for weights in (dict(game.default_weights), {n: rng.randint(-50, 50) for n in game.feature_names}):
        if game_name == "checkers":  # trade/hunt follow the side ahead by the default material values
            weights["man"], weights["king"] = game.default_weights["man"], game.default_weights["king"]
        adapter = game.adapter(weights)
        for pos in _positions(game_name, 300):
            assert adapter.evaluate(pos) == pytest.approx(_dot(game_name, weights, pos))


def test_breakthrough_features_match_the_evaluation_where_it_is_linear() -> None:
    from arena.agents.eval_breakthrough import _CALM, _race

    game = linear_game("breakthrough")
    weights = {**game.default_weights, "runner": 0}  # the runner bonus has an unweighted distance part
    adapter = game.adapter(weights)
    checked = 0
    for pos in _positions("breakthrough", 400):
        mine, theirs, black = pos[0], pos[1], pos[2]  # type: ignore[index]
        if _race(mine, theirs, black) == _CALM:
            assert adapter.evaluate(pos) == pytest.approx(_dot("breakthrough", weights, pos))
            checked += 1
    assert checked > 100


def test_shobu_features_match_the_evaluation_up_to_its_roundings() -> None:
    from arena.agents.eval_shobu import THREAT_WIN

    game = linear_game("shobu")
    weights = {**game.default_weights, "mobility": 0}  # mobility is divided by 10 with rounding down
    adapter = game.adapter(weights)
    for pos in _positions("shobu", 60):
        score = adapter.evaluate(pos)
        if score != THREAT_WIN:
            assert score == pytest.approx(_dot("shobu", weights, pos))


def test_every_feature_name_is_a_weight_name() -> None:
    for name in ("connect4", "checkers", "breakthrough", "shobu"):
        game = linear_game(name)
        assert set(game.feature_names) == set(game.default_weights)


def test_a_game_without_features_is_a_one_line_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import arena.agents.eval_connect4 as module
    from arena.errors import ConfigError

    monkeypatch.delattr(module, "FEATURE_NAMES")
    with pytest.raises(ConfigError, match="has no linear features"):
        linear_game("connect4")
    assert linear_game("connect4", require_features=False).feature_names == ()  # SPSA can still tune it
