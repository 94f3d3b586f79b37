#!/usr/bin/env bash
# The distribution as a user outside the checkout gets it: `python -m build` makes the sdist, then
# the wheel from that sdist (so both are checked); the wheel goes into a fresh venv, and the
# installed `arena` answers --version, lists the games and plays one short game from another
# folder. `make dist` runs it, and so does .ci/run. Usage: scripts/check_dist.sh [PYTHON]
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PY=${1:-.venv/bin/python}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
chmod 755 "$WORK"  # bots run as users of their own: their command's folders must be open to them
fail() { echo "check_dist: $*" >&2; exit 1; }

"$PY" -m build --outdir "$WORK/dist" . >"$WORK/build.log" 2>&1 || fail "python -m build failed: $(tail -5 "$WORK/build.log")"
SDIST=$(ls "$WORK"/dist/arena_bots-*.tar.gz) || fail "no sdist named arena_bots-*.tar.gz"
WHEEL=$(ls "$WORK"/dist/arena_bots-*-py3-none-any.whl) || fail "no wheel named arena_bots-*.whl"
# Nothing of a working copy's leftovers ships (a profile dump, test folders, logs).
if tar tzf "$SDIST" | grep -E '^[^/]+/(run|\.pytest-tmp/|tournament_logs/|match_logs/)' ; then
    fail "the sdist holds files of a working copy (above)"
fi
unzip -l "$WHEEL" | grep -q 'arena/schemas/record.schema.json' || fail "the wheel lacks arena/schemas/*.json"

"$PY" -m venv "$WORK/venv"
"$WORK/venv/bin/python" -m pip install --quiet "$WHEEL" >"$WORK/install.log" 2>&1 \
    || fail "pip install of the wheel failed: $(tail -5 "$WORK/install.log")"
cd "$WORK"  # not the checkout: the installed package, not the source folder, must answer
# Output captured first: `grep -q` stops reading early, and pipefail would count arena's broken pipe.
VERSION=$("$WORK/venv/bin/arena" --version) || fail "arena --version failed"
[[ $VERSION == "arena, version "* ]] || fail "arena --version said: $VERSION"
GAMES=$("$WORK/venv/bin/arena" games) || fail "arena games failed"
[[ $GAMES == *checkers* ]] || fail "arena games does not list checkers"
"$WORK/venv/bin/arena" match --game shobu --max-moves 2 --no-sandbox \
    "python3 $ROOT/bots/shobu_random.py" "python3 $ROOT/bots/shobu_random.py" \
    >"$WORK/record.json" 2>"$WORK/match.log" || fail "arena match: $(tail -3 "$WORK/match.log")"
"$WORK/venv/bin/python" -c "import json, sys; r = json.load(open(sys.argv[1])); assert r['plies'] == 2, r" \
    "$WORK/record.json" || fail "the installed arena's record is not a 2-ply game"
echo "check_dist: $(basename "$SDIST") and $(basename "$WHEEL") build, install and play"
