// key — which key the AK buffer uses; every layer names it the same way.
#pragma once
#include <string>

namespace akm {

/// Which key the AK buffer uses: raw x [eq:dm-update] or normalized x̂ [eq:dm-norm-update].
enum class Key { raw, normalized };
Key parse_key(const std::string& s);  ///< "raw" | "normalized", else InputError
/// "raw" or "normalized".
std::string to_string(Key k);

}  // namespace akm
