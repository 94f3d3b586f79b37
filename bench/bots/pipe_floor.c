/* The least a round trip over pipes costs: a blocking parent writes a message of argv[2] bytes to a
 * child that echoes one line back, argv[1] times. Prints the parent's CPU and the wall clock per
 * round trip in microseconds: "cpu_us wall_us". The floor bench/speed.py sets arena's ply against.
 * Build: cc -O2 -o pipe_floor pipe_floor.c */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double cpu_now(void) {
    struct rusage use;
    getrusage(RUSAGE_SELF, &use);
    return use.ru_utime.tv_sec + use.ru_stime.tv_sec + (use.ru_utime.tv_usec + use.ru_stime.tv_usec) / 1e6;
}

static double wall_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

/* Read until a newline ends what was read; returns 0 at end of input. */
static int read_line(int fd, char *buf, size_t size) {
    size_t have = 0;
    while (have == 0 || buf[have - 1] != '\n') {
        ssize_t got = read(fd, buf + have, size - have);
        if (got <= 0) return 0;
        have += (size_t)got;
    }
    return 1;
}

int main(int argc, char **argv) {
    long rounds = argc > 1 ? atol(argv[1]) : 20000;
    size_t size = argc > 2 ? (size_t)atol(argv[2]) : 200;
    static char buf[1 << 16], message[1 << 16];
    if (size < 2 || size > sizeof message) size = 200;
    memset(message, 'x', size - 1);
    message[size - 1] = '\n';
    int down[2], up[2];
    if (pipe(down) || pipe(up)) return 1;
    pid_t child = fork();
    if (child == 0) {
        close(down[1]);
        close(up[0]);
        static const char reply[] = "{\"type\":\"turn\",\"payload\":{\"from\":\"a2\",\"to\":\"a3\"}}\n";
        while (read_line(down[0], buf, sizeof buf))
            if (write(up[1], reply, sizeof reply - 1) < 0) return 1;
        return 0;
    }
    close(down[0]);
    close(up[1]);
    for (long i = 0; i < rounds / 10; i++) { /* warm up */
        if (write(down[1], message, size) < 0 || !read_line(up[0], buf, sizeof buf)) return 1;
    }
    double cpu0 = cpu_now(), wall0 = wall_now();
    for (long i = 0; i < rounds; i++) {
        if (write(down[1], message, size) < 0 || !read_line(up[0], buf, sizeof buf)) return 1;
    }
    double cpu = cpu_now() - cpu0, wall = wall_now() - wall0;
    close(down[1]);
    waitpid(child, NULL, 0);
    printf("%.3f %.3f\n", cpu / rounds * 1e6, wall / rounds * 1e6);
    return 0;
}
