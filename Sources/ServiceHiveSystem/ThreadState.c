#include "ThreadState.h"

_Thread_local void *_Nullable service_hive_thread_state = 0;
