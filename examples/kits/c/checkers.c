/* checkers.c: an English draughts bot for arena that plays a random legal move.
 *
 * Protocol (arena's checkers lines): once at the start arena writes our total time in ms and our
 * colour ("black" or "white"); then on each of our turns our time left and 8 board lines such as
 * ". b . b . b . b" (row 0 at the top, seen from white's side; b/w men, B/W kings, . empty).
 * We answer one line: the number of squares the piece visits, then "col row" of each, start first
 * ("2 3 2 2 3"). Black men move down (row + 1), white men up; kings both ways, one square.
 * Capturing is compulsory (any capture may be chosen), a multi-jump goes on while the piece can
 * jump, and a man that reaches the far row is crowned and stops. Usage: checkers [SEED]
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define MAX_MOVES 512
#define MAX_PATH 16 /* 12 pieces to capture at most: 13 squares */

typedef struct {
    int length;
    int square[MAX_PATH][2]; /* col, row */
} Move;

static char board[8][8];
static int black, forward, far_row;
static Move moves[MAX_MOVES];
static int move_count;

static int mine(char piece) { return black ? piece == 'b' || piece == 'B' : piece == 'w' || piece == 'W'; }
static int theirs(char piece) { return piece != '.' && piece != 'x' && !mine(piece); }
static int on_board(int col, int row) { return col >= 0 && col < 8 && row >= 0 && row < 8; }

static void add(const Move *move) {
    if (move_count < MAX_MOVES) moves[move_count++] = *move;
}

/* Every way to go on jumping from (col, row), where the path so far ends. */
static void jump(Move *path, int col, int row, int king) {
    int extended = 0;
    for (int dr = -1; dr <= 1; dr += 2) {
        if (!king && dr != forward) continue;
        for (int dc = -1; dc <= 1; dc += 2) {
            int over_c = col + dc, over_r = row + dr, land_c = col + 2 * dc, land_r = row + 2 * dr;
            if (!on_board(land_c, land_r) || !theirs(board[over_r][over_c]) || board[land_r][land_c] != '.')
                continue;
            extended = 1;
            char taken = board[over_r][over_c];
            board[over_r][over_c] = 'x'; /* stays on the board until the move ends; jumped once */
            path->square[path->length][0] = land_c;
            path->square[path->length][1] = land_r;
            path->length++;
            if (!king && land_r == far_row)
                add(path); /* crowned: the move ends here */
            else
                jump(path, land_c, land_r, king);
            path->length--;
            board[over_r][over_c] = taken;
        }
    }
    if (!extended && path->length > 1) add(path);
}

static void legal_moves(void) {
    move_count = 0;
    for (int row = 0; row < 8; row++)
        for (int col = 0; col < 8; col++)
            if (mine(board[row][col])) {
                char piece = board[row][col];
                Move path = {1, {{col, row}}};
                board[row][col] = '.'; /* it has left its square: it may land there again */
                jump(&path, col, row, isupper((unsigned char)piece));
                board[row][col] = piece;
            }
    if (move_count > 0) return; /* a capture is compulsory */
    for (int row = 0; row < 8; row++)
        for (int col = 0; col < 8; col++) {
            if (!mine(board[row][col])) continue;
            int king = isupper((unsigned char)board[row][col]);
            for (int dr = -1; dr <= 1; dr += 2)
                for (int dc = -1; dc <= 1; dc += 2)
                    if ((king || dr == forward) && on_board(col + dc, row + dr) && board[row + dr][col + dc] == '.') {
                        Move step = {2, {{col, row}, {col + dc, row + dr}}};
                        add(&step);
                    }
        }
}

int main(int argc, char **argv) {
    unsigned seed = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : (unsigned)time(NULL) ^ (unsigned)getpid();
    srand(seed);
    long total_ms, left_ms;
    char colour[16];
    if (scanf("%ld %15s", &total_ms, colour) != 2) return 1;
    black = colour[0] == 'b';
    forward = black ? 1 : -1;
    far_row = black ? 7 : 0;
    fprintf(stderr, "checkers (C): %s, %ld ms, seed %u\n", colour, total_ms, seed);
    while (scanf("%ld", &left_ms) == 1) { /* whitespace-separated words: the line ends do not matter */
        for (int row = 0; row < 8; row++)
            for (int col = 0; col < 8; col++)
                if (scanf(" %c", &board[row][col]) != 1) return 1;
        legal_moves();
        if (move_count == 0) return 1; /* no move: we have lost, arena never asks then */
        const Move *move = &moves[rand() % move_count];
        printf("%d", move->length);
        for (int i = 0; i < move->length; i++) printf(" %d %d", move->square[i][0], move->square[i][1]);
        printf("\n");
        fflush(stdout); /* without it the reply waits in a buffer and we lose on time */
        fprintf(stderr, "%ld ms left: one of %d legal moves\n", left_ms, move_count);
    }
    return 0;
}
