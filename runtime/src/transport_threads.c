/*
 * transport_threads.c — libhyperdo.a's transport: the P = 2^n processors
 * are P threads of one process (physical 0 is the thread that called
 * hd_run), and each ordered pair (src, dst) has a FIFO mailbox guarded by
 * a mutex and a condition variable.
 *
 * v_send never blocks.  A message of up to 48 bytes whose receiver has
 * taken every earlier message of the pair goes into the pair's one-line
 * slot without a lock (the latency path).  A larger message is copied
 * straight into the receiver's buffer if the receiver is already waiting
 * for it (it posted the buffer), else a malloc'ed copy is queued.  A
 * receiver spins a little (only when there are no more processors than
 * CPUs, so that spinning cannot starve the sender), then sleeps on the
 * condition variable.  HYPERDO_SPIN in the environment overrides the
 * number of spins (0: always sleep).
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
#include <sys/mman.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#define cpu_relax() __builtin_ia32_pause()
#elif defined(__aarch64__)
#define cpu_relax() __asm__ __volatile__("yield")
#else
#define cpu_relax() ((void)0)
#endif

const char hd__tr_name[] = "threads";
const int hd__tr_shared = 1;

typedef struct msg {
    struct msg *next;
    unsigned long num; /* the message's number in its pair's sequence */
    size_t size;
    unsigned char data[];
} msg;

/* Messages of up to SLOT_BYTES bytes go through a one-message slot that
 * fills one cache line, without locks, when the receiver has taken every
 * earlier message of the pair. */
#define SLOT_BYTES 48

/* The channel from one processor (the sender) to another (the receiver).
 * Its messages are numbered 1, 2, ... by the sender; each travels by
 * exactly one of three ways: the slot, the queue, or a direct copy into
 * the buffer a waiting receiver posted for that number. */
typedef struct {
    /* Written by the sender: the slot. */
    _Alignas(64) atomic_ulong slot_num; /* the number of the message in it */
    size_t slot_size;
    unsigned char slot_data[SLOT_BYTES];
    /* Written by the receiver. */
    _Alignas(64) atomic_ulong taken;    /* messages taken so far */
    atomic_int sleeping;                /* it waits on cv */
    /* The sender's own count. */
    _Alignas(64) unsigned long sent;
    /* Under mu: the queue and the posted buffer. */
    _Alignas(64) pthread_mutex_t mu;
    pthread_cond_t cv;
    msg *head, *tail;
    atomic_int queued;                  /* messages in the queue */
    void *posted;                       /* the receiver's buffer ... */
    size_t posted_size;                 /* ... the size it expects ... */
    unsigned long posted_num;           /* ... and for which message */
    size_t delivered_size;              /* a direct copy's size ... */
    atomic_ulong delivered_num;         /* ... and number (release) */
} mailbox;

typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int count;
    unsigned long generation;
} barrier_t;

static int P;
static mailbox *boxes; /* boxes[dst * P + src] */
static size_t boxes_bytes;
static unsigned char *used; /* used[dst * P + src]: a message went that way */
static int lazy;            /* the zeroed mapping is initialised already */

/* Are an all-zero mutex and condition variable the initialised ones? */
static int zero_is_initialised(void)
{
    static const pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
    static const pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
    static const unsigned char zero[sizeof mu > sizeof cv ? sizeof mu : sizeof cv];
    return memcmp(&mu, zero, sizeof mu) == 0 && memcmp(&cv, zero, sizeof cv) == 0;
}
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
    /* P^2 mailboxes (16 MiB at P = 256): mapped zeroed, so that only the
     * pages of the pairs that talk are ever touched.  Where zero bytes are
     * an initialised mutex and condition variable (glibc, musl), nothing
     * more is needed; elsewhere every mailbox is initialised. */
    boxes_bytes = sizeof(mailbox) * (size_t)P * (size_t)P;
    boxes = mmap(NULL, boxes_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    threads = calloc((size_t)P, sizeof *threads);
    used = calloc((size_t)P * (size_t)P, 1);
    if (boxes == MAP_FAILED || !threads || !used)
        hd__fatal("hd_run: out of memory for %d processors", P);
    lazy = zero_is_initialised();
    for (size_t i = 0; !lazy && i < (size_t)P * (size_t)P; i++) {
        pthread_mutex_init(&boxes[i].mu, NULL);
        pthread_cond_init(&boxes[i].cv, NULL);
        atomic_init(&boxes[i].slot_num, 0);
        atomic_init(&boxes[i].taken, 0);
        atomic_init(&boxes[i].sleeping, 0);
        atomic_init(&boxes[i].queued, 0);
        atomic_init(&boxes[i].delivered_num, 0);
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

/* Wakes the receiver if it sleeps; call with b->mu held. */
static void wake(mailbox *b)
{
    if (atomic_load(&b->sleeping))
        pthread_cond_signal(&b->cv);
}

/* Copies message k straight into the buffer the receiver posted for it,
 * if it did; call with b->mu held. */
static int deliver(mailbox *b, unsigned long k, const void *data, size_t size)
{
    if (!b->posted || b->posted_num != k)
        return 0;
    if (b->posted_size == size && size > 0)
        memcpy(b->posted, data, size);
    b->delivered_size = size;
    b->posted = NULL;
    atomic_store_explicit(&b->delivered_num, k, memory_order_release);
    wake(b);
    return 1;
}

void hd__tr_send(int p, const void *data, size_t size)
{
    mailbox *b = box(p, tl_self);
    used[(size_t)p * (size_t)P + (size_t)tl_self] = 1;   /* this sender's byte only */
    unsigned long k = ++b->sent;
    msg *m;

    if (size <= SLOT_BYTES &&
        atomic_load_explicit(&b->taken, memory_order_acquire) == k - 1) {
        /* Every earlier message is taken, so the slot is free. */
        if (size > 0)
            memcpy(b->slot_data, data, size);
        b->slot_size = size;
        atomic_store(&b->slot_num, k); /* seq_cst: ordered before the load below */
        if (atomic_load(&b->sleeping)) {
            pthread_mutex_lock(&b->mu);
            pthread_cond_signal(&b->cv);
            pthread_mutex_unlock(&b->mu);
        }
        return;
    }
    if (size > SLOT_BYTES) {
        pthread_mutex_lock(&b->mu);
        int done = deliver(b, k, data, size);
        pthread_mutex_unlock(&b->mu);
        if (done)
            return;
    }
    /* Queue a copy, made outside the lock. */
    if (!(m = hd__buf_get(sizeof(msg) + size)))
        hd__fatal("v_send: out of memory for a message of %zu bytes", size);
    m->next = NULL;
    m->num = k;
    m->size = size;
    if (size > 0)
        memcpy(m->data, data, size);
    pthread_mutex_lock(&b->mu);
    if (size > SLOT_BYTES && deliver(b, k, m->data, size)) {
        pthread_mutex_unlock(&b->mu);
        hd__buf_put(m, sizeof(msg) + size);
        return;
    }
    if (b->tail)
        b->tail->next = m;
    else
        b->head = m;
    b->tail = m;
    atomic_fetch_add(&b->queued, 1);
    wake(b);
    pthread_mutex_unlock(&b->mu);
}

/* Takes message k if it has arrived: returns 1 and its size in *got. */
static int try_take(mailbox *b, unsigned long k, void *data, size_t size, size_t *got)
{
    if (atomic_load_explicit(&b->slot_num, memory_order_acquire) == k) {
        *got = b->slot_size;
        if (*got == size && size > 0)
            memcpy(data, b->slot_data, size);
    } else if (atomic_load_explicit(&b->delivered_num, memory_order_acquire) == k) {
        *got = b->delivered_size;
    } else if (atomic_load_explicit(&b->queued, memory_order_acquire) > 0) {
        msg *m;
        pthread_mutex_lock(&b->mu);
        m = b->head;
        if (m && m->num == k) {
            b->head = m->next;
            if (!b->head)
                b->tail = NULL;
            atomic_fetch_sub(&b->queued, 1);
        } else {
            m = NULL; /* k is in the slot: seen on the next try */
        }
        pthread_mutex_unlock(&b->mu);
        if (!m)
            return 0;
        *got = m->size;
        if (*got == size && size > 0)
            memcpy(data, m->data, size);
        hd__buf_put(m, sizeof(msg) + m->size);
    } else {
        return 0;
    }
    atomic_store_explicit(&b->taken, k, memory_order_release);
    return 1;
}

static int arrived(mailbox *b, unsigned long k)
{
    return atomic_load(&b->slot_num) == k || atomic_load(&b->delivered_num) == k ||
           (b->head && b->head->num == k);
}

size_t hd__tr_recv(int p, void *data, size_t size)
{
    mailbox *b = box(tl_self, p);
    unsigned long k = atomic_load_explicit(&b->taken, memory_order_relaxed) + 1;
    size_t got;

    if (try_take(b, k, data, size, &got))
        return got;
    if (size > SLOT_BYTES) {
        /* Let the sender copy a large message straight into data. */
        pthread_mutex_lock(&b->mu);
        b->posted = data;
        b->posted_size = size;
        b->posted_num = k;
        pthread_mutex_unlock(&b->mu);
    }
    for (long i = 0; i < spin_limit; i++) {
        if (try_take(b, k, data, size, &got))
            return got;
        cpu_relax();
    }
    pthread_mutex_lock(&b->mu);
    for (;;) {
        atomic_store(&b->sleeping, 1); /* seq_cst: before the checks */
        if (arrived(b, k))
            break;
        pthread_cond_wait(&b->cv, &b->mu);
    }
    atomic_store(&b->sleeping, 0);
    pthread_mutex_unlock(&b->mu);
    if (!try_take(b, k, data, size, &got))
        hd__fatal("internal error: message %lu from processor %d vanished", k, p);
    return got;
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
        if (lazy && !used[i])
            continue;   /* never touched: still all zero */
        msg *m = boxes[i].head;
        while (m) {
            msg *next = m->next;
            hd__buf_put(m, sizeof(msg) + m->size);
            m = next;
        }
        pthread_mutex_destroy(&boxes[i].mu);
        pthread_cond_destroy(&boxes[i].cv);
    }
    pthread_mutex_destroy(&bar.mu);
    pthread_cond_destroy(&bar.cv);
    munmap(boxes, boxes_bytes);
    free(used);
    used = NULL;
    free(threads);
    boxes = NULL;
    threads = NULL;
    tl_self = -1;
}

void hd__tr_coll(const void *sched, double bytes)
{
    (void)sched;
    (void)bytes;   /* only the sim back end times collectives */
}

void hd__tr_abort(void)
{
    /* Other threads keep running until _exit; stdout is flushed so that
     * what the program printed before the error is not lost. */
    fflush(stdout);
    _exit(1);
}
