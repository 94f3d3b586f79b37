/* The JSON reader and writer of json.h. */
#include "json.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    jdoc *doc;
    char *p;
    char *end;
    char *error;
    size_t error_size;
    int failed;
} parser;

static int fail(parser *ps, const char *what) {
    if (!ps->failed) {
        ps->failed = 1;
        snprintf(ps->error, ps->error_size, "malformed JSON: %s", what);
    }
    return -1;
}

static int new_node(parser *ps, jtype type) {
    jdoc *doc = ps->doc;
    if (doc->used == doc->capacity) {
        int capacity = doc->capacity ? doc->capacity * 2 : 256;
        jval *grown = realloc(doc->nodes, (size_t)capacity * sizeof *grown);
        if (!grown) {
            return fail(ps, "out of memory");
        }
        doc->nodes = grown;
        doc->capacity = capacity;
    }
    jval *v = &doc->nodes[doc->used];
    memset(v, 0, sizeof *v);
    v->type = type;
    v->first = v->next = -1;
    return doc->used++;
}

static void skip_space(parser *ps) {
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')) {
        ps->p++;
    }
}

static int hex4(const char *s, unsigned *out) {
    unsigned value = 0;
    for (int i = 0; i < 4; i++) {
        char c = s[i];
        value <<= 4;
        if (c >= '0' && c <= '9') value |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f') value |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') value |= (unsigned)(c - 'A' + 10);
        else return 0;
    }
    *out = value;
    return 1;
}

/* Decodes the string starting after the opening quote, in place, into *out and *out_len. */
static int parse_string_raw(parser *ps, const char **out, size_t *out_len) {
    char *write = ps->p, *start = ps->p;
    while (ps->p < ps->end) {
        unsigned char c = (unsigned char)*ps->p++;
        if (c == '"') {
            *out = start;
            *out_len = (size_t)(write - start);
            return 0;
        }
        if (c < 0x20) {
            return fail(ps, "control character in a string");
        }
        if (c != '\\') {
            *write++ = (char)c;
            continue;
        }
        if (ps->p >= ps->end) break;
        char e = *ps->p++;
        switch (e) {
        case '"': *write++ = '"'; break;
        case '\\': *write++ = '\\'; break;
        case '/': *write++ = '/'; break;
        case 'b': *write++ = '\b'; break;
        case 'f': *write++ = '\f'; break;
        case 'n': *write++ = '\n'; break;
        case 'r': *write++ = '\r'; break;
        case 't': *write++ = '\t'; break;
        case 'u': {
            unsigned code;
            if (ps->end - ps->p < 4 || !hex4(ps->p, &code)) return fail(ps, "bad \\u escape");
            ps->p += 4;
            if (code >= 0xD800 && code <= 0xDBFF) {
                unsigned low;
                if (ps->end - ps->p < 6 || ps->p[0] != '\\' || ps->p[1] != 'u' || !hex4(ps->p + 2, &low)
                    || low < 0xDC00 || low > 0xDFFF) {
                    return fail(ps, "unpaired surrogate in a \\u escape");
                }
                ps->p += 6;
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
            } else if (code >= 0xDC00 && code <= 0xDFFF) {
                return fail(ps, "unpaired surrogate in a \\u escape");
            }
            /* UTF-8 is never longer than the escape it replaces, so decoding in place is safe. */
            if (code < 0x80) {
                *write++ = (char)code;
            } else if (code < 0x800) {
                *write++ = (char)(0xC0 | (code >> 6));
                *write++ = (char)(0x80 | (code & 0x3F));
            } else if (code < 0x10000) {
                *write++ = (char)(0xE0 | (code >> 12));
                *write++ = (char)(0x80 | ((code >> 6) & 0x3F));
                *write++ = (char)(0x80 | (code & 0x3F));
            } else {
                *write++ = (char)(0xF0 | (code >> 18));
                *write++ = (char)(0x80 | ((code >> 12) & 0x3F));
                *write++ = (char)(0x80 | ((code >> 6) & 0x3F));
                *write++ = (char)(0x80 | (code & 0x3F));
            }
            break;
        }
        default:
            return fail(ps, "bad escape in a string");
        }
    }
    return fail(ps, "unterminated string");
}

static int parse_number(parser *ps) {
    char *start = ps->p;
    int integral = 1;
    if (ps->p < ps->end && *ps->p == '-') ps->p++;
    if (ps->p >= ps->end || *ps->p < '0' || *ps->p > '9') return fail(ps, "bad number");
    if (*ps->p == '0') {
        ps->p++;
    } else {
        while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9') ps->p++;
    }
    if (ps->p < ps->end && *ps->p == '.') {
        integral = 0;
        ps->p++;
        if (ps->p >= ps->end || *ps->p < '0' || *ps->p > '9') return fail(ps, "bad number");
        while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9') ps->p++;
    }
    if (ps->p < ps->end && (*ps->p == 'e' || *ps->p == 'E')) {
        integral = 0;
        ps->p++;
        if (ps->p < ps->end && (*ps->p == '+' || *ps->p == '-')) ps->p++;
        if (ps->p >= ps->end || *ps->p < '0' || *ps->p > '9') return fail(ps, "bad number");
        while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9') ps->p++;
    }
    int v = new_node(ps, J_NUMBER);
    if (v < 0) return -1;
    char text[64];
    size_t n = (size_t)(ps->p - start);
    if (n >= sizeof text) {
        /* Longer than any number the protocol uses; still JSON, so read it as a double. */
        integral = 0;
        n = sizeof text - 1;
    }
    memcpy(text, start, n);
    text[n] = 0;
    jval *node = &ps->doc->nodes[v];
    node->number = strtod(text, NULL);
    if (integral) {
        errno = 0;
        long long value = strtoll(text, NULL, 10);
        if (errno == 0) {
            node->is_integer = 1;
            node->integer = value;
        }
    }
    if (!isfinite(node->number)) return fail(ps, "number out of range");
    return v;
}

static int parse_value(parser *ps, int depth);

static int parse_container(parser *ps, int depth, int object) {
    if (depth >= JSON_MAX_DEPTH) return fail(ps, "nested too deep");
    int v = new_node(ps, object ? J_OBJECT : J_ARRAY);
    if (v < 0) return -1;
    char close = object ? '}' : ']';
    int last = -1, count = 0;
    skip_space(ps);
    if (ps->p < ps->end && *ps->p == close) {
        ps->p++;
        return v;
    }
    for (;;) {
        const char *key = NULL;
        size_t key_len = 0;
        skip_space(ps);
        if (object) {
            if (ps->p >= ps->end || *ps->p != '"') return fail(ps, "expected a member name");
            ps->p++;
            if (parse_string_raw(ps, &key, &key_len) < 0) return -1;
            skip_space(ps);
            if (ps->p >= ps->end || *ps->p != ':') return fail(ps, "expected ':'");
            ps->p++;
        }
        int child = parse_value(ps, depth + 1);
        if (child < 0) return -1;
        ps->doc->nodes[child].key = key;
        ps->doc->nodes[child].key_len = key_len;
        if (last < 0) ps->doc->nodes[v].first = child;
        else ps->doc->nodes[last].next = child;
        last = child;
        count++;
        skip_space(ps);
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            continue;
        }
        if (ps->p < ps->end && *ps->p == close) {
            ps->p++;
            break;
        }
        return fail(ps, object ? "expected ',' or '}'" : "expected ',' or ']'");
    }
    ps->doc->nodes[v].count = count;
    return v;
}

static int literal(parser *ps, const char *word, jtype type) {
    size_t n = strlen(word);
    if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0) return fail(ps, "unexpected character");
    ps->p += n;
    return new_node(ps, type);
}

static int parse_value(parser *ps, int depth) {
    skip_space(ps);
    if (ps->p >= ps->end) return fail(ps, "unexpected end of input");
    switch (*ps->p) {
    case '{': ps->p++; return parse_container(ps, depth, 1);
    case '[': ps->p++; return parse_container(ps, depth, 0);
    case '"': {
        ps->p++;
        const char *s;
        size_t n;
        if (parse_string_raw(ps, &s, &n) < 0) return -1;
        int v = new_node(ps, J_STRING);
        if (v < 0) return -1;
        ps->doc->nodes[v].str = s;
        ps->doc->nodes[v].str_len = n;
        return v;
    }
    case 't': return literal(ps, "true", J_TRUE);
    case 'f': return literal(ps, "false", J_FALSE);
    case 'n': return literal(ps, "null", J_NULL);
    default:
        if (*ps->p == '-' || (*ps->p >= '0' && *ps->p <= '9')) return parse_number(ps);
        return fail(ps, "unexpected character");
    }
}

int json_parse(jdoc *doc, char *text, size_t len, char *error, size_t error_size) {
    parser ps = {doc, text, text + len, error, error_size, 0};
    doc->used = 0;
    int root = parse_value(&ps, 0);
    if (root < 0) return -1;
    skip_space(&ps);
    if (ps.p != ps.end) return fail(&ps, "text after the value");
    return root;
}

int json_member(const jdoc *doc, int obj, const char *name) {
    if (obj < 0 || doc->nodes[obj].type != J_OBJECT) return -1;
    size_t n = strlen(name);
    for (int c = doc->nodes[obj].first; c >= 0; c = doc->nodes[c].next) {
        if (doc->nodes[c].key_len == n && memcmp(doc->nodes[c].key, name, n) == 0) return c;
    }
    return -1;
}

int json_is(const jdoc *doc, int v, const char *text) {
    if (v < 0 || doc->nodes[v].type != J_STRING) return 0;
    size_t n = strlen(text);
    return doc->nodes[v].str_len == n && memcmp(doc->nodes[v].str, text, n) == 0;
}

/* --- writer ------------------------------------------------------------------------------- */

void jbuf_raw(jbuf *b, const char *bytes, size_t n) {
    if (b->len + n + 1 > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 4096;
        while (b->len + n + 1 > capacity) capacity *= 2;
        char *grown = realloc(b->data, capacity);
        if (!grown) {
            fputs("breakthrough-referee: out of memory\n", stderr);
            exit(1);
        }
        b->data = grown;
        b->capacity = capacity;
    }
    memcpy(b->data + b->len, bytes, n);
    b->len += n;
    b->data[b->len] = 0;
}

void jbuf_text(jbuf *b, const char *text) { jbuf_raw(b, text, strlen(text)); }

void jbuf_char(jbuf *b, char c) { jbuf_raw(b, &c, 1); }

void jbuf_int(jbuf *b, long long value) {
    char text[32];
    int n = snprintf(text, sizeof text, "%lld", value);
    jbuf_raw(b, text, (size_t)n);
}

void jbuf_string(jbuf *b, const char *s, size_t n) {
    static const char hex[] = "0123456789abcdef";
    jbuf_char(b, '"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            char esc[2] = {'\\', (char)c};
            jbuf_raw(b, esc, 2);
        } else if (c == '\n') {
            jbuf_raw(b, "\\n", 2);
        } else if (c < 0x20 || c == 0x7F) {
            char esc[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
            jbuf_raw(b, esc, 6);
        } else {
            jbuf_char(b, (char)c);
        }
    }
    jbuf_char(b, '"');
}

void jbuf_cstring(jbuf *b, const char *s) { jbuf_string(b, s, strlen(s)); }
