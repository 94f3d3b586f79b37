/* The rules of Breakthrough, exactly as arena/games/breakthrough.py has them.
 *
 * Files a-h left to right, rows 1-8; square index file + 8 * (row - 1): a1 = 0, h8 = 63.
 * Black (seat 0) starts on rows 1-2, moves first and plays up, towards row 8; White (seat 1)
 * starts on rows 7-8 and plays down. A piece moves one square straight forward onto an empty
 * square, or one square diagonally forward onto an empty or enemy square (a capture). A side wins
 * when one of its pieces reaches the far row or it captures the last enemy piece; a side to move
 * with no legal move loses (this cannot happen while it has a piece). Pure: no I/O. */
#ifndef BREAKTHROUGH_H
#define BREAKTHROUGH_H

#include <stdint.h>

#define BT_MAX_MOVES 48 /* 16 pieces, 3 moves each at most */

typedef struct {
    uint64_t black;
    uint64_t white;
    int turn;        /* 0: Black to move, 1: White to move */
    long long ply;   /* plies played so far (arena's turnNumber) */
} bt_state;

typedef struct {
    int8_t origin;
    int8_t target;
    int8_t capture;
} bt_move;

bt_state bt_initial(void);

/* The side to move has lost: the opponent stands on its far row or it has no pieces. */
int bt_has_lost(const bt_state *s);

/* Every legal move, by origin square then target square (arena's order); 0 when the game is over. */
int bt_legal_moves(const bt_state *s, bt_move moves[BT_MAX_MOVES]);

/* Number of legal moves of the side to move, game-over check excluded. */
int bt_count_moves(const bt_state *s);

/* The state after `m`, which must be legal in `s` (not checked). */
bt_state bt_apply(const bt_state *s, bt_move m);

/* -1 while the game goes on, else the winning seat (0 Black, 1 White). */
int bt_winner(const bt_state *s);

/* A position's Zobrist hash (pieces and side to move; the ply is not part of a position). */
uint64_t bt_hash(const bt_state *s);

/* A uniformly random game to the end from `s` with splitmix64 state *rng; the winning seat. */
int bt_playout(bt_state s, uint64_t *rng);

/* One 64-bit step of splitmix64. */
uint64_t bt_splitmix64(uint64_t *state);

/* "a1" .. "h8" into out[0..2] (NUL-terminated). */
void bt_square_name(int index, char out[3]);

#endif
