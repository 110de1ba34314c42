/*
 * parser.c - strict reader for the "MHR1" record container of the
 * binary-records case in myhill's benchmark corpus.
 *
 * File:    the 4 magic bytes "MHR1", then records up to the end of the file.
 * Record:  [type: 1 byte][length: 2 bytes, little-endian][value: length bytes]
 * Types:   0x01 u8 (length 1)          0x02 u16 (length 2)
 *          0x03 u32 (length 4)         0x04 i64 (length 8)
 *          0x05 text (printable ASCII 0x20..0x7e, length >= 1)
 *          0x06 blob (any bytes)       0x07 tag (any bytes, length >= 1)
 *          0x08 bool (length 1, value 0 or 1)
 *          0x09..0x0f opaque (any bytes)
 *          0x10 list: the value is a sequence of records that fills it exactly
 * Records at the top level have depth 0, records inside a top-level list
 * depth 1, and so on; lists may nest at most MAX_DEPTH deep.
 *
 * Pass 1 validates the whole file; any format error exits with status 1 and
 * nothing else happens.  Pass 2 walks the valid file in order and "handles"
 * each record; the handler for a tag record (0x07) whose value starts with
 * 0xEE at depth >= 2 has a bug: it calls abort() (exit status 134 in a shell).
 * A valid file without such a record exits 0.
 *
 * Usage: parser FILE
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_FILE (1L << 20)
#define MAX_DEPTH 16
#define T_LIST 0x10
#define T_TAG 0x07
#define TRIGGER 0xEE
#define TRIGGER_DEPTH 2

struct stats {
    unsigned long records;
    unsigned long lists;
    unsigned long tags;
};

static int check_value(uint8_t type, const uint8_t *v, size_t len)
{
    size_t i;

    switch (type) {
    case 0x01: return len == 1;
    case 0x02: return len == 2;
    case 0x03: return len == 4;
    case 0x04: return len == 8;
    case 0x05:
        if (len == 0)
            return 0;
        for (i = 0; i < len; i++)
            if (v[i] < 0x20 || v[i] > 0x7e)
                return 0;
        return 1;
    case 0x06: return 1;
    case 0x07: return len >= 1;
    case 0x08: return len == 1 && v[0] <= 1;
    case 0x09: case 0x0a: case 0x0b: case 0x0c: case 0x0d: case 0x0e: case 0x0f:
        return 1;
    default:
        return 0;
    }
}

/* Pass 1: 0 if p[0..n) is exactly a sequence of valid records, -1 otherwise. */
static int validate(const uint8_t *p, size_t n, int depth)
{
    size_t off = 0;

    if (depth > MAX_DEPTH)
        return -1;
    while (off < n) {
        uint8_t type;
        size_t len;

        if (n - off < 3)
            return -1;                      /* truncated header */
        type = p[off];
        len = (size_t)p[off + 1] | ((size_t)p[off + 2] << 8);
        off += 3;
        if (len > n - off)
            return -1;                      /* value overruns its parent */
        if (type == T_LIST) {
            if (validate(p + off, len, depth + 1) != 0)
                return -1;
        } else if (!check_value(type, p + off, len)) {
            return -1;
        }
        off += len;
    }
    return 0;
}

static void handle_tag(const uint8_t *v, size_t len, int depth)
{
    /* The bug this case is about: nested "extended" tags are not handled. */
    if (len >= 1 && v[0] == TRIGGER && depth >= TRIGGER_DEPTH)
        abort();
}

/* Pass 2: walk the (valid) records in file order. */
static void walk(const uint8_t *p, size_t n, int depth, struct stats *st)
{
    size_t off = 0;

    while (off < n) {
        uint8_t type = p[off];
        size_t len = (size_t)p[off + 1] | ((size_t)p[off + 2] << 8);

        off += 3;
        st->records++;
        if (type == T_LIST) {
            st->lists++;
            walk(p + off, len, depth + 1, st);
        } else if (type == T_TAG) {
            st->tags++;
            handle_tag(p + off, len, depth);
        }
        off += len;
    }
}

int main(int argc, char **argv)
{
    static uint8_t buf[MAX_FILE + 1];
    struct stats st = { 0, 0, 0 };
    FILE *fh;
    size_t n;

    if (argc != 2) {
        fprintf(stderr, "usage: %s FILE\n", argv[0]);
        return 2;
    }
    fh = fopen(argv[1], "rb");
    if (fh == NULL) {
        perror(argv[1]);
        return 2;
    }
    n = fread(buf, 1, sizeof(buf), fh);
    if (ferror(fh)) {
        perror(argv[1]);
        fclose(fh);
        return 2;
    }
    fclose(fh);
    if (n > (size_t)MAX_FILE) {
        fprintf(stderr, "%s: file too large\n", argv[1]);
        return 1;
    }
    if (n < 4 || buf[0] != 'M' || buf[1] != 'H' || buf[2] != 'R' || buf[3] != '1') {
        fprintf(stderr, "%s: bad magic\n", argv[1]);
        return 1;
    }
    if (validate(buf + 4, n - 4, 0) != 0) {
        fprintf(stderr, "%s: format error\n", argv[1]);
        return 1;
    }
    walk(buf + 4, n - 4, 0, &st);
    printf("%lu records, %lu lists, %lu tags\n", st.records, st.lists, st.tags);
    return 0;
}
