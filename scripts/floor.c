/* The floor of a -j1 `solve -b null` run on a machine: the least the same job takes in C,
 * with no error handling, no quoting and no checks beyond what the row needs. Reads
 * 81-character lines, counts the givens and checks them for conflicts (bit masks), reads
 * the clock twice around nothing (as the harness times a solver), writes the same CSV row
 * `solve --csv` writes, in 64 KiB blocks. Lines of another length are skipped.
 *
 *   gcc -O2 -o floor scripts/floor.c && ./floor 1m.txt /dev/shm/floor.csv
 *   (-DNO_CLOCK leaves the two clock reads out)
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char *put_uint(char *p, unsigned long n) {
    char t[24];
    int k = 0;
    do {
        t[k++] = (char)('0' + n % 10);
        n /= 10;
    } while (n);
    while (k) *p++ = t[--k];
    return p;
}

static char *put(char *p, const char *s) {
    size_t n = strlen(s);
    memcpy(p, s, n);
    return p + n;
}

static void now(struct timespec *t) {
#ifdef NO_CLOCK
    t->tv_sec = 0;
    t->tv_nsec = 0;
#else
    clock_gettime(CLOCK_MONOTONIC, t);
#endif
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: floor IN OUT\n");
        return 2;
    }
    int in = open(argv[1], O_RDONLY), out = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in < 0 || out < 0) {
        perror("open");
        return 1;
    }
    static char ib[1 << 16], ob[1 << 17];
    size_t il = 0, ol;
    unsigned long record = 0;
    const char *header = "source,record,line,backend,status,solutions,clues,valid,matches_expected,"
                         "nodes,guesses,time_ns,thread,puzzle,solution,error,size,clock,verified\n";
    ol = strlen(header);
    memcpy(ob, header, ol);
    unsigned char row[81], col[81], box[81];
    for (int i = 0; i < 81; i++) {
        row[i] = (unsigned char)(i / 9);
        col[i] = (unsigned char)(i % 9);
        box[i] = (unsigned char)(i / 27 * 3 + i % 9 / 3);
    }
    for (;;) {
        ssize_t n = read(in, ib + il, sizeof ib - il);
        if (n > 0) il += (size_t)n;
        size_t s = 0;
        char *e;
        while ((e = memchr(ib + s, '\n', il - s))) {
            char *l = ib + s;
            size_t len = (size_t)(e - l);
            s += len + 1;
            if (len != 81) continue;
            unsigned char g[81];
            unsigned short r[9] = {0}, c[9] = {0}, b[9] = {0};
            int clues = 0, conflict = 0;
            for (int i = 0; i < 81; i++) {
                int d = l[i] >= '1' && l[i] <= '9' ? l[i] - '0' : 0;
                g[i] = (unsigned char)d;
                if (d) {
                    unsigned short bit = (unsigned short)(1 << d);
                    clues++;
                    conflict |= ((r[row[i]] | c[col[i]] | b[box[i]]) & bit) != 0;
                    r[row[i]] |= bit, c[col[i]] |= bit, b[box[i]] |= bit;
                }
            }
            struct timespec t0, t1;
            now(&t0);
            __asm__ volatile("" ::"r"(g) : "memory");
            now(&t1);
            unsigned long ns = (unsigned long)(t1.tv_sec - t0.tv_sec) * 1000000000UL +
                               (unsigned long)(t1.tv_nsec - t0.tv_nsec);
            record++;
            char *p = ob + ol;
            p = put(p, "1m.txt,");
            p = put_uint(p, record);
            *p++ = ',';
            p = put_uint(p, record);
            p = put(p, conflict ? ",null,invalid_givens,0," : ",null,not_solved,0,");
            p = put_uint(p, (unsigned long)clues);
            p = put(p, ",,,,,");
            p = put_uint(p, conflict ? 0 : ns);
            p = put(p, ",0,");
            for (int i = 0; i < 81; i++) p[i] = g[i] ? (char)('0' + g[i]) : '.';
            p = put(p + 81, conflict ? ",,conflict,9,,\n" : ",,,9,harness,\n");
            ol = (size_t)(p - ob);
            if (ol > (1 << 16)) {
                if (write(out, ob, ol) != (ssize_t)ol) return 1;
                ol = 0;
            }
        }
        memmove(ib, ib + s, il - s);
        il -= s;
        if (n <= 0) break;
    }
    return write(out, ob, ol) == (ssize_t)ol ? 0 : 1;
}
