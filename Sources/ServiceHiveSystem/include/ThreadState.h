// The pointer to the state of the resolve running on this thread, in C's thread-local storage.
//
// Swift has no thread-local variables. `pthread_getspecific` is a function call that looks its key up; a C
// `_Thread_local` read is a load or two from the thread's block, inlined into the resolve, which reads it first thing
// (Benchmarks/count-instructions: 249 instructions for 02 through `pthread_getspecific`, 220 through this; 08b, a
// resolve in an override scope, 552 and 524).
//
// The key (`pthread_key_create`) is still what frees a thread's state when the thread exits; this variable only makes
// the state faster to find.
#ifndef SERVICE_HIVE_THREAD_STATE_H
#define SERVICE_HIVE_THREAD_STATE_H

extern _Thread_local void *_Nullable service_hive_thread_state;

/// This thread's state, or null before its first resolve.
static inline __attribute__((always_inline)) void *_Nullable service_hive_thread_state_get(void) {
    return service_hive_thread_state;
}

/// Sets this thread's state.
static inline __attribute__((always_inline)) void service_hive_thread_state_set(void *_Nullable state) {
    service_hive_thread_state = state;
}

#endif
