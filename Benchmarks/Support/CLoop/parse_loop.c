// The yardstick of Benchmarks/parse-vs-c.sh: a tight C loop that reads a trace's bytes and does the least work a
// simulator must do with each row, for comparison with Jetsim's own readers on the same file.
//
//   parse_loop libcachesim FILE   time,obj_id,obj_size rows (header skipped): the id numbered densely through an
//                                 open-addressing hash, the time and the size parsed as integers;
//   parse_loop jetsim FILE        time,app,event,value[,user] rows (header skipped): the time in µs from decimal
//                                 seconds, the app numbered through a hash of its name, the event matched against
//                                 the ten names, the value a decimal (or a background mode's name), the user an
//                                 integer.
//
// Prints the rows, the distinct ids and a checksum, so that no work can be left out. No validation, no error
// messages, no quoted fields: a floor to measure against, not a reader.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *slurp(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); exit(66); }
    size_t capacity = 1 << 24, used = 0;
    unsigned char *data = malloc(capacity);
    for (;;) {
        if (used == capacity) data = realloc(data, capacity *= 2);
        size_t n = fread(data + used, 1, capacity - used, f);
        if (n == 0) break;
        used += n;
    }
    fclose(f);
    *size = used;
    return data;
}

// Open addressing over 64-bit keys (key + 1 stored, 0 = empty), doubling at half full.
typedef struct { uint64_t *keys; uint32_t *values; size_t mask, count; } IdTable;

static uint64_t mix(uint64_t x) {
    x ^= x >> 33; x *= 0xff51afd7ed558ccdULL; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ULL; return x ^ (x >> 33);
}

static void table_init(IdTable *t, size_t capacity) {
    t->keys = calloc(capacity, sizeof *t->keys);
    t->values = malloc(capacity * sizeof *t->values);
    t->mask = capacity - 1;
    t->count = 0;
}

static uint32_t table_id(IdTable *t, uint64_t key);

static void table_grow(IdTable *t) {
    IdTable bigger;
    table_init(&bigger, (t->mask + 1) * 2);
    for (size_t i = 0; i <= t->mask; i++) {
        if (!t->keys[i]) continue;
        size_t j = mix(t->keys[i]) & bigger.mask;
        while (bigger.keys[j]) j = (j + 1) & bigger.mask;
        bigger.keys[j] = t->keys[i];
        bigger.values[j] = t->values[i];
    }
    bigger.count = t->count;
    free(t->keys);
    free(t->values);
    *t = bigger;
}

static uint32_t table_id(IdTable *t, uint64_t key) {
    uint64_t stored = key + 1;
    size_t i = mix(stored) & t->mask;
    while (t->keys[i]) {
        if (t->keys[i] == stored) return t->values[i];
        i = (i + 1) & t->mask;
    }
    if ((t->count + 1) * 2 > t->mask + 1) {
        table_grow(t);
        return table_id(t, key);
    }
    t->keys[i] = stored;
    return t->values[i] = (uint32_t)t->count++;
}

static inline uint64_t integer(const unsigned char **p, const unsigned char *end) {
    uint64_t v = 0;
    while (*p < end && **p >= '0' && **p <= '9') v = v * 10 + (uint64_t)(*(*p)++ - '0');
    return v;
}

// A decimal with up to six fraction digits, scaled by 10^6.
static inline uint64_t micros(const unsigned char **p, const unsigned char *end) {
    uint64_t v = integer(p, end) * 1000000;
    if (*p < end && **p == '.') {
        (*p)++;
        uint64_t scale = 100000;
        while (*p < end && **p >= '0' && **p <= '9') { v += (uint64_t)(**p - '0') * scale; scale /= 10; (*p)++; }
    }
    return v;
}

static inline const unsigned char *skip_line(const unsigned char *p, const unsigned char *end) {
    const unsigned char *nl = memchr(p, '\n', (size_t)(end - p));
    return nl ? nl + 1 : end;
}

static int libcachesim(const unsigned char *p, const unsigned char *end) {
    IdTable ids;
    table_init(&ids, 1 << 16);
    uint64_t rows = 0, checksum = 0;
    if (p < end && (*p < '0' || *p > '9')) p = skip_line(p, end);
    while (p < end) {
        uint64_t time = integer(&p, end); p++;
        uint64_t id = integer(&p, end); p++;
        uint64_t size = integer(&p, end);
        p = skip_line(p, end);
        checksum += time + table_id(&ids, id) + size;
        rows++;
    }
    printf("%llu rows, %zu objects, checksum %llu\n", (unsigned long long)rows, ids.count, (unsigned long long)checksum);
    return 0;
}

// App names: hashed bytes into the same table (a collision of two names' 64-bit hashes is ignored: a yardstick).
static uint64_t name_hash(const unsigned char *s, size_t n) {
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) h = (h ^ s[i]) * 1099511628211ULL;
    return h >> 1;
}

static const char *events[] = {"open", "home", "interrupt", "bg_task", "bg_launch", "mode_start", "mode_stop",
                               "alloc", "quit", "finish"};

static int jetsim(const unsigned char *p, const unsigned char *end) {
    IdTable apps;
    table_init(&apps, 1 << 10);
    uint64_t rows = 0, checksum = 0;
    p = skip_line(p, end);
    while (p < end) {
        uint64_t time = micros(&p, end); p++;
        const unsigned char *name = p;
        while (p < end && *p != ',') p++;
        uint32_t app = p > name ? table_id(&apps, name_hash(name, (size_t)(p - name))) : 0;
        p++;
        const unsigned char *event = p;
        while (p < end && *p != ',') p++;
        size_t length = (size_t)(p - event);
        uint64_t kind = 99;
        for (uint64_t k = 0; k < sizeof events / sizeof *events; k++)
            if (strlen(events[k]) == length && memcmp(events[k], event, length) == 0) { kind = k; break; }
        p++;
        uint64_t value = 0;
        if (p < end && *p >= 'a' && *p <= 'z') {   // a background mode's name
            while (p < end && *p != ',' && *p != '\n') value = value * 31 + *p++;
        } else {
            value = micros(&p, end);
        }
        uint64_t user = 0;
        if (p < end && *p == ',') { p++; user = integer(&p, end); }
        p = skip_line(p, end);
        checksum += time + app + kind + value + user;
        rows++;
    }
    printf("%llu rows, %zu apps, checksum %llu\n", (unsigned long long)rows, apps.count, (unsigned long long)checksum);
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 3 || (strcmp(argv[1], "libcachesim") && strcmp(argv[1], "jetsim"))) {
        fprintf(stderr, "usage: parse_loop libcachesim|jetsim FILE\n");
        return 64;
    }
    size_t size;
    unsigned char *data = slurp(argv[2], &size);
    int status = strcmp(argv[1], "jetsim") == 0 ? jetsim(data, data + size) : libcachesim(data, data + size);
    free(data);
    return status;
}
