/* An LD_PRELOAD allocator hook that writes the memviz allocation log (CSV).
 *
 * PyTorch's CPU allocator (c10::alloc_cpu) takes tensor memory with posix_memalign and
 * returns it with free. This hook logs those allocations and their frees, tagged with the
 * operator, phase and module path that the Python side sets through ctypes
 * (memviz_hook_set_context). Only what happens between memviz_hook_enable(1) and
 * memviz_hook_enable(0) is logged, so the log ends with what was live at that moment.
 *
 *   gcc -shared -fPIC -O2 -o libmemviz_alloc_hook.so alloc_hook.c -ldl -lpthread
 *   MEMVIZ_ALLOC_LOG=out.csv LD_PRELOAD=./libmemviz_alloc_hook.so python3 script.py
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int (*real_posix_memalign)(void **, size_t, size_t);
static void (*real_free)(void *);
static FILE *log_file;
static int enabled;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char op[256], category[64], stack[1024];

/* Open-addressing set of the live pointers we logged (so only their frees are logged). */
#define TABLE_BITS 20
#define TABLE_SIZE (1u << TABLE_BITS)
static uintptr_t table[TABLE_SIZE];
static const uintptr_t TOMBSTONE = 1;

static size_t slot_of(uintptr_t p) { return (size_t)((p >> 6) * 0x9E3779B97F4A7C15ull >> (64 - TABLE_BITS)); }

static void table_insert(uintptr_t p) {
    for (size_t i = slot_of(p);; i = (i + 1) & (TABLE_SIZE - 1))
        if (table[i] == 0 || table[i] == TOMBSTONE || table[i] == p) { table[i] = p; return; }
}

static int table_remove(uintptr_t p) {
    for (size_t i = slot_of(p);; i = (i + 1) & (TABLE_SIZE - 1)) {
        if (table[i] == 0) return 0;
        if (table[i] == p) { table[i] = TOMBSTONE; return 1; }
    }
}

static long long now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

/* CSV field with RFC 4180 quoting when needed. */
static void put_field(const char *s) {
    if (!strpbrk(s, ",\"\n")) { fputs(s, log_file); return; }
    fputc('"', log_file);
    for (; *s; ++s) { if (*s == '"') fputc('"', log_file); fputc(*s, log_file); }
    fputc('"', log_file);
}

static void log_event(const char *action, void *p, size_t size, int with_size) {
    fprintf(log_file, "%lld,%s,%p,", now_ns(), action, p);
    if (with_size) fprintf(log_file, "%zu", size);
    fputs(",cpu,", log_file);
    put_field(op); fputc(',', log_file);
    put_field(category); fputc(',', log_file);
    put_field(stack); fputc('\n', log_file);
}

__attribute__((constructor)) static void init(void) {
    real_posix_memalign = (int (*)(void **, size_t, size_t))dlsym(RTLD_NEXT, "posix_memalign");
    real_free = (void (*)(void *))dlsym(RTLD_NEXT, "free");
    const char *path = getenv("MEMVIZ_ALLOC_LOG");
    if (path) {
        log_file = fopen(path, "w");
        if (log_file) fputs("time_ns,action,address,size,device,op,category,stack\n", log_file);
    }
}

__attribute__((destructor)) static void fini(void) {
    if (log_file) fclose(log_file);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    int rc = real_posix_memalign(out, alignment, size);
    if (rc == 0 && enabled && log_file) {
        pthread_mutex_lock(&lock);
        table_insert((uintptr_t)*out);
        log_event("alloc", *out, size, 1);
        pthread_mutex_unlock(&lock);
    }
    return rc;
}

void free(void *p) {
    if (p && enabled && log_file) {
        pthread_mutex_lock(&lock);
        if (table_remove((uintptr_t)p)) log_event("free", p, 0, 0);
        pthread_mutex_unlock(&lock);
    }
    if (!real_free) real_free = (void (*)(void *))dlsym(RTLD_NEXT, "free");
    real_free(p);
}

/* Called from Python (ctypes). */
void memviz_hook_enable(int on) { enabled = on; }

void memviz_hook_set_context(const char *new_op, const char *new_category, const char *new_stack) {
    pthread_mutex_lock(&lock);
    if (new_op) { strncpy(op, new_op, sizeof op - 1); }
    if (new_category) { strncpy(category, new_category, sizeof category - 1); }
    if (new_stack) { strncpy(stack, new_stack, sizeof stack - 1); }
    pthread_mutex_unlock(&lock);
}
