// backend — the names of the backends and their parser (akm/sim/backend.hpp).
#include "akm/sim/backend.hpp"

#include <vector>

#include "akm/base/errors.hpp"

namespace akm {

const char* to_string(Backend b) {
  switch (b) {
    case Backend::reference: return "reference";
    case Backend::cpu: return "cpu";
    case Backend::cuda: return "cuda";
    case Backend::cuda_emulated: return "cuda-emulated";
  }
  return "?";
}

Backend parse_backend(const std::string& s, const char* flag, std::initializer_list<Backend> valid) {
  std::string names;
  std::size_t k = 0;
  for (Backend b : valid) {
    if (s == to_string(b)) return b;
    names += (k == 0 ? "" : k + 1 == valid.size() ? " or " : ", ") + std::string(to_string(b));
    ++k;
  }
  throw InputError(flag, s, "must be " + names);
}

}  // namespace akm
