/* breakthrough-referee: arena's external rules protocol (version 1) for Breakthrough.
 *
 * Reads one JSON request per line on stdin and answers each with exactly one JSON object on one
 * line on stdout, then flushes. No state is kept between requests: each carries its state.
 *
 * State (the same JSON form as arena's own Breakthrough):
 *   {"board": [8 strings, row 8 first, "b"/"w"/"."], "turn": "BLACK"|"WHITE", "turnNumber": n}
 * Seats: 0 is Black (moves first, up the board), 1 is White. Wire move: {"from": "a2", "to": "a3"};
 * notation "a2-a3", "b4xc5" for a capture. Commands: info, new, apply, node, observation, board,
 * playout; nodes carry a hash and the acting seat's observation (the whole state). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "breakthrough.h"
#include "json.h"

#define MAX_LINE (1u << 20)
#define MAX_PLAYOUTS 1000000LL
#define MAX_TURN_NUMBER 1000000000LL

typedef struct {
    jdoc doc;
    jbuf out;
    char error[200];
} referee;

/* --- reading -------------------------------------------------------------------------------- */

static int set_error(referee *r, const char *message) {
    snprintf(r->error, sizeof r->error, "%s", message);
    return -1;
}

/* Whether object `obj` has exactly the members named in `names` (NULL-terminated). */
static int exact_members(referee *r, int obj, const char *const names[], const char *what) {
    int count = 0;
    for (const char *const *name = names; *name; name++) {
        if (json_member(&r->doc, obj, *name) < 0) {
            snprintf(r->error, sizeof r->error, "%s: missing \"%s\"", what, *name);
            return -1;
        }
        count++;
    }
    if (r->doc.nodes[obj].count != count) {
        snprintf(r->error, sizeof r->error, "%s: unexpected members (expected exactly %d)", what, count);
        return -1;
    }
    return 0;
}

static int read_state(referee *r, int v, bt_state *s) {
    static const char *const names[] = {"board", "turn", "turnNumber", NULL};
    const jdoc *d = &r->doc;
    if (v < 0 || d->nodes[v].type != J_OBJECT) return set_error(r, "state must be an object");
    if (exact_members(r, v, names, "state") < 0) return -1;
    int board = json_member(d, v, "board"), turn = json_member(d, v, "turn");
    int number = json_member(d, v, "turnNumber");
    if (d->nodes[board].type != J_ARRAY || d->nodes[board].count != 8) {
        return set_error(r, "state: board must be a list of 8 strings (row 8 first)");
    }
    s->black = s->white = 0;
    int row = 8;
    for (int line = d->nodes[board].first; line >= 0; line = d->nodes[line].next, row--) {
        if (d->nodes[line].type != J_STRING || d->nodes[line].str_len != 8) {
            snprintf(r->error, sizeof r->error, "state: board row %d must be a string of 8 squares", row);
            return -1;
        }
        for (int col = 0; col < 8; col++) {
            uint64_t bit = UINT64_C(1) << (8 * (row - 1) + col);
            char c = d->nodes[line].str[col];
            if (c == 'b') s->black |= bit;
            else if (c == 'w') s->white |= bit;
            else if (c != '.') {
                snprintf(r->error, sizeof r->error, "state: board square %c%d is not one of b w .", 'a' + col, row);
                return -1;
            }
        }
    }
    if (json_is(d, turn, "BLACK")) s->turn = 0;
    else if (json_is(d, turn, "WHITE")) s->turn = 1;
    else return set_error(r, "state: turn must be \"BLACK\" or \"WHITE\"");
    const jval *n = &d->nodes[number];
    if (n->type != J_NUMBER || !n->is_integer || n->integer < 0 || n->integer > MAX_TURN_NUMBER) {
        return set_error(r, "state: turnNumber must be a non-negative integer");
    }
    s->ply = n->integer;
    /* Refuse what no game reaches, as arena does: too many pieces, the mover already on its far
     * row (the game ended when it got there), the side that just moved without pieces. */
    int black_count = 0, white_count = 0;
    for (uint64_t b = s->black; b; b &= b - 1) black_count++;
    for (uint64_t w = s->white; w; w &= w - 1) white_count++;
    if (black_count > 16 || white_count > 16) return set_error(r, "state: at most 16 pieces a side");
    uint64_t mine = s->turn ? s->white : s->black, theirs = s->turn ? s->black : s->white;
    if (mine & (s->turn == 0 ? UINT64_C(0xFF) << 56 : UINT64_C(0xFF))) {
        return set_error(r, "state: the side to move already stands on its far row");
    }
    if (!theirs) return set_error(r, "state: the side that made the last move has no pieces");
    return 0;
}

static int read_square(const jdoc *d, int v) {
    if (v < 0 || d->nodes[v].type != J_STRING || d->nodes[v].str_len != 2) return -1;
    char f = d->nodes[v].str[0], rank = d->nodes[v].str[1];
    if (f < 'a' || f > 'h' || rank < '1' || rank > '8') return -1;
    return (f - 'a') + 8 * (rank - '1');
}

/* The legal move of `s` that `v` names ({"from": "a2", "to": "a3"}), with its capture flag. */
static int read_move(referee *r, int v, const bt_state *s, bt_move *move) {
    static const char *const names[] = {"from", "to", NULL};
    if (v < 0 || r->doc.nodes[v].type != J_OBJECT) {
        return set_error(r, "move must be an object {\"from\": \"a2\", \"to\": \"a3\"}");
    }
    if (exact_members(r, v, names, "move") < 0) return -1;
    int origin = read_square(&r->doc, json_member(&r->doc, v, "from"));
    int target = read_square(&r->doc, json_member(&r->doc, v, "to"));
    if (origin < 0 || target < 0) return set_error(r, "move: squares are a1-h8 in lower case");
    bt_move moves[BT_MAX_MOVES];
    int n = bt_legal_moves(s, moves);
    for (int i = 0; i < n; i++) {
        if (moves[i].origin == origin && moves[i].target == target) {
            *move = moves[i];
            return 0;
        }
    }
    return set_error(r, "move: not a legal move in this state");
}

/* A non-negative integer no larger than `high`, or -1. */
static long long read_count(const jdoc *d, int v, long long high) {
    if (v < 0 || d->nodes[v].type != J_NUMBER || !d->nodes[v].is_integer) return -1;
    long long value = d->nodes[v].integer;
    return value < 0 || value > high ? -1 : value;
}

/* --- writing -------------------------------------------------------------------------------- */

static void write_state(jbuf *b, const bt_state *s) {
    jbuf_text(b, "{\"board\":[");
    for (int row = 8; row >= 1; row--) {
        char line[8];
        for (int col = 0; col < 8; col++) {
            uint64_t bit = UINT64_C(1) << (8 * (row - 1) + col);
            line[col] = (s->black & bit) ? 'b' : (s->white & bit) ? 'w' : '.';
        }
        if (row < 8) jbuf_char(b, ',');
        jbuf_string(b, line, 8);
    }
    jbuf_text(b, s->turn ? "],\"turn\":\"WHITE\",\"turnNumber\":" : "],\"turn\":\"BLACK\",\"turnNumber\":");
    jbuf_int(b, s->ply);
    jbuf_char(b, '}');
}

/* `:[...]`: the moves as wire objects {"from": "a2", "to": "a3"}, or as notation "a2-a3" / "b4xc5". */
static void write_moves(jbuf *b, const bt_move *moves, int n, int notation) {
    jbuf_text(b, ":[");
    for (int i = 0; i < n; i++) {
        char from[3], to[3];
        bt_square_name(moves[i].origin, from);
        bt_square_name(moves[i].target, to);
        if (i) jbuf_char(b, ',');
        jbuf_text(b, notation ? "\"" : "{\"from\":\"");
        jbuf_text(b, from);
        if (notation) jbuf_char(b, moves[i].capture ? 'x' : '-');
        else jbuf_text(b, "\",\"to\":\"");
        jbuf_text(b, to);
        jbuf_text(b, notation ? "\"" : "\"}");
    }
    jbuf_char(b, ']');
}

static void write_node(jbuf *b, const bt_state *s) {
    bt_move moves[BT_MAX_MOVES];
    int n = bt_legal_moves(s, moves);
    int winner = n ? -1 : 1 - s->turn;  /* no legal move: the game is over, the mover lost */
    jbuf_text(b, "{\"state\":");
    write_state(b, s);
    jbuf_text(b, ",\"actor\":");
    jbuf_int(b, winner < 0 ? s->turn : -4);
    if (winner < 0) {
        const char *seat = s->turn ? "\"1\"" : "\"0\"";
        jbuf_text(b, ",\"legal\":{");
        jbuf_text(b, seat);
        write_moves(b, moves, n, 0);
        jbuf_text(b, "},\"notation\":{");
        jbuf_text(b, seat);
        write_moves(b, moves, n, 1);
        jbuf_text(b, "},\"observations\":{");
        jbuf_text(b, seat);
        jbuf_char(b, ':');
        write_state(b, s);
        jbuf_char(b, '}');
    } else {
        jbuf_text(b, winner == 0 ? ",\"legal\":{},\"returns\":[1,-1]" : ",\"legal\":{},\"returns\":[-1,1]");
    }
    char hash[17];
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)bt_hash(s));
    jbuf_text(b, ",\"ply\":");
    jbuf_int(b, s->ply);
    jbuf_text(b, ",\"hash\":\"");
    jbuf_text(b, hash);
    jbuf_text(b, "\"}");
}

static void write_board(jbuf *b, const bt_state *s) {
    char text[8 * 20 + 2 * 20];
    size_t n = (size_t)snprintf(text, sizeof text, "  a b c d e f g h\n");
    for (int row = 8; row >= 1; row--) {
        n += (size_t)snprintf(text + n, sizeof text - n, "%d", row);
        for (int col = 0; col < 8; col++) {
            uint64_t bit = UINT64_C(1) << (8 * (row - 1) + col);
            n += (size_t)snprintf(text + n, sizeof text - n, " %c",
                                  (s->black & bit) ? 'b' : (s->white & bit) ? 'w' : '.');
        }
        n += (size_t)snprintf(text + n, sizeof text - n, " %d\n", row);
    }
    n += (size_t)snprintf(text + n, sizeof text - n, "  a b c d e f g h");
    jbuf_text(b, "{\"text\":");
    jbuf_string(b, text, n);
    jbuf_char(b, '}');
}

/* --- commands ------------------------------------------------------------------------------- */

static const char INFO[] =
    "{\"protocol\":1,\"name\":\"breakthrough_c\",\"min_players\":2,\"max_players\":2,"
    "\"default_players\":2,\"parameters\":{},\"default_max_moves\":177,"
    "\"features\":[\"hash\",\"board\",\"playout\",\"perfect_information\"]}";

static int command_new(referee *r, int root) {
    const jdoc *d = &r->doc;
    int players = json_member(d, root, "players"), params = json_member(d, root, "params");
    if (players >= 0 && read_count(d, players, 1000) != 2) return set_error(r, "new: Breakthrough has 2 players");
    if (params >= 0 && d->nodes[params].type != J_NULL
        && (d->nodes[params].type != J_OBJECT || d->nodes[params].count != 0)) {
        return set_error(r, "new: Breakthrough has no parameters");
    }
    bt_state s = bt_initial();
    write_node(&r->out, &s);
    return 0;
}

static int command_apply(referee *r, int root) {
    bt_state s;
    bt_move m;
    if (read_state(r, json_member(&r->doc, root, "state"), &s) < 0) return -1;
    if (read_move(r, json_member(&r->doc, root, "move"), &s, &m) < 0) return -1;
    bt_state next = bt_apply(&s, m);
    write_node(&r->out, &next);
    return 0;
}

static int command_seat_view(referee *r, int root, int board) {
    bt_state s;
    if (read_state(r, json_member(&r->doc, root, "state"), &s) < 0) return -1;
    int seat = json_member(&r->doc, root, "seat");
    int null_seat = seat >= 0 && r->doc.nodes[seat].type == J_NULL;
    if (!(board && (seat < 0 || null_seat)) && read_count(&r->doc, seat, 1) < 0) {
        return set_error(r, board ? "board: seat must be 0, 1 or null" : "observation: seat must be 0 or 1");
    }
    if (board) {
        write_board(&r->out, &s);
    } else {
        jbuf_text(&r->out, "{\"observation\":");
        write_state(&r->out, &s);
        jbuf_char(&r->out, '}');
    }
    return 0;
}

static int command_playout(referee *r, int root) {
    const jdoc *d = &r->doc;
    bt_state s;
    if (read_state(r, json_member(d, root, "state"), &s) < 0) return -1;
    int seed = json_member(d, root, "seed");
    if (seed < 0 || d->nodes[seed].type != J_NUMBER || !d->nodes[seed].is_integer) {
        return set_error(r, "playout: seed must be an integer");
    }
    long long count = read_count(d, json_member(d, root, "count"), MAX_PLAYOUTS);
    if (count < 0) return set_error(r, "playout: count must be an integer 0-1000000");
    uint64_t rng = (uint64_t)d->nodes[seed].integer;
    jbuf_text(&r->out, "{\"returns\":[");
    for (long long i = 0; i < count; i++) {
        if (i) jbuf_char(&r->out, ',');
        jbuf_text(&r->out, bt_playout(s, &rng) == 0 ? "[1,-1]" : "[-1,1]");
    }
    jbuf_text(&r->out, "]}");
    return 0;
}

static void answer(referee *r, char *line, size_t len) {
    r->out.len = 0;
    int root = json_parse(&r->doc, line, len, r->error, sizeof r->error);
    int status = -1;
    if (root >= 0) {
        int cmd = json_member(&r->doc, root, "cmd");
        if (r->doc.nodes[root].type != J_OBJECT) status = set_error(r, "a request must be a JSON object");
        else if (cmd < 0 || r->doc.nodes[cmd].type != J_STRING) status = set_error(r, "a request needs \"cmd\"");
        else if (json_is(&r->doc, cmd, "info")) status = (jbuf_text(&r->out, INFO), 0);
        else if (json_is(&r->doc, cmd, "new")) status = command_new(r, root);
        else if (json_is(&r->doc, cmd, "apply")) status = command_apply(r, root);
        else if (json_is(&r->doc, cmd, "node")) {
            bt_state s;
            status = read_state(r, json_member(&r->doc, root, "state"), &s);
            if (status == 0) write_node(&r->out, &s);
        } else if (json_is(&r->doc, cmd, "observation")) status = command_seat_view(r, root, 0);
        else if (json_is(&r->doc, cmd, "board")) status = command_seat_view(r, root, 1);
        else if (json_is(&r->doc, cmd, "playout")) status = command_playout(r, root);
        else status = set_error(r, "unknown command (this referee knows info, new, apply, node,"
                                   " observation, board, playout)");
    }
    if (status < 0) {
        r->out.len = 0;
        jbuf_text(&r->out, "{\"error\":");
        jbuf_cstring(&r->out, r->error);
        jbuf_char(&r->out, '}');
    }
    jbuf_char(&r->out, '\n');
    fwrite(r->out.data, 1, r->out.len, stdout);
    fflush(stdout);
}

int main(void) {
    static referee r;
    size_t capacity = 4096, len = 0;
    char *line = malloc(capacity);
    int too_long = 0, c;
    if (!line) return 1;
    /* Lines are read byte by byte from stdio's buffer: standard C has no getline. */
    while ((c = getchar()) != EOF) {
        if (c != '\n') {
            if (too_long) continue;
            if (len + 1 == capacity) {
                if (capacity >= MAX_LINE) {
                    too_long = 1;
                    continue;
                }
                char *grown = realloc(line, capacity * 2);
                if (!grown) return 1;
                line = grown;
                capacity *= 2;
            }
            line[len++] = (char)c;
            continue;
        }
        if (too_long) {
            char message[] = "{\"error\":\"request line longer than 1 MiB\"}\n";
            fwrite(message, 1, sizeof message - 1, stdout);
            fflush(stdout);
        } else {
            size_t start = 0;
            while (start < len && (line[start] == ' ' || line[start] == '\t' || line[start] == '\r')) start++;
            if (start < len) answer(&r, line, len);  /* a blank line is no request */
        }
        len = 0;
        too_long = 0;
    }
    free(line);
    free(r.doc.nodes);
    free(r.out.data);
    return 0;
}
