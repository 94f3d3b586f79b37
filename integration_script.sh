#!/usr/bin/env bash
# End-to-end check of arena from the root of a fresh clone (CI runs it after the tests).
# It sets up through the README's own command (`make run`, which also plays the default tournament),
# then drives every user-facing path and checks what it wrote. Stops at the first failure, non-zero.
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$(pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/arena-integration.XXXXXX")
# Bots run as users of their own (arena as root): the bots written here must be readable by them.
chmod 755 "$WORK"
trap 'rm -rf "$WORK"' EXIT
PY="$ROOT/.venv/bin/python"
ARENA="$ROOT/.venv/bin/arena"
step() { printf '\n== %s\n' "$*"; }
fail() { printf 'integration: FAILED: %s\n' "$*" >&2; exit 1; }

step "set-up and the default tournament: make run"
make run ARGS="--logs $WORK/default-logs" </dev/null || fail "make run"
"$PY" "$ROOT/scripts/check_logs.py" "$WORK/default-logs"/* || fail "default tournament logs"

step "pass-through: the Shobu seed README example, both spellings"
cat >"$WORK/seed-pass-through.json" <<'EOF'
{
"turn": {
"passive": {"origin": {"x": 6, "y": 7}, "heading": {"x": 0, "y": -1}},
"aggressive": {"origin": {"x": 3, "y": 3}, "heading": {"x": 0, "y": -1}}
},
"game_state": {
"board": "oooooooo................xxxxxxxxoooooooo................xxxxxxxx",
"turn": "BLACK",
"turnNumber": 0
}
}
EOF
expected='{"board":"oooooooo...........x....xxx.xxxxoooooooo..............x.xxxxxx.x","turn":"WHITE","turnNumber":1}'
got=$("$ARENA" --json-pass-through <"$WORK/seed-pass-through.json") || fail "--json-pass-through exit status"
[ "$got" = "$expected" ] || fail "--json-pass-through printed $got"
got=$("$ARENA" pass-through --game shobu <"$WORK/seed-pass-through.json") || fail "pass-through exit status"
[ "$got" = "$expected" ] || fail "pass-through printed $got"
set +e
bad=$(echo '{"turn": {}, "game_state": {"board": "x", "turn": "BLACK", "turnNumber": 0}}' | "$ARENA" pass-through 2>"$WORK/bad.err")
status=$?
set -e
[ "$status" = 2 ] || fail "malformed pass-through input should exit 2, got $status"
grep -q malformed_input <<<"$bad" || fail "malformed pass-through input: no error line"
grep -q Traceback "$WORK/bad.err" && fail "malformed pass-through input printed a traceback"

step "perft: checkers depth 6 and Shobu depth 1"
[ "$("$ARENA" perft --game checkers --depth 6 --json | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["nodes"])')" = 36768 ] || fail "checkers perft(6)"
[ "$("$ARENA" perft --game shobu --depth 1 --json | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["nodes"])')" = 232 ] || fail "shobu perft(1)"

step "a Shobu match between shipped bots: the README example verbatim, from bots/ in the venv"
(cd bots && export PATH="$ROOT/.venv/bin:$PATH" && arena match "python bot1.py" "./bot2" --game shobu >"$WORK/readme-match.json" 2>"$WORK/readme-match.err") \
    || fail "README example match: $(tail -3 "$WORK/readme-match.err")"
"$PY" "$ROOT/scripts/check_record.py" "$WORK/readme-match.json" || fail "README example match record"

step "Shobu: greedy against random, 2 games"
"$ARENA" match --game shobu --games 2 --seed 7 "python3 bots/shobu_greedy.py" "python3 bots/shobu_random.py" \
    --time-limit 20000 >"$WORK/shobu.json" 2>"$WORK/shobu.err" || fail "shobu match: $(tail -3 "$WORK/shobu.err")"
"$PY" "$ROOT/scripts/check_record.py" "$WORK/shobu.json" || fail "shobu match records"

step "checkers: greedy against random, 2 games"
"$ARENA" match --game checkers --games 2 --seed 7 "python3 bots/checkers_greedy.py" "python3 bots/checkers_random.py" \
    --time-limit 20000 >"$WORK/checkers.json" 2>"$WORK/checkers.err" || fail "checkers match: $(tail -3 "$WORK/checkers.err")"
"$PY" "$ROOT/scripts/check_record.py" "$WORK/checkers.json" || fail "checkers match records"

step "the registry: arena games lists every built-in game; a match and perft for each new game"
"$ARENA" games >"$WORK/games.txt" || fail "arena games: $(cat "$WORK/games.txt")"
for game in shobu checkers breakthrough connect4; do
    grep -q "^$game " "$WORK/games.txt" || fail "arena games does not list $game"
done
[ "$("$ARENA" perft --game breakthrough --depth 3 --json | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["nodes"])')" = 11132 ] || fail "breakthrough perft(3)"
[ "$("$ARENA" perft --game connect4 --depth 7 --json | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["nodes"])')" = 823536 ] || fail "connect4 perft(7)"
for game in breakthrough connect4; do
    "$ARENA" match --game "$game" --games 2 --seed 3 "python3 bots/${game}_greedy.py" "python3 bots/${game}_random.py" \
        --time-limit 20000 >"$WORK/$game.json" 2>"$WORK/$game.err" || fail "$game match: $(tail -3 "$WORK/$game.err")"
    "$PY" "$ROOT/scripts/check_record.py" "$WORK/$game.json" || fail "$game match records"
done

step "games of more than two players: four bots (one crashes and is out), a person's view in a replay, perft"
for game in goofspiel kuhn_poker leduc_poker love_letter pig; do
    grep -q "^$game .*json-seats" "$WORK/games.txt" || fail "arena games does not list $game"
done
"$ARENA" match "python3 bots/goofspiel_heuristic.py" "python3 -c 'import sys; sys.stdin.readline(); sys.exit(3)'" \
    "python3 bots/goofspiel_random.py" "python3 bots/goofspiel_random.py" --game goofspiel --param num_cards=5 \
    --games 2 --seed 3 >"$WORK/goofspiel4.json" 2>"$WORK/goofspiel4.err" || fail "goofspiel match: $(tail -3 "$WORK/goofspiel4.err")"
"$PY" "$ROOT/scripts/check_record.py" "$WORK/goofspiel4.json" || fail "goofspiel records"
"$PY" -c 'import json, sys
records = json.load(open(sys.argv[1]))
assert all(len(r["eliminations"]) == 1 and r["ranks"][r["eliminations"][0]["seat"]] == 4 for r in records), records
' "$WORK/goofspiel4.json" || fail "the crashing goofspiel bot was not eliminated and ranked last"
"$ARENA" match "python3 bots/love_letter_heuristic.py" "python3 bots/love_letter_random.py" \
    "python3 bots/love_letter_random.py" --game love_letter --param tokens_to_win=1 --seed 5 \
    >"$WORK/love.json" 2>"$WORK/love.err" || fail "love letter match: $(tail -3 "$WORK/love.err")"
"$PY" "$ROOT/scripts/check_record.py" "$WORK/love.json" || fail "love letter record"
"$ARENA" replay "$WORK/love.json" --seat 1 >"$WORK/love-seat1.txt" || fail "love letter replay as seat 1"
grep -q "as seat 1 saw it" "$WORK/love-seat1.txt" || fail "the seat replay does not say whose view it is"
# Chess's perft convention (docs/matches.md): a game that ended before the depth adds nothing, so
# depth 8 counts the hands still going after 8 steps (every hand of 3 players is over by depth 9).
[ "$("$ARENA" perft --game kuhn_poker --players 3 --depth 8 --json | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["nodes"])')" = 96 ] || fail "kuhn poker perft(8), 3 players"

step "a tournament of four seats: a Goofspiel round robin of five bots, SIGKILLed and resumed, checked and reported"
"$ARENA" run examples/goofspiel-four-players.json --logs "$WORK/logs" >"$WORK/rr4.out" 2>&1 &
rr4=$!
for _ in $(seq 600); do
    [ "$(wc -l 2>/dev/null <"$WORK/logs/goofspiel4/games.jsonl" || echo 0)" -ge 6 ] && break
    sleep 0.1
done
kill -9 "$rr4" 2>/dev/null; wait "$rr4" 2>/dev/null || true
"$ARENA" run examples/goofspiel-four-players.json --logs "$WORK/logs" --json >"$WORK/rr4.json" 2>"$WORK/rr4.err" \
    || fail "resuming the four-seat round robin: $(tail -3 "$WORK/rr4.err")"
"$PY" -c 'import collections, json, sys
summary = json.load(open(sys.argv[1]))
assert summary["complete"] and summary["games_finished"] == 20 and summary["players"] == 4, summary
rows = [json.loads(line) for line in open(sys.argv[2])]
assert sorted(r["index"] for r in rows) == list(range(20)), "a game lost or played twice"
seats = collections.Counter((agent, seat) for r in rows for seat, agent in enumerate(r["seats"]))
assert set(seats.values()) == {4} and len(seats) == 20, seats
' "$WORK/rr4.json" "$WORK/logs/goofspiel4/games.jsonl" || fail "the resumed four-seat round robin"
"$ARENA" check-logs "$WORK/logs/goofspiel4" >"$WORK/rr4-check.out" || fail "check-logs of the four-seat round robin: $(cat "$WORK/rr4-check.out")"
"$ARENA" report "$WORK/logs/goofspiel4" --out "$WORK/rr4.html" >/dev/null || fail "report of the four-seat round robin"

step "a game plugin: examples/arena-tictactoe installed with pip appears in arena games and plays a match"
"$PY" -m pip install --quiet --no-deps -e examples/arena-tictactoe >"$WORK/plugin-install.out" 2>&1 \
    || fail "pip install of the plugin example: $(tail -3 "$WORK/plugin-install.out")"
uninstall_plugin() { "$PY" -m pip uninstall --quiet -y arena-tictactoe >/dev/null 2>&1 || true; }
trap 'uninstall_plugin; rm -rf "$WORK"' EXIT
# Listed into a file, not piped: grep -q stops reading at its match, and the rest of the listing
# would then meet a closed pipe (SIGPIPE, a failed pipeline under pipefail).
"$ARENA" games >"$WORK/games.txt" || fail "arena games with the plugin installed"
grep -q "^tictactoe .* arena-tictactoe" "$WORK/games.txt" || fail "the installed plugin is not in arena games"
bot="python3 examples/arena-tictactoe/bots/tictactoe_random.py"
"$ARENA" match --game tictactoe --games 2 --seed 1 "$bot" "$bot" >"$WORK/ttt.json" 2>"$WORK/ttt.err" \
    || fail "tictactoe match: $(tail -3 "$WORK/ttt.err")"
"$PY" "$ROOT/scripts/check_record.py" "$WORK/ttt.json" || fail "tictactoe records"
"$PY" -m arena.games.conformance tictactoe >"$WORK/ttt-conformance.out" 2>&1 \
    || fail "conformance of the plugin: $(tail -3 "$WORK/ttt-conformance.out")"
uninstall_plugin
"$ARENA" games >"$WORK/games.txt" || fail "arena games after the plugin's uninstall"
grep -q "^tictactoe " "$WORK/games.txt" && fail "the plugin is still listed after pip uninstall"

step "see the games: a record from the true start, check-record, replay (piped) and PDN export"
"$ARENA" match --game checkers --opening-plies 4 --seed 11 "python3 bots/checkers_greedy.py" "python3 bots/checkers_random.py" \
    --time-limit 20000 --out "$WORK/opening.json" 2>"$WORK/opening.err" || fail "match with an opening: $(tail -3 "$WORK/opening.err")"
"$ARENA" check-record "$WORK/opening.json" || fail "arena check-record"
"$PY" - "$WORK/opening.json" <<'EOF' || fail "the record does not start at the true start"
import json, sys
record = json.load(open(sys.argv[1]))
assert record["game_states"][0]["turnNumber"] == 0 and [t["opening"] for t in record["turns"][:5]] == [True] * 4 + [False]
EOF
"$ARENA" replay "$WORK/opening.json" >"$WORK/replay.txt" 2>"$WORK/replay.err" || fail "arena replay: $(tail -3 "$WORK/replay.err")"
grep -q "^result: " "$WORK/replay.txt" || fail "arena replay printed no result line"
"$ARENA" export --pdn "$WORK/opening.json" "$WORK/checkers.json" -o "$WORK/games.pdn" || fail "arena export --pdn"
[ "$(grep -c '^\[Event ' "$WORK/games.pdn")" = 3 ] || fail "the PDN file does not hold 3 games"

step "a small round robin per game"
for game in shobu checkers breakthrough connect4; do
    "$ARENA" run "configs/${game}_round_robin.json" --logs "$WORK/rr-$game" </dev/null >"$WORK/rr-$game.out" 2>&1 \
        || fail "$game round robin: $(tail -3 "$WORK/rr-$game.out")"
    "$PY" "$ROOT/scripts/check_logs.py" "$WORK/rr-$game"/* || fail "$game round robin logs"
done

step "an HTML report of a round robin"
"$ARENA" report "$WORK/rr-checkers/checkers_round_robin" -o "$WORK/report.html" || fail "arena report"
[ -s "$WORK/report.html" ] && grep -q 'id="arena-game-0"' "$WORK/report.html" || fail "the report holds no game"
grep -Eq '(src|href)="https?:' "$WORK/report.html" && fail "the report loads something from the network"

step "is my bot better: llr, check-bot, an opening book and a short SPRT"
"$ARENA" llr --pentanomial 3,10,20,12,5 --elo0 0 --elo1 10 >"$WORK/llr.json" || fail "arena llr"
"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["verdict"] == "continue" and abs(d["llr"] - 0.19412) < 1e-4, d' "$WORK/llr.json" \
    || fail "arena llr printed $(cat "$WORK/llr.json")"
"$ARENA" check-bot "python3 bots/checkers_greedy.py" --game checkers --games 1 >"$WORK/check-bot.txt" \
    || fail "check-bot on the greedy checkers bot: $(cat "$WORK/check-bot.txt")"
"$ARENA" openings --game connect4 --plies 2 --count 6 --depth 1 -o "$WORK/book.jsonl" 2>/dev/null || fail "arena openings"
set +e
"$ARENA" sprt "python3 bots/connect4_greedy.py" "python3 bots/connect4_random.py" --game connect4 --elo1 200 \
    --openings "$WORK/book.jsonl" --max-pairs 20 --logs "$WORK/sprt" --json >"$WORK/sprt.json" 2>"$WORK/sprt.err"
status=$?
set -e
[ "$status" = 0 ] || fail "sprt greedy vs random should accept H1 (exit 0), got $status: $(tail -3 "$WORK/sprt.err")"
"$PY" "$ROOT/scripts/check_record.py" "$WORK/sprt"/games/*.json >/dev/null || fail "sprt records"
# The same kind of test from a tournament config: a hyperparameters agent against a bot, capped.
cat >"$WORK/sprt-config.json" <<EOF
{"id": "sprt-config", "game": "connect4", "timeLimit": 20000, "seed": 5, "openingPlies": 2,
 "agents": [{"type": "hyperparameters", "id": "search", "path": "$ROOT/configs/hyperparameters_connect4.json"},
            {"type": "executable", "id": "random", "path": "python3 $ROOT/bots/connect4_random.py"}],
 "sprt": {"elo0": 0, "elo1": 200, "maxPairs": 3}}
EOF
set +e
"$ARENA" run "$WORK/sprt-config.json" --logs "$WORK/sprt-logs" --json >"$WORK/sprt-config.out" 2>"$WORK/sprt-config.err"
status=$?
set -e
[ "$status" = 4 ] || fail "sprt config run: exit $status (4 expected: capped undecided): $(tail -3 "$WORK/sprt-config.err")"
"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["pairs"] == 3 and d["stopped"] == "max-pairs", d' \
    "$WORK/sprt-config.out" || fail "sprt config summary: $(cat "$WORK/sprt-config.out")"
"$ARENA" replay "$WORK/sprt-logs/sprt-config" --game 1 >/dev/null || fail "replay of an SPRT folder"

step "a misbehaving bot forfeits with its reason recorded"
cat >"$WORK/garbage_bot.py" <<'EOF'
import sys
for line in sys.stdin:
    print("I resign? no: this is not JSON", flush=True)
EOF
"$ARENA" match --game shobu "python3 $WORK/garbage_bot.py" "python3 bots/shobu_random.py" --time-limit 5000 \
    >"$WORK/garbage.json" 2>"$WORK/garbage.err" || fail "match with a misbehaving bot exited non-zero"
"$PY" - "$WORK/garbage.json" <<'EOF' || fail "misbehaving bot's forfeit"
import json, sys
record = json.load(open(sys.argv[1]))
assert record["termination"] == "malformed_reply", record["termination"]
assert record["winner"] == "WHITE", record["winner"]
assert "not JSON" in record["reason"], record["reason"]
print("forfeit recorded:", record["reason"])
EOF

step "fair play end to end: a sandboxed match, kill -9 of a running tournament leaves nothing, resume"
if "$PY" -c 'import sys; from arena.process.isolation import sandbox_available as s; sys.exit(s() is not None)'; then
    "$ARENA" match --game checkers --sandbox "python3 bots/checkers_greedy.py" "python3 bots/checkers_random.py" \
        --time-limit 20000 >"$WORK/sandboxed.json" 2>"$WORK/sandboxed.err" || fail "sandboxed match: $(tail -3 "$WORK/sandboxed.err")"
    "$PY" "$ROOT/scripts/check_record.py" "$WORK/sandboxed.json" || fail "sandboxed match record"
else
    echo "bubblewrap unavailable here: sandboxed match skipped"
fi
MARK="integration-marker-$$"
cp bots/shobu_greedy.py "$WORK/greedy_$MARK.py"
printf '%s\n' "{\"id\": \"kill9\", \"game\": \"shobu\", \"gamesPerPair\": 6, \"maxMoves\": 40, \"timeLimit\": 20000," \
    " \"concurrency\": 2, \"agents\": [{\"id\": \"g\", \"path\": \"python3 greedy_$MARK.py\"}," \
    " {\"id\": \"r\", \"path\": \"python3 $ROOT/bots/shobu_random.py\"}]}" >"$WORK/kill9.json"
"$ARENA" run "$WORK/kill9.json" --logs "$WORK/k9" </dev/null >"$WORK/k9.out" 2>&1 &
ARENA_PID=$!
# "[i]ntegration..." matches the bots' argv but not grep's own.
marked() { grep -l "[i]${MARK:1}" /proc/[0-9]*/cmdline 2>/dev/null || true; }
for _ in $(seq 100); do [ -n "$(marked)" ] && break; sleep 0.1; done
[ -n "$(marked)" ] || fail "the tournament's bots never started: $(tail -3 "$WORK/k9.out")"
kill -9 "$ARENA_PID"
wait "$ARENA_PID" 2>/dev/null || true
for _ in $(seq 50); do [ -z "$(marked)" ] && break; sleep 0.1; done
[ -z "$(marked)" ] || fail "processes left after kill -9 of arena: $(marked)"
"$ARENA" run "$WORK/kill9.json" --logs "$WORK/k9" </dev/null >"$WORK/k9b.out" 2>&1 \
    || fail "resume after kill -9: $(tail -3 "$WORK/k9b.out")"
"$PY" "$ROOT/scripts/check_logs.py" "$WORK/k9/kill9" || fail "logs after kill -9 and resume"
echo "kill -9: nothing left behind; the resumed run completed"

printf '\nintegration: all checks passed\n'
