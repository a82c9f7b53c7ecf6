#include "Lock.h"

// The two calls that differ between operating systems: sleep while the word holds a value, and wake one sleeper.
#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

static void service_hive_wait(uint32_t *_Nonnull word, uint32_t value) {
    // Returns at once if the word no longer holds `value`.
    syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, value, (void *)0, (void *)0, 0);
}

static void service_hive_wake_one(uint32_t *_Nonnull word) {
    syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, (void *)0, (void *)0, 0);
}
#elif defined(__APPLE__)
#include <os/os_sync_wait_on_address.h>

static void service_hive_wait(uint32_t *_Nonnull word, uint32_t value) {
    // Returns at once if the word no longer holds `value`.
    os_sync_wait_on_address(word, value, sizeof *word, OS_SYNC_WAIT_ON_ADDRESS_NONE);
}

static void service_hive_wake_one(uint32_t *_Nonnull word) {
    os_sync_wake_by_address_any(word, sizeof *word, OS_SYNC_WAKE_BY_ADDRESS_NONE);
}
#else
#error "ServiceHive's lock waits on an address: a futex on Linux, os_sync_wait_on_address on Darwin."
#endif

/// How many times a thread that finds the lock taken checks it again before it waits in the kernel. A section under
/// the lock runs tens of nanoseconds, so a holder that is running frees it within a few checks; one that was preempted
/// does not, and the thread sleeps rather than burn its time slice.
enum { service_hive_spins = 100 };

static inline void service_hive_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
    __asm__ __volatile__("yield");
#endif
}

void service_hive_lock_contended(uint32_t *_Nonnull word) {
    for (int spin = 0; spin < service_hive_spins; spin++) {
        uint32_t seen = __atomic_load_n(word, __ATOMIC_RELAXED);
        if (seen == 0) {
            uint32_t expected = 0;
            if (__atomic_compare_exchange_n(word, &expected, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) { return; }
        } else if (seen == 2) {
            break;  // Threads wait already: wait with them rather than compete with the one woken.
        }
        service_hive_pause();
    }
    // Marks the lock as awaited before each wait, so that its holder's unlock wakes a waiter; a thread that takes the
    // lock this way keeps the mark, which costs at most one needless wake.
    while (__atomic_exchange_n(word, 2, __ATOMIC_ACQUIRE) != 0) { service_hive_wait(word, 2); }
}

void service_hive_lock_wake(uint32_t *_Nonnull word) { service_hive_wake_one(word); }
