// Connect4.java: a Connect Four bot for arena that drops its piece in a random column that is not full.
//
// Protocol (arena's JSON envelope): on each of our turns arena writes one line such as
//   {"type": "game_state", "payload": {"board": [".......", ".......", ".......", ".......",
//    ".......", "...b..."], "turn": "WHITE", "turnNumber": 1}, "timeLeftMs": 59950}
// (6 rows of 7 cells, the top row first; b black, w white, . empty) and we answer one line,
//   {"type": "turn", "payload": 3}
// the column, 0 to 6. stdout is for replies only: log to System.err. Usage: java Connect4 [SEED]
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public final class Connect4 {
    // Java has no JSON parser of its own (add Gson or Jackson to your build for more); for this
    // one message two patterns do: the "board" array, then the strings in it.
    private static final Pattern BOARD = Pattern.compile("\"board\"\\s*:\\s*\\[([^\\]]*)\\]");
    private static final Pattern ROW = Pattern.compile("\"([^\"]*)\"");

    static List<String> readBoard(String line) {
        List<String> rows = new ArrayList<>();
        Matcher board = BOARD.matcher(line);
        if (board.find()) {
            Matcher row = ROW.matcher(board.group(1));
            while (row.find()) rows.add(row.group(1));
        }
        return rows;
    }

    public static void main(String[] args) throws IOException {
        long seed = args.length > 0 ? Long.parseLong(args[0]) : System.nanoTime();
        Random random = new Random(seed);
        System.err.println("connect4 (Java): seed " + seed);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            List<String> board = readBoard(line);
            if (board.size() != 6 || board.get(0).length() != 7) {
                System.err.println("no board in this line: " + line);
                System.exit(1);
            }
            List<Integer> legal = new ArrayList<>();
            for (int col = 0; col < 7; col++) {
                if (board.get(0).charAt(col) == '.') legal.add(col);  // the top cell is free: not full
            }
            int column = legal.get(random.nextInt(legal.size()));
            System.out.println("{\"type\": \"turn\", \"payload\": " + column + "}");
            System.out.flush();  // without it the reply may wait in a buffer and we lose on time
            System.err.println("column " + column + " of " + legal.size() + " legal");
        }
    }
}
