// The lock of `Locked`: a word that a thread takes with one compare-and-swap, and that a thread which finds it taken
// waits on, after spinning briefly, with the operating system's wait on an address (a futex on Linux,
// `os_sync_wait_on_address` on Darwin). The algorithm is the same on every platform; only those two calls differ.
//
// Not `Synchronization.Mutex`: on Linux, a `Mutex` is a priority-inheritance futex, and once a thread waits in the
// kernel, unlocking hands the lock to that thread, which owns it before it runs again. With more threads than cores,
// every handover then waits for the scheduler, and the lock serves one thread per context switch: 8 threads on 2 cores
// resolving a transient took 0.3 ms each, and 4 µs with this lock (Benchmarks: `ThreadScaling`). This lock never hands
// over: an unlock frees the word and wakes one waiter, and whichever thread runs first takes it.
//
// The word is 0 when free, 1 when taken, and 2 when taken and a thread may be waiting, so that an unlock makes the
// system call only when one may be.
#ifndef SERVICE_HIVE_LOCK_H
#define SERVICE_HIVE_LOCK_H

#include <stdint.h>

/// Waits until the lock is free and takes it; called by `service_hive_lock` when the word was not 0.
void service_hive_lock_contended(uint32_t *_Nonnull word);

/// Wakes a thread waiting for the lock; called by `service_hive_unlock` when one may be waiting.
void service_hive_lock_wake(uint32_t *_Nonnull word);

/// Takes the lock: one compare-and-swap when it is free, inlined into the caller.
static inline __attribute__((always_inline)) void service_hive_lock(uint32_t *_Nonnull word) {
    uint32_t expected = 0;
    if (__builtin_expect(__atomic_compare_exchange_n(word, &expected, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED), 1)) {
        return;
    }
    service_hive_lock_contended(word);
}

/// Releases the lock, waking one waiting thread when one may be waiting.
static inline __attribute__((always_inline)) void service_hive_unlock(uint32_t *_Nonnull word) {
    if (__builtin_expect(__atomic_exchange_n(word, 0, __ATOMIC_RELEASE) == 2, 0)) {
        service_hive_lock_wake(word);
    }
}

#endif
