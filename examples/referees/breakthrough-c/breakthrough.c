/* The rules of breakthrough.h, on two 64-bit masks (bit = square index). */
#include "breakthrough.h"

#define FILE_A UINT64_C(0x0101010101010101)
#define FILE_H (FILE_A << 7)
#define ROW_1 UINT64_C(0xFF)
#define ROW_8 (ROW_1 << 56)

bt_state bt_initial(void) {
    bt_state s = {UINT64_C(0xFFFF), UINT64_C(0xFFFF) << 48, 0, 0};
    return s;
}

static int popcount64(uint64_t x) {
    int n = 0;
    while (x) {
        x &= x - 1;
        n++;
    }
    return n;
}

static int lowest_bit(uint64_t x) {
    int n = 0;
    while (!(x & 1)) {
        x >>= 1;
        n++;
    }
    return n;
}

/* Target masks per direction, as arena's move_masks: straight, towards file a, towards file h. */
static void move_masks(const bt_state *s, uint64_t out[3]) {
    uint64_t mine = s->turn ? s->white : s->black;
    uint64_t theirs = s->turn ? s->black : s->white;
    uint64_t empty = ~(mine | theirs);
    if (s->turn == 0) {
        out[0] = (mine << 8) & empty;
        out[1] = ((mine & ~FILE_A) << 7) & ~mine;
        out[2] = ((mine & ~FILE_H) << 9) & ~mine;
    } else {
        out[0] = (mine >> 8) & empty;
        out[1] = ((mine & ~FILE_A) >> 9) & ~mine;
        out[2] = ((mine & ~FILE_H) >> 7) & ~mine;
    }
}

int bt_has_lost(const bt_state *s) {
    uint64_t mine = s->turn ? s->white : s->black;
    uint64_t theirs = s->turn ? s->black : s->white;
    return !mine || (theirs & (s->turn == 0 ? ROW_1 : ROW_8)) != 0;
}

int bt_count_moves(const bt_state *s) {
    uint64_t masks[3];
    move_masks(s, masks);
    return popcount64(masks[0]) + popcount64(masks[1]) + popcount64(masks[2]);
}

int bt_legal_moves(const bt_state *s, bt_move moves[BT_MAX_MOVES]) {
    if (bt_has_lost(s)) return 0;
    uint64_t masks[3];
    move_masks(s, masks);
    uint64_t theirs = s->turn ? s->black : s->white;
    /* Per origin the targets ascend in the order a-side, straight, h-side for both colours
     * (Black: +7, +8, +9; White: -9, -8, -7), so walking origins upwards gives arena's order. */
    static const int shift_black[3] = {7, 8, 9}, shift_white[3] = {-9, -8, -7};
    const int *shift = s->turn == 0 ? shift_black : shift_white;
    const uint64_t ordered[3] = {masks[1], masks[0], masks[2]};
    uint64_t mine = s->turn ? s->white : s->black;
    int n = 0;
    while (mine) {
        int origin = lowest_bit(mine);
        mine &= mine - 1;
        for (int d = 0; d < 3; d++) {
            int target = origin + shift[d];
            if (target >= 0 && target < 64 && (ordered[d] >> target & 1)) {
                bt_move m = {(int8_t)origin, (int8_t)target, (int8_t)(theirs >> target & 1)};
                moves[n++] = m;
            }
        }
    }
    return n;
}

bt_state bt_apply(const bt_state *s, bt_move m) {
    uint64_t from = UINT64_C(1) << m.origin, to = UINT64_C(1) << m.target;
    bt_state next = *s;
    if (s->turn == 0) {
        next.black = (s->black ^ from) | to;
        next.white = s->white & ~to;
    } else {
        next.white = (s->white ^ from) | to;
        next.black = s->black & ~to;
    }
    next.turn = 1 - s->turn;
    next.ply = s->ply + 1;
    return next;
}

int bt_winner(const bt_state *s) {
    if (bt_has_lost(s) || bt_count_moves(s) == 0) return 1 - s->turn;
    return -1;
}

uint64_t bt_splitmix64(uint64_t *state) {
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

uint64_t bt_hash(const bt_state *s) {
    static uint64_t keys[2][64], side;
    static int ready;
    if (!ready) {
        uint64_t seed = UINT64_C(20000);  /* fixed: hashes are stable across runs and machines */
        for (int c = 0; c < 2; c++) {
            for (int i = 0; i < 64; i++) keys[c][i] = bt_splitmix64(&seed);
        }
        side = bt_splitmix64(&seed);
        ready = 1;
    }
    uint64_t h = s->turn ? side : 0;
    for (uint64_t b = s->black; b; b &= b - 1) h ^= keys[0][lowest_bit(b)];
    for (uint64_t w = s->white; w; w &= w - 1) h ^= keys[1][lowest_bit(w)];
    return h;
}

/* The k-th set bit (from the bottom) of x, which has more than k set bits. */
static int nth_bit(uint64_t x, int k) {
    while (k--) x &= x - 1;
    return lowest_bit(x);
}

int bt_playout(bt_state s, uint64_t *rng) {
    static const int shift_black[3] = {8, 7, 9}, shift_white[3] = {-8, -9, -7};
    for (;;) {
        if (bt_has_lost(&s)) return 1 - s.turn;
        uint64_t masks[3];
        move_masks(&s, masks);
        int counts[3] = {popcount64(masks[0]), popcount64(masks[1]), popcount64(masks[2])};
        int total = counts[0] + counts[1] + counts[2];
        if (total == 0) return 1 - s.turn;
        /* Uniform over the moves: a 32-bit multiply-shift index, biased by under 48 / 2^32. */
        int k = (int)(((bt_splitmix64(rng) >> 32) * (uint64_t)total) >> 32);
        int d = 0;
        while (k >= counts[d]) k -= counts[d++];
        int target = nth_bit(masks[d], k);
        const int *shift = s.turn == 0 ? shift_black : shift_white;
        bt_move m = {(int8_t)(target - shift[d]), (int8_t)target, 0};
        s = bt_apply(&s, m);
    }
}

void bt_square_name(int index, char out[3]) {
    out[0] = (char)('a' + index % 8);
    out[1] = (char)('1' + index / 8);
    out[2] = 0;
}
