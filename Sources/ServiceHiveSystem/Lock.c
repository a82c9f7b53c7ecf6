#include "Lock.h"

#if defined(__linux__)

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

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
    while (__atomic_exchange_n(word, 2, __ATOMIC_ACQUIRE) != 0) {
        // Returns at once if the word is no longer 2: an unlock came between the exchange and the wait.
        syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, 2, (void *)0, (void *)0, 0);
    }
}

void service_hive_lock_wake(uint32_t *_Nonnull word) {
    syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, (void *)0, (void *)0, 0);
}

#endif
