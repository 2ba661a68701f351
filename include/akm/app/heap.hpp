// heap — how the program's allocator keeps freed memory. Set once, first thing in main.
#pragma once

namespace akm::app {

/// Keeps freed blocks below 32 MiB in the process's heap instead of returning them to the
/// kernel after each free. The MLP trainings of the width-sweep claims (mlp_coord, widths to
/// 1024: 8 MiB weight and gradient matrices) allocate and free their per-step matrices
/// millions of times; glibc's defaults hand each one back (mmap above its threshold, trim of
/// the heap's top) and fault it in again on the next step, a quarter of those runs' CPU time
/// spent in the kernel. Numbers do not change: only where the bytes live. A no-op outside
/// glibc and under the sanitizers, whose allocators ignore these settings.
void keep_freed_memory();

}  // namespace akm::app
