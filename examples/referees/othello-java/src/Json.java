import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A minimal JSON reader and writer, enough for the rules protocol's small objects.
 *
 * <p>{@link #parse} reads one value (RFC 8259, strict, nesting at most {@link #MAX_DEPTH} deep) into
 * {@code Map<String, Object>} (insertion ordered), {@code List<Object>}, {@code String}, {@code Long}
 * (an integer that fits), {@code Double}, {@code Boolean}, or {@link #NULL}. A syntax error is a
 * {@link JsonException} with a one-line message. {@link #write} writes those back as compact JSON,
 * pure ASCII (everything else escaped), so a reply is always one valid line.
 */
final class Json {
    static final int MAX_DEPTH = 64;

    /** JSON's null (a Java null would not tell a missing member from a null one). */
    static final Object NULL = new Object() {
        @Override
        public String toString() {
            return "null";
        }
    };

    static final class JsonException extends Exception {
        private static final long serialVersionUID = 1L;

        JsonException(String message) {
            super(message);
        }
    }

    private final String text;
    private int pos;

    private Json(String text) {
        this.text = text;
    }

    static Object parse(String text) throws JsonException {
        Json reader = new Json(text);
        Object value = reader.value(0);
        reader.space();
        if (reader.pos != text.length()) {
            throw new JsonException("malformed JSON: text after the value");
        }
        return value;
    }

    private JsonException error(String what) {
        return new JsonException("malformed JSON: " + what);
    }

    private void space() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return;
            }
            pos++;
        }
    }

    private Object value(int depth) throws JsonException {
        space();
        if (pos >= text.length()) {
            throw error("unexpected end of input");
        }
        char c = text.charAt(pos);
        switch (c) {
            case '{':
            case '[':
                if (depth >= MAX_DEPTH) {
                    throw error("nested too deep");
                }
                pos++;
                return c == '{' ? object(depth) : array(depth);
            case '"':
                pos++;
                return string();
            case 't':
                return literal("true", Boolean.TRUE);
            case 'f':
                return literal("false", Boolean.FALSE);
            case 'n':
                return literal("null", NULL);
            default:
                if (c == '-' || (c >= '0' && c <= '9')) {
                    return number();
                }
                throw error("unexpected character");
        }
    }

    private Object literal(String word, Object value) throws JsonException {
        if (!text.startsWith(word, pos)) {
            throw error("unexpected character");
        }
        pos += word.length();
        return value;
    }

    private Map<String, Object> object(int depth) throws JsonException {
        Map<String, Object> members = new LinkedHashMap<>();
        space();
        if (pos < text.length() && text.charAt(pos) == '}') {
            pos++;
            return members;
        }
        while (true) {
            space();
            if (pos >= text.length() || text.charAt(pos) != '"') {
                throw error("expected a member name");
            }
            pos++;
            String key = string();
            space();
            if (pos >= text.length() || text.charAt(pos) != ':') {
                throw error("expected ':'");
            }
            pos++;
            members.put(key, value(depth + 1));
            space();
            if (pos < text.length() && text.charAt(pos) == ',') {
                pos++;
            } else if (pos < text.length() && text.charAt(pos) == '}') {
                pos++;
                return members;
            } else {
                throw error("expected ',' or '}'");
            }
        }
    }

    private List<Object> array(int depth) throws JsonException {
        List<Object> items = new ArrayList<>();
        space();
        if (pos < text.length() && text.charAt(pos) == ']') {
            pos++;
            return items;
        }
        while (true) {
            items.add(value(depth + 1));
            space();
            if (pos < text.length() && text.charAt(pos) == ',') {
                pos++;
            } else if (pos < text.length() && text.charAt(pos) == ']') {
                pos++;
                return items;
            } else {
                throw error("expected ',' or ']'");
            }
        }
    }

    private String string() throws JsonException {
        StringBuilder out = new StringBuilder();
        while (pos < text.length()) {
            char c = text.charAt(pos++);
            if (c == '"') {
                return out.toString();
            }
            if (c < 0x20) {
                throw error("control character in a string");
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            if (pos >= text.length()) {
                break;
            }
            char e = text.charAt(pos++);
            switch (e) {
                case '"': out.append('"'); break;
                case '\\': out.append('\\'); break;
                case '/': out.append('/'); break;
                case 'b': out.append('\b'); break;
                case 'f': out.append('\f'); break;
                case 'n': out.append('\n'); break;
                case 'r': out.append('\r'); break;
                case 't': out.append('\t'); break;
                case 'u':
                    if (pos + 4 > text.length()) {
                        throw error("bad \\u escape");
                    }
                    try {
                        out.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
                    } catch (NumberFormatException bad) {
                        throw error("bad \\u escape");
                    }
                    pos += 4;
                    break;
                default:
                    throw error("bad escape in a string");
            }
        }
        throw error("unterminated string");
    }

    private Object number() throws JsonException {
        int start = pos;
        boolean integral = true;
        if (text.charAt(pos) == '-') {
            pos++;
        }
        if (!digit()) {
            throw error("bad number");
        }
        if (text.charAt(pos) == '0') {
            pos++;
        } else {
            while (digit()) {
                pos++;
            }
        }
        if (pos < text.length() && text.charAt(pos) == '.') {
            integral = false;
            pos++;
            if (!digit()) {
                throw error("bad number");
            }
            while (digit()) {
                pos++;
            }
        }
        if (pos < text.length() && (text.charAt(pos) == 'e' || text.charAt(pos) == 'E')) {
            integral = false;
            pos++;
            if (pos < text.length() && (text.charAt(pos) == '+' || text.charAt(pos) == '-')) {
                pos++;
            }
            if (!digit()) {
                throw error("bad number");
            }
            while (digit()) {
                pos++;
            }
        }
        String literal = text.substring(start, pos);
        if (integral) {
            try {
                return Long.parseLong(literal);
            } catch (NumberFormatException tooBig) {
                // Falls through: an integer beyond 64 bits is still a JSON number.
            }
        }
        double value = Double.parseDouble(literal);
        if (Double.isInfinite(value)) {
            throw error("number out of range");
        }
        return value;
    }

    private boolean digit() {
        return pos < text.length() && text.charAt(pos) >= '0' && text.charAt(pos) <= '9';
    }

    // --- writer ------------------------------------------------------------------------------

    static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(out, value);
        return out.toString();
    }

    @SuppressWarnings("unchecked")
    static void write(StringBuilder out, Object value) {
        if (value == null || value == NULL) {
            out.append("null");
        } else if (value instanceof String) {
            string(out, (String) value);
        } else if (value instanceof Boolean || value instanceof Long || value instanceof Integer) {
            out.append(value);
        } else if (value instanceof Double) {
            out.append((double) (Double) value);
        } else if (value instanceof Map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<String, Object> member : ((Map<String, Object>) value).entrySet()) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                string(out, member.getKey());
                out.append(':');
                write(out, member.getValue());
            }
            out.append('}');
        } else if (value instanceof List) {
            out.append('[');
            boolean first = true;
            for (Object item : (List<Object>) value) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                write(out, item);
            }
            out.append(']');
        } else {
            throw new IllegalArgumentException("not a JSON value: " + value.getClass());
        }
    }

    static void string(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c == '\n') {
                out.append("\\n");
            } else if (c < 0x20 || c > 0x7E) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        out.append('"');
    }
}
