// Checkers.java: an English draughts bot for arena that plays a random legal move.
//
// Protocol (arena's checkers lines): once at the start arena writes our total time in ms and our
// colour ("black" or "white"); then on each of our turns our time left and 8 board lines such as
// ". b . b . b . b" (row 0 at the top, seen from white's side; b/w men, B/W kings, . empty).
// We answer one line: the number of squares the piece visits, then "col row" of each, start first
// ("2 3 2 2 3"). Black men move down (row + 1), white men up; kings both ways, one square.
// Capturing is compulsory (any capture may be chosen), a multi-jump goes on while the piece can
// jump, and a man that reaches the far row is crowned and stops. Usage: java Checkers [SEED]
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

public final class Checkers {
    private final char[][] board = new char[8][8];  // board[row][col]
    private final boolean black;

    Checkers(boolean black) {
        this.black = black;
    }

    private int forward() { return black ? 1 : -1; }
    private int farRow() { return black ? 7 : 0; }
    private boolean mine(char p) { return black ? p == 'b' || p == 'B' : p == 'w' || p == 'W'; }
    private boolean theirs(char p) { return p != '.' && p != 'x' && !mine(p); }
    private static boolean onBoard(int col, int row) { return col >= 0 && col < 8 && row >= 0 && row < 8; }

    /** Every way to go on jumping from the end of path (squares as {col, row}, start first). */
    private void jump(List<int[]> path, boolean king, List<List<int[]>> out) {
        int col = path.get(path.size() - 1)[0], row = path.get(path.size() - 1)[1];
        boolean extended = false;
        for (int dr = -1; dr <= 1; dr += 2) {
            if (!king && dr != forward()) continue;
            for (int dc = -1; dc <= 1; dc += 2) {
                int overCol = col + dc, overRow = row + dr, landCol = col + 2 * dc, landRow = row + 2 * dr;
                if (!onBoard(landCol, landRow) || !theirs(board[overRow][overCol]) || board[landRow][landCol] != '.') {
                    continue;
                }
                extended = true;
                char taken = board[overRow][overCol];
                board[overRow][overCol] = 'x';  // stays on the board until the move ends; jumped once
                path.add(new int[] {landCol, landRow});
                if (!king && landRow == farRow()) {
                    out.add(new ArrayList<>(path));  // crowned: the move ends here
                } else {
                    jump(path, king, out);
                }
                path.remove(path.size() - 1);
                board[overRow][overCol] = taken;
            }
        }
        if (!extended && path.size() > 1) out.add(new ArrayList<>(path));
    }

    List<List<int[]>> legalMoves() {
        List<List<int[]>> moves = new ArrayList<>();
        for (int row = 0; row < 8; row++) {
            for (int col = 0; col < 8; col++) {
                char piece = board[row][col];
                if (!mine(piece)) continue;
                List<int[]> path = new ArrayList<>(List.of(new int[] {col, row}));
                board[row][col] = '.';  // it has left its square: it may land there again
                jump(path, Character.isUpperCase(piece), moves);
                board[row][col] = piece;
            }
        }
        if (!moves.isEmpty()) return moves;  // a capture is compulsory
        for (int row = 0; row < 8; row++) {
            for (int col = 0; col < 8; col++) {
                if (!mine(board[row][col])) continue;
                boolean king = Character.isUpperCase(board[row][col]);
                for (int dr = -1; dr <= 1; dr += 2) {
                    for (int dc = -1; dc <= 1; dc += 2) {
                        if ((king || dr == forward()) && onBoard(col + dc, row + dr) && board[row + dr][col + dc] == '.') {
                            moves.add(List.of(new int[] {col, row}, new int[] {col + dc, row + dr}));
                        }
                    }
                }
            }
        }
        return moves;
    }

    public static void main(String[] args) throws IOException {
        long seed = args.length > 0 ? Long.parseLong(args[0]) : System.nanoTime();
        Random random = new Random(seed);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String total = in.readLine(), colour = in.readLine();
        if (total == null || colour == null) return;
        Checkers bot = new Checkers(colour.trim().equals("black"));
        System.err.println("checkers (Java): " + colour.trim() + ", " + total.trim() + " ms, seed " + seed);
        for (String left; (left = in.readLine()) != null; ) {
            for (int row = 0; row < 8; row++) {
                String cells = in.readLine().replace(" ", "");  // ". b . b . b . b" -> ".b.b.b.b"
                for (int col = 0; col < 8; col++) bot.board[row][col] = cells.charAt(col);
            }
            List<List<int[]>> moves = bot.legalMoves();
            List<int[]> move = moves.get(random.nextInt(moves.size()));
            StringBuilder reply = new StringBuilder().append(move.size());
            for (int[] square : move) reply.append(' ').append(square[0]).append(' ').append(square[1]);
            System.out.println(reply);
            System.out.flush();  // without it the reply may wait in a buffer and we lose on time
            System.err.println(left.trim() + " ms left: one of " + moves.size() + " legal moves");
        }
    }
}
