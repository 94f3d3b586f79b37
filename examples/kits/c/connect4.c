/* connect4.c: a Connect Four bot for arena that drops its piece in a random column that is not full.
 *
 * Protocol (arena's JSON envelope): on each of our turns arena writes one line such as
 *   {"type": "game_state", "payload": {"board": [".......", ".......", ".......", ".......",
 *    ".......", "...b..."], "turn": "WHITE", "turnNumber": 1}, "timeLeftMs": 59950}
 * (6 rows of 7 cells, the top row first; b black, w white, . empty) and we answer one line,
 *   {"type": "turn", "payload": 3}
 * the column, 0 to 6. stdout is for replies only: log to stderr. Usage: connect4 [SEED]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define ROWS 6
#define COLS 7

/* Copies the rows of the line's "board" array into board; 0 when the line has no such board.
 * Not a general JSON parser: enough for this one message, whatever its spacing or key order. */
static int read_board(const char *line, char board[ROWS][COLS + 1]) {
    const char *p = strstr(line, "\"board\"");
    if (p == NULL || (p = strchr(p, '[')) == NULL) return 0;
    for (int row = 0; row < ROWS; row++) {
        const char *start = strchr(p, '"');
        if (start == NULL) return 0;
        start++;
        const char *end = strchr(start, '"');
        if (end == NULL || end - start != COLS) return 0;
        memcpy(board[row], start, COLS);
        board[row][COLS] = '\0';
        p = end + 1;
    }
    return 1;
}

int main(int argc, char **argv) {
    unsigned seed = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : (unsigned)time(NULL) ^ (unsigned)getpid();
    srand(seed);
    fprintf(stderr, "connect4 (C): seed %u\n", seed);
    static char line[1 << 16]; /* a game_state line is about 150 bytes */
    while (fgets(line, sizeof line, stdin) != NULL) {
        char board[ROWS][COLS + 1];
        if (!read_board(line, board)) {
            fprintf(stderr, "no board in this line: %s", line);
            return 1;
        }
        int legal[COLS], count = 0;
        for (int col = 0; col < COLS; col++)
            if (board[0][col] == '.') legal[count++] = col; /* the top cell is free: not full */
        if (count == 0) return 1;                            /* arena never asks then */
        int column = legal[rand() % count];
        printf("{\"type\": \"turn\", \"payload\": %d}\n", column);
        fflush(stdout); /* without it the reply waits in a buffer and we lose on time */
        fprintf(stderr, "column %d of %d legal\n", column, count);
    }
    return 0; /* end of input: the game is over */
}
