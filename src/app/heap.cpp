#include "akm/app/heap.hpp"

#include <cstdlib>  // defines __GLIBC__ under glibc, read by the #if below

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace akm::app {

void keep_freed_memory() {
#if defined(__GLIBC__)
  // Setting any of these turns off glibc's dynamic mmap threshold (which otherwise starts at
  // 128 KiB and rises to the largest block freed), so the threshold is set explicitly, at
  // its largest allowed value on 64-bit (HEAP_MAX_SIZE / 2 = 32 MiB).
  mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
  // The heap's top is returned to the kernel only above 1 GiB free; grown in 64 MiB steps.
  mallopt(M_TRIM_THRESHOLD, 1024 * 1024 * 1024);
  mallopt(M_TOP_PAD, 64 * 1024 * 1024);
#endif
}

}  // namespace akm::app
