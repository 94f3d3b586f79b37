/* An instant Breakthrough bot for the speed benchmark (bench/speed.py): reads each turn's JSON line,
 * answers at once with a random legal move. No search, no allocation: what arena costs per ply shows.
 * Usage: breakthrough_instant [seed]. Build: cc -O2 -o breakthrough_instant breakthrough_instant.c */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long rng = 88172645463325252ULL;

static unsigned long long next_random(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

int main(int argc, char **argv) {
    static char line[1 << 16];
    char board[8][9];
    if (argc > 1) rng ^= strtoull(argv[1], NULL, 10) * 2654435761ULL + 1;
    setvbuf(stdout, NULL, _IOFBF, 1 << 12);
    while (fgets(line, sizeof line, stdin)) {
        char *p = strstr(line, "\"board\":[");
        char *turn = strstr(line, "\"turn\":\"");
        if (!p || !turn) return 1;
        p += 9;
        for (int r = 0; r < 8; r++) { /* board[0] is row 8 */
            p = strchr(p, '"');
            if (!p) return 1;
            memcpy(board[r], p + 1, 8);
            board[r][8] = 0;
            p += 10;
        }
        char me = turn[8] == 'B' ? 'b' : 'w';
        int step = me == 'b' ? -1 : 1; /* black plays up: towards board[0] */
        int moves[64 * 3][4], count = 0;
        for (int r = 0; r < 8; r++) {
            for (int c = 0; c < 8; c++) {
                if (board[r][c] != me) continue;
                int to = r + step;
                if (to < 0 || to > 7) continue;
                for (int dc = -1; dc <= 1; dc++) {
                    int tc = c + dc;
                    if (tc < 0 || tc > 7) continue;
                    char there = board[to][tc];
                    if (there == me || (dc == 0 && there != '.')) continue;
                    moves[count][0] = r, moves[count][1] = c, moves[count][2] = to, moves[count][3] = tc;
                    count++;
                }
            }
        }
        if (!count) return 2;
        int *m = moves[next_random() % count];
        printf("{\"type\":\"turn\",\"payload\":{\"from\":\"%c%d\",\"to\":\"%c%d\"}}\n",
               'a' + m[1], 8 - m[0], 'a' + m[3], 8 - m[2]);
        fflush(stdout);
    }
    return 0;
}
