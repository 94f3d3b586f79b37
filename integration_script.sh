#!/usr/bin/env bash
# End-to-end check of arena from the root of a fresh clone (CI runs it after the tests).
# It sets up through the README's own command (`make run`, which also plays the default tournament),
# then drives every user-facing path and checks what it wrote. Stops at the first failure, non-zero.
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$(pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/arena-integration.XXXXXX")
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
(cd bots && export PATH="$ROOT/.venv/bin:$PATH" && arena match "python bot1.py" "./bot2" >"$WORK/readme-match.json" 2>"$WORK/readme-match.err") \
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

step "a small round robin per game"
for game in shobu checkers; do
    "$ARENA" run "configs/${game}_round_robin.json" --logs "$WORK/rr-$game" </dev/null >"$WORK/rr-$game.out" 2>&1 \
        || fail "$game round robin: $(tail -3 "$WORK/rr-$game.out")"
    "$PY" "$ROOT/scripts/check_logs.py" "$WORK/rr-$game"/* || fail "$game round robin logs"
done

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

printf '\nintegration: all checks passed\n'
