// The program's heap settings (app/heap.hpp): a block the size of a width-1024 MLP's weight
// matrix is taken from the heap and stays there once freed, instead of being mapped on its
// own and returned to the kernel (glibc's defaults do both, in a fresh process such as each
// ctest's). Allocators other than glibc's, and the sanitizers', ignore the settings: skipped.
#include <cstdlib>
#include <cstring>

#include <gtest/gtest.h>

#include "akm/app/heap.hpp"

#if defined(__GLIBC__)  // <cstdlib> above defines it
#include <malloc.h>
#endif

#if defined(__SANITIZE_ADDRESS__)
#define AKM_HEAP_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define AKM_HEAP_TEST_SANITIZED 1
#endif
#endif

TEST(Heap, KeepsAFreedWeightMatrixInTheHeap) {
#if !defined(__GLIBC__) || defined(AKM_HEAP_TEST_SANITIZED)
  GTEST_SKIP() << "glibc's own allocator only";
#else
  akm::app::keep_freed_memory();
  constexpr std::size_t bytes = std::size_t{1024} * 1024 * sizeof(double);  // 8 MiB
  const struct mallinfo2 before = mallinfo2();
  void* block = std::malloc(bytes);
  ASSERT_NE(block, nullptr);
  std::memset(block, 1, bytes);
  const struct mallinfo2 held = mallinfo2();
  EXPECT_EQ(held.hblks, before.hblks) << "the block was mapped on its own (mmap threshold)";
  std::free(block);
  const struct mallinfo2 after = mallinfo2();
  EXPECT_EQ(after.arena, held.arena) << "the freed top of the heap went back to the kernel";
  EXPECT_GE(after.fordblks, bytes);
#endif
}
