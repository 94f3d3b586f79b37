/* A minimal JSON reader and writer, enough for the rules protocol's small objects.
 *
 * Reader: json_parse() turns one line of text into a tree of jval nodes (indices into a
 * per-document array), decoding strings in place in the caller's buffer. Strict: RFC 8259 syntax
 * only, one value per line, nesting at most JSON_MAX_DEPTH deep; an error is one line of text.
 * Writer: a growable byte buffer with helpers that escape strings. Standard library only. */
#ifndef JSON_H
#define JSON_H

#include <stddef.h>

#define JSON_MAX_DEPTH 64

typedef enum { J_NULL, J_FALSE, J_TRUE, J_NUMBER, J_STRING, J_ARRAY, J_OBJECT } jtype;

typedef struct {
    jtype type;
    const char *key;   /* member name when this node is an object member, else NULL */
    size_t key_len;
    const char *str;   /* J_STRING: decoded bytes (not NUL-terminated) */
    size_t str_len;
    double number;     /* J_NUMBER */
    int is_integer;    /* J_NUMBER written without fraction or exponent, and fits in long long */
    long long integer;
    int first;         /* J_ARRAY / J_OBJECT: index of the first child, -1 when empty */
    int count;         /* J_ARRAY / J_OBJECT: number of children */
    int next;          /* index of the next sibling, -1 for the last */
} jval;

typedef struct {
    jval *nodes;
    int used;
    int capacity;
} jdoc;

/* Parses text[0..len) (modified in place: strings are decoded there). Returns the root's index,
 * or -1 with a message in error[0..error_size). The document's nodes stay valid until the next
 * json_parse with the same doc. */
int json_parse(jdoc *doc, char *text, size_t len, char *error, size_t error_size);

/* The member of object `obj` named `name`, or -1. */
int json_member(const jdoc *doc, int obj, const char *name);

/* Whether string node `v` equals the NUL-terminated `text`. */
int json_is(const jdoc *doc, int v, const char *text);

typedef struct {
    char *data;
    size_t len;
    size_t capacity;
} jbuf;

void jbuf_raw(jbuf *b, const char *bytes, size_t n);
void jbuf_text(jbuf *b, const char *text);           /* raw NUL-terminated text */
void jbuf_string(jbuf *b, const char *s, size_t n);  /* a JSON string literal, escaped */
void jbuf_cstring(jbuf *b, const char *s);
void jbuf_int(jbuf *b, long long value);
void jbuf_char(jbuf *b, char c);

#endif
