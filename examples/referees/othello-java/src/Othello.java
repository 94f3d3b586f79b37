import java.util.ArrayList;
import java.util.List;

/**
 * The rules of Othello (Reversi) on an n x n board, n even, 4 to 16; pure, no I/O.
 *
 * <p>Squares: files a.. left to right, rows 1..n top to bottom; index {@code row * n + file}
 * (a1 = 0). Start: the four centre squares, d4 and e5 White, e4 and d5 Black on 8 x 8; Black
 * (seat 0) moves first. A move puts a disc of the mover's colour on an empty square such that,
 * along at least one of the eight lines from it, one or more opponent discs are followed by a disc
 * of the mover's; every such run of opponent discs is flipped. A side with no such square passes
 * (its one legal move is {@link #PASS}); the game ends when neither side can move, and the side with
 * more discs wins (equal counts draw). Positions are immutable.
 */
final class Othello {
    static final int EMPTY = 0;
    static final int BLACK = 1;
    static final int WHITE = 2;
    /** The move of a side that cannot place a disc. */
    static final int PASS = -1;
    static final int MIN_SIZE = 4;
    static final int MAX_SIZE = 16;

    private static final int[][] DIRECTIONS = {
        {-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, -1}, {1, 0}, {1, 1},
    };

    /** A position: {@code cells[row * size + file]} is EMPTY, BLACK or WHITE. */
    static final class Position {
        final int size;
        final byte[] cells;
        final int turn;   // BLACK or WHITE: the side to move
        final long ply;

        Position(int size, byte[] cells, int turn, long ply) {
            this.size = size;
            this.cells = cells;
            this.turn = turn;
            this.ply = ply;
        }
    }

    private Othello() {
    }

    static boolean validSize(long size) {
        return size >= MIN_SIZE && size <= MAX_SIZE && size % 2 == 0;
    }

    static Position initial(int size) {
        byte[] cells = new byte[size * size];
        int m = size / 2;
        cells[(m - 1) * size + (m - 1)] = WHITE;
        cells[m * size + m] = WHITE;
        cells[(m - 1) * size + m] = BLACK;
        cells[m * size + (m - 1)] = BLACK;
        return new Position(size, cells, BLACK, 0);
    }

    static int other(int side) {
        return BLACK + WHITE - side;
    }

    /** Whether {@code side} placing on empty square {@code index} flips anything. */
    private static boolean flips(Position p, int index, int side) {
        int n = p.size, row = index / n, file = index % n, them = other(side);
        for (int[] d : DIRECTIONS) {
            int r = row + d[0], f = file + d[1], seen = 0;
            while (r >= 0 && r < n && f >= 0 && f < n && p.cells[r * n + f] == them) {
                r += d[0];
                f += d[1];
                seen++;
            }
            if (seen > 0 && r >= 0 && r < n && f >= 0 && f < n && p.cells[r * n + f] == side) {
                return true;
            }
        }
        return false;
    }

    /** The squares {@code side} may place on, ascending (a1, b1, ..., then row 2, ...). */
    static List<Integer> placements(Position p, int side) {
        List<Integer> squares = new ArrayList<>();
        for (int i = 0; i < p.cells.length; i++) {
            if (p.cells[i] == EMPTY && flips(p, i, side)) {
                squares.add(i);
            }
        }
        return squares;
    }

    /** The side to move's legal moves: its placements, else {@code [PASS]} if the opponent can
     * move, else nothing (the game is over). */
    static List<Integer> legalMoves(Position p) {
        List<Integer> moves = placements(p, p.turn);
        if (moves.isEmpty() && !placements(p, other(p.turn)).isEmpty()) {
            moves.add(PASS);
        }
        return moves;
    }

    /** The position after {@code move}, which must be legal in {@code p} (not checked). */
    static Position apply(Position p, int move) {
        byte[] cells = p.cells.clone();
        if (move != PASS) {
            int n = p.size, row = move / n, file = move % n, them = other(p.turn);
            cells[move] = (byte) p.turn;
            for (int[] d : DIRECTIONS) {
                int r = row + d[0], f = file + d[1], seen = 0;
                while (r >= 0 && r < n && f >= 0 && f < n && cells[r * n + f] == them) {
                    r += d[0];
                    f += d[1];
                    seen++;
                }
                if (seen > 0 && r >= 0 && r < n && f >= 0 && f < n && cells[r * n + f] == p.turn) {
                    for (int k = 1; k <= seen; k++) {
                        cells[(row + k * d[0]) * n + file + k * d[1]] = (byte) p.turn;
                    }
                }
            }
        }
        return new Position(p.size, cells, other(p.turn), p.ply + 1);
    }

    /** Black's result at the end by disc count: +1, -1 or 0. */
    static int blackResult(Position p) {
        int black = 0, white = 0;
        for (byte c : p.cells) {
            if (c == BLACK) {
                black++;
            } else if (c == WHITE) {
                white++;
            }
        }
        return Integer.signum(black - white);
    }

    /** A uniformly random game to the end from {@code p}; Black's result. */
    static int playout(Position p, SplitMix random) {
        while (true) {
            List<Integer> moves = legalMoves(p);
            if (moves.isEmpty()) {
                return blackResult(p);
            }
            p = apply(p, moves.get(random.below(moves.size())));
        }
    }

    /** "d3" for a square, "pass" for {@link #PASS}. */
    static String squareName(int size, int move) {
        if (move == PASS) {
            return "pass";
        }
        return (char) ('a' + move % size) + Integer.toString(move / size + 1);
    }

    /** The square or pass a name gives, or null when it names neither. */
    static Integer parseMove(int size, String name) {
        if (name.equals("pass")) {
            return PASS;
        }
        if (name.length() < 2 || name.length() > 3) {
            return null;
        }
        int file = name.charAt(0) - 'a';
        String digits = name.substring(1);
        if (file < 0 || file >= size || digits.charAt(0) < '1' || digits.charAt(0) > '9'
                || !digits.chars().allMatch(Character::isDigit)) {
            return null;
        }
        int row = Integer.parseInt(digits) - 1;
        return row < size ? row * size + file : null;
    }

    /** splitmix64: a small seeded generator, the same sequence on every JVM. */
    static final class SplitMix {
        private long state;

        SplitMix(long seed) {
            state = seed;
        }

        long next() {
            long z = (state += 0x9E3779B97F4A7C15L);
            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
            return z ^ (z >>> 31);
        }

        /** Uniform in [0, bound): a 32-bit multiply-shift, biased by under bound / 2^32. */
        int below(int bound) {
            return (int) (((next() >>> 32) * bound) >>> 32);
        }
    }

    private static final long[][] KEYS = new long[3][MAX_SIZE * MAX_SIZE];
    private static final long SIDE_KEY;

    static {
        SplitMix keys = new SplitMix(8L);  // fixed: hashes are stable across runs and machines
        for (int colour = BLACK; colour <= WHITE; colour++) {
            for (int i = 0; i < MAX_SIZE * MAX_SIZE; i++) {
                KEYS[colour][i] = keys.next();
            }
        }
        SIDE_KEY = keys.next();
    }

    /** A Zobrist hash of the discs and the side to move (the ply is not part of a position). */
    static long hash(Position p) {
        long h = p.turn == WHITE ? SIDE_KEY : 0;
        for (int i = 0; i < p.cells.length; i++) {
            if (p.cells[i] != EMPTY) {
                h ^= KEYS[p.cells[i]][(i / p.size) * MAX_SIZE + i % p.size];
            }
        }
        return h;
    }
}
