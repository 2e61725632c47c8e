/*
 * transport_threads.c — libhyperdo.a's transport: the P = 2^n processors
 * are P threads of one process (physical 0 is the thread that called
 * hd_run), and each ordered pair (src, dst) has a FIFO mailbox guarded by
 * a mutex and a condition variable.
 *
 * v_send never blocks: if the receiver is already waiting in v_receive
 * for this pair with an empty mailbox, the sender copies the data
 * straight into the receiver's buffer; otherwise it queues a malloc'ed
 * copy.  A receiver first takes a queued message; if there is none it
 * posts its buffer, spins a little on the "delivered" flag (when there
 * are no more processors than CPUs, so the spin cannot starve the
 * sender), then sleeps on the condition variable.  HYPERDO_SPIN in the
 * environment overrides the number of spins (0: always sleep).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1 /* sysconf(_SC_NPROCESSORS_ONLN) */
#endif
#include "hd_internal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#define cpu_relax() __builtin_ia32_pause()
#elif defined(__aarch64__)
#define cpu_relax() __asm__ __volatile__("yield")
#else
#define cpu_relax() ((void)0)
#endif

const char hd__tr_name[] = "threads";

typedef struct msg {
    struct msg *next;
    size_t size;
    unsigned char data[];
} msg;

typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    msg *head, *tail;
    /* A receiver waiting with an empty queue: */
    void *posted;            /* its buffer, or NULL */
    size_t posted_size;      /* the size it expects */
    size_t delivered_size;   /* the size of the message handed over */
    atomic_int delivered;    /* set (release) once the message is in */
    int sleeping;            /* the receiver waits on cv */
} __attribute__((aligned(64))) mailbox;

typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int count;
    unsigned long generation;
} barrier_t;

static int P;
static mailbox *boxes; /* boxes[dst * P + src] */
static pthread_t *threads;
static barrier_t bar;
static long spin_limit;
static void (*node_entry)(void);
static _Thread_local int tl_self = -1;

static mailbox *box(int dst, int src)
{
    return &boxes[(size_t)dst * (size_t)P + (size_t)src];
}

static void *thread_main(void *arg)
{
    tl_self = (int)(intptr_t)arg;
    node_entry();
    tl_self = -1;
    return NULL;
}

static long choose_spin(int nprocs)
{
    const char *s = getenv("HYPERDO_SPIN");
    long ncpu = 1;
    if (s && *s)
        return strtol(s, NULL, 10);
#ifdef _SC_NPROCESSORS_ONLN
    ncpu = sysconf(_SC_NPROCESSORS_ONLN);
#endif
    /* Spinning only helps when every processor can have a CPU. */
    return nprocs <= ncpu ? 20000 : 0;
}

void hd__tr_start(int nprocs, int *argc, char ***argv, void (*node_main)(void))
{
    (void)argc;
    (void)argv;
    P = nprocs;
    node_entry = node_main;
    spin_limit = choose_spin(nprocs);
    boxes = aligned_alloc(64, sizeof(mailbox) * (size_t)P * (size_t)P);
    threads = calloc((size_t)P, sizeof *threads);
    if (!boxes || !threads)
        hd__fatal("hd_run: out of memory for %d processors", P);
    memset(boxes, 0, sizeof(mailbox) * (size_t)P * (size_t)P);
    for (size_t i = 0; i < (size_t)P * (size_t)P; i++) {
        pthread_mutex_init(&boxes[i].mu, NULL);
        pthread_cond_init(&boxes[i].cv, NULL);
        atomic_init(&boxes[i].delivered, 0);
    }
    pthread_mutex_init(&bar.mu, NULL);
    pthread_cond_init(&bar.cv, NULL);
    bar.count = 0;
    bar.generation = 0;
    tl_self = 0;
    for (int p = 1; p < P; p++) {
        pthread_attr_t attr;
        int err;
        pthread_attr_init(&attr);
        /* Node functions may keep large arrays on the stack, as main does. */
        pthread_attr_setstacksize(&attr, (size_t)8 << 20);
        err = pthread_create(&threads[p], &attr, thread_main, (void *)(intptr_t)p);
        pthread_attr_destroy(&attr);
        if (err)
            hd__fatal("hd_run: cannot start thread %d of %d: %s", p, P, strerror(err));
    }
}

int hd__tr_self(void)
{
    return tl_self;
}

void hd__tr_send(int p, const void *data, size_t size)
{
    mailbox *b = box(p, tl_self);
    pthread_mutex_lock(&b->mu);
    if (b->posted && !b->head) {
        /* The receiver waits for exactly this message: hand it over. */
        if (b->posted_size == size && size > 0)
            memcpy(b->posted, data, size);
        b->delivered_size = size;
        b->posted = NULL;
        atomic_store_explicit(&b->delivered, 1, memory_order_release);
        if (b->sleeping)
            pthread_cond_signal(&b->cv);
        pthread_mutex_unlock(&b->mu);
        return;
    }
    pthread_mutex_unlock(&b->mu);

    /* Copy outside the lock, then queue. */
    msg *m = malloc(sizeof(msg) + size);
    if (!m)
        hd__fatal("v_send: out of memory for a message of %zu bytes", size);
    m->next = NULL;
    m->size = size;
    if (size > 0)
        memcpy(m->data, data, size);

    pthread_mutex_lock(&b->mu);
    if (b->posted && !b->head) {
        /* The receiver posted while we copied. */
        if (b->posted_size == size && size > 0)
            memcpy(b->posted, m->data, size);
        b->delivered_size = size;
        b->posted = NULL;
        atomic_store_explicit(&b->delivered, 1, memory_order_release);
        if (b->sleeping)
            pthread_cond_signal(&b->cv);
        pthread_mutex_unlock(&b->mu);
        free(m);
        return;
    }
    if (b->tail)
        b->tail->next = m;
    else
        b->head = m;
    b->tail = m;
    pthread_mutex_unlock(&b->mu);
}

size_t hd__tr_recv(int p, void *data, size_t size)
{
    mailbox *b = box(tl_self, p);
    size_t got;
    msg *m;

    pthread_mutex_lock(&b->mu);
    if ((m = b->head) != NULL) {
        b->head = m->next;
        if (!b->head)
            b->tail = NULL;
        pthread_mutex_unlock(&b->mu);
        got = m->size;
        if (got == size && size > 0)
            memcpy(data, m->data, size);
        free(m);
        return got;
    }
    b->posted = data;
    b->posted_size = size;
    atomic_store_explicit(&b->delivered, 0, memory_order_relaxed);
    pthread_mutex_unlock(&b->mu);

    for (long i = 0; i < spin_limit; i++) {
        if (atomic_load_explicit(&b->delivered, memory_order_acquire))
            goto done;
        cpu_relax();
    }
    pthread_mutex_lock(&b->mu);
    while (!atomic_load_explicit(&b->delivered, memory_order_acquire)) {
        b->sleeping = 1;
        pthread_cond_wait(&b->cv, &b->mu);
        b->sleeping = 0;
    }
    pthread_mutex_unlock(&b->mu);
done:
    /* The sender wrote delivered_size before its release store. */
    return b->delivered_size;
}

void hd__tr_barrier(void)
{
    pthread_mutex_lock(&bar.mu);
    unsigned long gen = bar.generation;
    if (++bar.count == P) {
        bar.count = 0;
        bar.generation++;
        pthread_cond_broadcast(&bar.cv);
    } else {
        while (gen == bar.generation)
            pthread_cond_wait(&bar.cv, &bar.mu);
    }
    pthread_mutex_unlock(&bar.mu);
}

void hd__tr_finish(void)
{
    for (int p = 1; p < P; p++)
        pthread_join(threads[p], NULL);
    for (size_t i = 0; i < (size_t)P * (size_t)P; i++) {
        msg *m = boxes[i].head;
        while (m) {
            msg *next = m->next;
            free(m);
            m = next;
        }
        pthread_mutex_destroy(&boxes[i].mu);
        pthread_cond_destroy(&boxes[i].cv);
    }
    pthread_mutex_destroy(&bar.mu);
    pthread_cond_destroy(&bar.cv);
    free(boxes);
    free(threads);
    boxes = NULL;
    threads = NULL;
    tl_self = -1;
}

void hd__tr_abort(void)
{
    /* Other threads keep running until _exit; stdout is flushed so that
     * what the program printed before the error is not lost. */
    fflush(stdout);
    _exit(1);
}
