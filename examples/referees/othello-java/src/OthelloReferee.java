import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * arena's external rules protocol (version 1) for Othello: one JSON request per line on stdin,
 * exactly one JSON object on one line on stdout for each, flushed. No state between requests.
 *
 * <p>State: {@code {"board": [n strings, row 1 first, "b"/"w"/"."], "turn": "black"|"white",
 * "ply": k}}. Seats: 0 Black (moves first), 1 White. Moves: square names ("d3") and "pass", the
 * only move of a side that cannot place a disc. Returns at the end by disc count: +1/-1, or 0 each
 * for a draw. Parameter: size (even, 4 to 16, default 8). Commands: info, new, apply, node,
 * observation, board (text and SVG), playout; nodes carry a hash and the acting seat's
 * observation (the whole state: Othello has no hidden information).
 */
public final class OthelloReferee {
    private static final int MAX_LINE = 1 << 20;
    private static final long MAX_PLAYOUTS = 1_000_000L;
    private static final String INFO = "{\"protocol\":1,\"name\":\"othello\",\"min_players\":2,\"max_players\":2,"
            + "\"default_players\":2,\"parameters\":{\"size\":{\"default\":8,\"low\":4,\"high\":16}},"
            + "\"default_max_moves\":" + 2 * (Othello.MAX_SIZE * Othello.MAX_SIZE - 4) + ","
            + "\"features\":[\"hash\",\"board\",\"svg\",\"playout\",\"perfect_information\"]}";

    /** A request arena should not have sent; its message becomes the error reply. */
    static final class BadRequest extends Exception {
        private static final long serialVersionUID = 1L;

        BadRequest(String message) {
            super(message);
        }
    }

    private OthelloReferee() {
    }

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        OutputStream out = new FileOutputStream(FileDescriptor.out);
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) {
                continue;  // a blank line is no request
            }
            String reply = answer(line);
            out.write((reply + "\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
        }
    }

    static String answer(String line) {
        try {
            if (line.length() > MAX_LINE) {
                throw new BadRequest("request line longer than 1 MiB");
            }
            Object request;
            try {
                request = Json.parse(line);
            } catch (Json.JsonException malformed) {
                throw new BadRequest(malformed.getMessage());
            }
            if (!(request instanceof Map)) {
                throw new BadRequest("a request must be a JSON object");
            }
            return command(asObject(request));
        } catch (BadRequest bad) {
            return error(bad.getMessage());
        } catch (RuntimeException | StackOverflowError bug) {
            return error("internal error: " + bug.getClass().getSimpleName());
        }
    }

    private static String error(String message) {
        StringBuilder out = new StringBuilder("{\"error\":");
        Json.string(out, message.replace('\n', ' '));
        return out.append('}').toString();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asObject(Object value) {
        return (Map<String, Object>) value;
    }

    private static String command(Map<String, Object> request) throws BadRequest {
        Object cmd = request.get("cmd");
        if (!(cmd instanceof String)) {
            throw new BadRequest("a request needs \"cmd\"");
        }
        switch ((String) cmd) {
            case "info":
                return INFO;
            case "new":
                return Json.write(node(Othello.initial(newSize(request))));
            case "apply": {
                Othello.Position p = readState(request.get("state"));
                return Json.write(node(Othello.apply(p, readMove(p, request.get("move")))));
            }
            case "node":
                return Json.write(node(readState(request.get("state"))));
            case "observation": {
                Othello.Position p = readState(request.get("state"));
                readSeat(request, false);
                Map<String, Object> reply = new LinkedHashMap<>();
                reply.put("observation", stateJson(p));
                return Json.write(reply);
            }
            case "board": {
                Othello.Position p = readState(request.get("state"));
                readSeat(request, true);
                Map<String, Object> reply = new LinkedHashMap<>();
                reply.put("text", Pictures.text(p));
                reply.put("svg", Pictures.svg(p));
                return Json.write(reply);
            }
            case "playout":
                return playout(request);
            default:
                throw new BadRequest("unknown command (this referee knows info, new, apply, node, observation,"
                        + " board, playout)");
        }
    }

    private static int newSize(Map<String, Object> request) throws BadRequest {
        Object players = request.get("players");
        if (players != null && !Long.valueOf(2).equals(players)) {
            throw new BadRequest("new: Othello has 2 players");
        }
        Object params = request.get("params");
        if (params == null || params == Json.NULL) {
            return 8;
        }
        if (!(params instanceof Map) || !Set.of("size").containsAll(asObject(params).keySet())) {
            throw new BadRequest("new: the one parameter is size");
        }
        Object size = asObject(params).getOrDefault("size", 8L);
        if (!(size instanceof Long) || !Othello.validSize((Long) size)) {
            throw new BadRequest("new: size must be an even integer 4-16");
        }
        return (int) (long) (Long) size;
    }

    private static void readSeat(Map<String, Object> request, boolean mayBeNull) throws BadRequest {
        Object seat = request.get("seat");
        boolean ok = Long.valueOf(0).equals(seat) || Long.valueOf(1).equals(seat)
                || (mayBeNull && (seat == null || seat == Json.NULL));
        if (!ok) {
            throw new BadRequest(mayBeNull ? "board: seat must be 0, 1 or null" : "observation: seat must be 0 or 1");
        }
    }

    static Othello.Position readState(Object value) throws BadRequest {
        if (!(value instanceof Map)) {
            throw new BadRequest("state must be an object");
        }
        Map<String, Object> state = asObject(value);
        if (!state.keySet().equals(Set.of("board", "turn", "ply"))) {
            throw new BadRequest("state: expected exactly board, turn and ply");
        }
        if (!(state.get("board") instanceof List)) {
            throw new BadRequest("state: board must be a list of strings, row 1 first");
        }
        List<?> rows = (List<?>) state.get("board");
        int n = rows.size();
        if (!Othello.validSize(n)) {
            throw new BadRequest("state: board must have an even number of rows, 4-16");
        }
        byte[] cells = new byte[n * n];
        for (int row = 0; row < n; row++) {
            Object line = rows.get(row);
            if (!(line instanceof String) || ((String) line).length() != n) {
                throw new BadRequest("state: board row " + (row + 1) + " must be a string of " + n + " squares");
            }
            for (int file = 0; file < n; file++) {
                char c = ((String) line).charAt(file);
                if (c == 'b') {
                    cells[row * n + file] = Othello.BLACK;
                } else if (c == 'w') {
                    cells[row * n + file] = Othello.WHITE;
                } else if (c != '.') {
                    throw new BadRequest("state: square " + Othello.squareName(n, row * n + file)
                            + " is not one of b w .");
                }
            }
        }
        Object turn = state.get("turn");
        if (!"black".equals(turn) && !"white".equals(turn)) {
            throw new BadRequest("state: turn must be \"black\" or \"white\"");
        }
        Object ply = state.get("ply");
        if (!(ply instanceof Long) || (Long) ply < 0) {
            throw new BadRequest("state: ply must be a non-negative integer");
        }
        return new Othello.Position(n, cells, "black".equals(turn) ? Othello.BLACK : Othello.WHITE, (Long) ply);
    }

    private static int readMove(Othello.Position p, Object value) throws BadRequest {
        Integer move = value instanceof String ? Othello.parseMove(p.size, (String) value) : null;
        if (move == null) {
            throw new BadRequest("move must be a square name such as \"d3\", or \"pass\"");
        }
        if (!Othello.legalMoves(p).contains(move)) {
            throw new BadRequest("move: not a legal move in this state");
        }
        return move;
    }

    static Map<String, Object> stateJson(Othello.Position p) {
        List<Object> rows = new ArrayList<>();
        for (int row = 0; row < p.size; row++) {
            StringBuilder line = new StringBuilder();
            for (int file = 0; file < p.size; file++) {
                byte c = p.cells[row * p.size + file];
                line.append(c == Othello.BLACK ? 'b' : c == Othello.WHITE ? 'w' : '.');
            }
            rows.add(line.toString());
        }
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("board", rows);
        state.put("turn", p.turn == Othello.BLACK ? "black" : "white");
        state.put("ply", p.ply);
        return state;
    }

    static Map<String, Object> node(Othello.Position p) {
        Map<String, Object> node = new LinkedHashMap<>();
        Map<String, Object> state = stateJson(p);
        node.put("state", state);
        List<Integer> moves = Othello.legalMoves(p);
        Map<String, Object> legal = new LinkedHashMap<>();
        if (moves.isEmpty()) {
            int black = Othello.blackResult(p);
            node.put("actor", -4L);
            node.put("legal", legal);
            node.put("returns", List.of((long) black, (long) -black));
        } else {
            String seat = p.turn == Othello.BLACK ? "0" : "1";
            List<Object> names = new ArrayList<>();
            for (int move : moves) {
                names.add(Othello.squareName(p.size, move));
            }
            legal.put(seat, names);
            node.put("actor", p.turn == Othello.BLACK ? 0L : 1L);
            node.put("legal", legal);
            node.put("notation", Map.of(seat, names));
            node.put("observations", Map.of(seat, state));
        }
        node.put("ply", p.ply);
        node.put("hash", String.format("%016x", Othello.hash(p)));
        return node;
    }

    private static String playout(Map<String, Object> request) throws BadRequest {
        Othello.Position p = readState(request.get("state"));
        Object seed = request.get("seed");
        Object count = request.get("count");
        if (!(seed instanceof Long)) {
            throw new BadRequest("playout: seed must be an integer");
        }
        if (!(count instanceof Long) || (Long) count < 0 || (Long) count > MAX_PLAYOUTS) {
            throw new BadRequest("playout: count must be an integer 0-1000000");
        }
        Othello.SplitMix random = new Othello.SplitMix((Long) seed);
        StringBuilder out = new StringBuilder("{\"returns\":[");
        for (long i = 0; i < (Long) count; i++) {
            int black = Othello.playout(p, random);
            out.append(i == 0 ? "" : ",").append('[').append(black).append(',').append(-black).append(']');
        }
        return out.append("]}").toString();
    }
}
