/*
 * parser.c - strict reader for the "MHCK" chunk container of the chunks-bin case in
 * myhill's benchmark corpus (a RIFF-like format made up for the corpus).
 *
 * File:   the 4 magic bytes "MHCK", then chunks up to the end of the file.
 * Chunk:  [id: 4 ASCII bytes][length: 4 bytes, little-endian][payload: length bytes]
 * Ids:    LIST  payload = a 4-letter form name (a-z) + chunks that fill the rest exactly
 *         TEXT  printable ASCII (0x20..0x7e), length >= 1
 *         NAME  printable ASCII, length 1..64
 *         INTS  u32 values, length a multiple of 4
 *         INDX  u32 sample indices, length a multiple of 4 and >= 4
 *         BLOB  any bytes
 * A chunk's depth is the number of LISTs around it.  Lists nest at most MAX_DEPTH deep.
 *
 * Pass 1 validates the whole file; any format error exits with status 1 and nothing else
 * happens.  Pass 2 decodes the chunks in file order.  The decoder of an INDX chunk inside
 * a "trak" list that is itself inside another list looks each index up in a table of
 * TABLE_SIZE entries without a bounds check; this reader calls abort() (exit status 134
 * in a shell) where the real bug would read out of bounds.  A valid file without such an
 * index exits 0.
 *
 * Usage: parser FILE
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILE (256L << 20)
#define MAX_DEPTH 32
#define TABLE_SIZE 4096u

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static int printable(const uint8_t *v, size_t len)
{
    size_t i;

    for (i = 0; i < len; i++)
        if (v[i] < 0x20 || v[i] > 0x7e)
            return 0;
    return 1;
}

static int is_form(const uint8_t *v)
{
    int i;

    for (i = 0; i < 4; i++)
        if (v[i] < 'a' || v[i] > 'z')
            return 0;
    return 1;
}

/* Pass 1: 0 if p[0..n) is exactly a sequence of valid chunks, -1 otherwise. */
static int validate(const uint8_t *p, size_t n, int depth)
{
    size_t off = 0;

    if (depth > MAX_DEPTH)
        return -1;
    while (off < n) {
        const uint8_t *id, *v;
        size_t len;

        if (n - off < 8)
            return -1;                      /* truncated header */
        id = p + off;
        len = le32(p + off + 4);
        off += 8;
        if (len > n - off)
            return -1;                      /* payload overruns its parent */
        v = p + off;
        if (memcmp(id, "LIST", 4) == 0) {
            if (len < 4 || !is_form(v) || validate(v + 4, len - 4, depth + 1) != 0)
                return -1;
        } else if (memcmp(id, "TEXT", 4) == 0) {
            if (len < 1 || !printable(v, len))
                return -1;
        } else if (memcmp(id, "NAME", 4) == 0) {
            if (len < 1 || len > 64 || !printable(v, len))
                return -1;
        } else if (memcmp(id, "INTS", 4) == 0) {
            if (len % 4 != 0)
                return -1;
        } else if (memcmp(id, "INDX", 4) == 0) {
            if (len < 4 || len % 4 != 0)
                return -1;
        } else if (memcmp(id, "BLOB", 4) != 0) {
            return -1;                      /* unknown chunk id */
        }
        off += len;
    }
    return 0;
}

static void decode_index(const uint8_t *v, size_t len)
{
    static uint32_t table[TABLE_SIZE];
    uint64_t sum = 0;
    size_t i;

    for (i = 0; i + 4 <= len; i += 4) {
        uint32_t at = le32(v + i);
        if (at >= TABLE_SIZE)
            abort();                        /* the unchecked table[at] of the real decoder */
        sum += table[at];
    }
    (void)sum;
}

/* Pass 2: walk the (valid) chunks in file order; `form` is the enclosing list's form. */
static void walk(const uint8_t *p, size_t n, int depth, const uint8_t *form)
{
    size_t off = 0;

    while (off < n) {
        const uint8_t *id = p + off;
        size_t len = le32(p + off + 4);

        off += 8;
        if (memcmp(id, "LIST", 4) == 0)
            walk(p + off + 4, len - 4, depth + 1, p + off);
        else if (memcmp(id, "INDX", 4) == 0 && form != NULL && memcmp(form, "trak", 4) == 0 &&
                 depth >= 2)
            decode_index(p + off, len);
        off += len;
    }
}

int main(int argc, char **argv)
{
    FILE *fh;
    uint8_t *buf;
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
    buf = malloc(MAX_FILE + 1);
    if (buf == NULL)
        return 2;
    n = fread(buf, 1, MAX_FILE + 1, fh);
    fclose(fh);
    if (n > MAX_FILE || n < 4 || memcmp(buf, "MHCK", 4) != 0)
        return 1;
    if (validate(buf + 4, n - 4, 0) != 0)
        return 1;
    walk(buf + 4, n - 4, 0, NULL);
    free(buf);
    return 0;
}
