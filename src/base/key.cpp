// key — the one spelling of the key kinds.
#include "akm/base/key.hpp"

#include "akm/base/errors.hpp"

namespace akm {

Key parse_key(const std::string& s) {
  if (s == "raw") return Key::raw;
  if (s == "normalized") return Key::normalized;
  throw InputError("key", s, "must be raw or normalized");
}

std::string to_string(Key k) { return k == Key::raw ? "raw" : "normalized"; }

}  // namespace akm
