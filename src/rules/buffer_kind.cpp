// buffer_kind — names of the buffer rules.
#include "akm/rules/buffer_kind.hpp"

#include "akm/base/errors.hpp"

namespace akm {

const char* to_string(BufferKind b) {
  switch (b) {
    case BufferKind::ak_raw: return "ak-raw";
    case BufferKind::ak_normalized: return "ak-normalized";
    case BufferKind::ema: return "ema";
    case BufferKind::delta: return "delta";
  }
  return "?";
}

Key key_of(BufferKind b) {
  if (b == BufferKind::ak_raw) return Key::raw;
  if (b == BufferKind::ak_normalized) return Key::normalized;
  throw InputError("buffer", to_string(b), "ak-raw or ak-normalized (an AK buffer has a key)");
}

}  // namespace akm
