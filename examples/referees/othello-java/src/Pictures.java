/** A position as text and as a self-contained SVG picture (row 1 at the top). */
final class Pictures {
    private static final int CELL = 40;
    private static final int MARGIN = 20;

    private Pictures() {
    }

    /** Files along the top and bottom, row numbers at both sides; b Black, w White, . empty. */
    static String text(Othello.Position p) {
        StringBuilder edge = new StringBuilder("  ");
        for (int file = 0; file < p.size; file++) {
            edge.append(' ').append((char) ('a' + file));
        }
        StringBuilder out = new StringBuilder(edge).append('\n');
        for (int row = 0; row < p.size; row++) {
            out.append(String.format("%2d", row + 1));
            for (int file = 0; file < p.size; file++) {
                byte c = p.cells[row * p.size + file];
                out.append(' ').append(c == Othello.BLACK ? 'b' : c == Othello.WHITE ? 'w' : '.');
            }
            out.append(' ').append(row + 1).append('\n');
        }
        return out.append(edge).toString();
    }

    static String svg(Othello.Position p) {
        int size = p.size * CELL + 2 * MARGIN;
        StringBuilder out = new StringBuilder();
        out.append(String.format("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" width=\"%d\""
                + " height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">", size, size, size, size));
        out.append(String.format("<title>Othello, %s to move, ply %d</title>",
                p.turn == Othello.BLACK ? "Black" : "White", p.ply));
        out.append(String.format("<rect width=\"%d\" height=\"%d\" fill=\"#f4f1ea\"/>", size, size));
        out.append(String.format("<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#2e7d32\""
                + " stroke=\"#1b4d1e\"/>", MARGIN, MARGIN, p.size * CELL, p.size * CELL));
        for (int k = 1; k < p.size; k++) {
            int at = MARGIN + k * CELL, far = MARGIN + p.size * CELL;
            out.append(String.format("<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#1b4d1e\"/>"
                    + "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#1b4d1e\"/>",
                    at, MARGIN, at, far, MARGIN, at, far, at));
        }
        for (int i = 0; i < p.cells.length; i++) {
            if (p.cells[i] != Othello.EMPTY) {
                int x = MARGIN + (i % p.size) * CELL, y = MARGIN + (i / p.size) * CELL;
                boolean black = p.cells[i] == Othello.BLACK;
                out.append(String.format("<circle cx=\"%d\" cy=\"%d\" r=\"%d\" fill=\"%s\" stroke=\"#222222\""
                        + " class=\"%s\"/>", x + CELL / 2, y + CELL / 2, CELL * 2 / 5, black ? "#222222" : "#fafafa",
                        black ? "black" : "white"));
            }
        }
        for (int k = 0; k < p.size; k++) {
            int centre = MARGIN + k * CELL + CELL / 2;
            out.append(String.format("<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%c</text>", centre, MARGIN - 6,
                    'a' + k));
            out.append(String.format("<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%d</text>", MARGIN / 2,
                    centre + 4, k + 1));
        }
        return out.append("</svg>").toString();
    }
}
