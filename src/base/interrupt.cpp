// interrupt — undo in-flight result writes on SIGINT/SIGTERM, then die by the signal.
//
// The handler may run on any thread at any moment, so it touches only a fixed table of
// C strings published with atomics, and calls only async-signal-safe functions (open,
// getdents64, unlinkat, rmdir, rename, access, signal, raise).
#include "akm/base/interrupt.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstring>
#include <mutex>

namespace akm::interrupt {
namespace {

constexpr int kSlots = 64;
constexpr std::size_t kPath = 4096;

struct Slot {
  std::atomic<int> kind{0};  // 0 free, 1 folder, 2 file
  std::atomic<bool> restore{false};
  char path[kPath];
  char old[kPath];
  char final_dir[kPath];
};

Slot g_slots[kSlots];

// Removes a flat folder: unlink every entry, then the folder.
void remove_flat(const char* dir) {
  const int fd = ::open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  alignas(8) char buf[8192];
  for (;;) {
    const long n = ::syscall(SYS_getdents64, fd, buf, sizeof buf);
    if (n <= 0) break;
    for (long off = 0; off < n;) {
      // struct linux_dirent64: d_ino (8), d_off (8), d_reclen (2), d_type (1), d_name.
      unsigned short reclen;
      std::memcpy(&reclen, buf + off + 16, sizeof reclen);
      const char* name = buf + off + 19;
      if (std::strcmp(name, ".") != 0 && std::strcmp(name, "..") != 0) ::unlinkat(fd, name, 0);
      off += reclen;
    }
  }
  ::close(fd);
  ::rmdir(dir);
}

extern "C" void on_signal(int sig) {
  for (auto& s : g_slots) {
    const int kind = s.kind.load(std::memory_order_acquire);
    if (kind == 1) remove_flat(s.path);
    if (kind == 2) ::unlink(s.path);
    if (kind != 0 && s.restore.load(std::memory_order_acquire) && ::access(s.final_dir, F_OK) != 0)
      ::rename(s.old, s.final_dir);
  }
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

// Installed once, and only where the signal still has its default action (a host program
// with its own handler keeps it).
void install() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int sig : {SIGINT, SIGTERM}) {
      struct sigaction old {};
      if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler != SIG_DFL) continue;
      struct sigaction sa {};
      sa.sa_handler = on_signal;
      sigemptyset(&sa.sa_mask);
      ::sigaction(sig, &sa, nullptr);
    }
  });
}

bool copy_path(char* dst, const std::filesystem::path& p) {
  const std::string s = p.string();
  if (s.size() + 1 > kPath) return false;
  std::memcpy(dst, s.c_str(), s.size() + 1);
  return true;
}

std::mutex g_claim;

int claim(int kind, const std::filesystem::path& p) {
  install();
  std::lock_guard lock(g_claim);
  for (int i = 0; i < kSlots; ++i) {
    if (g_slots[i].kind.load() != 0) continue;
    if (!copy_path(g_slots[i].path, p)) return -1;
    g_slots[i].restore.store(false);
    g_slots[i].kind.store(kind, std::memory_order_release);
    return i;
  }
  return -1;
}

}  // namespace

void Guard::folder(const std::filesystem::path& staging) {
  release();
  slot_ = claim(1, staging);
}

void Guard::file(const std::filesystem::path& tmp) {
  release();
  slot_ = claim(2, tmp);
}

void Guard::restore(const std::filesystem::path& old, const std::filesystem::path& final_dir) {
  if (slot_ < 0) return;
  Slot& s = g_slots[slot_];
  if (copy_path(s.old, old) && copy_path(s.final_dir, final_dir))
    s.restore.store(true, std::memory_order_release);
}

void Guard::no_restore() {
  if (slot_ >= 0) g_slots[slot_].restore.store(false, std::memory_order_release);
}

void Guard::release() {
  if (slot_ < 0) return;
  g_slots[slot_].restore.store(false);
  g_slots[slot_].kind.store(0, std::memory_order_release);
  slot_ = -1;
}

namespace {
std::atomic<bool> g_stop{false};
}  // namespace

void request_stop() { g_stop.store(true, std::memory_order_relaxed); }
void clear_stop() { g_stop.store(false, std::memory_order_relaxed); }
bool stop_requested() { return g_stop.load(std::memory_order_relaxed); }
void throw_if_stop_requested() {
  if (stop_requested()) throw Stopped();
}

}  // namespace akm::interrupt
