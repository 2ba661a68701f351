// expectations — the registered status of each claim (tests/expected_status.txt), so that
// `akm run/reproduce --expect FILE` exits 0 exactly when every claim has its expected status.
#pragma once
#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "akm/check/status.hpp"

namespace akm {

/// A claim's registered status in full and quick mode, and why it is expected.
struct Expectation {
  ClaimStatus full;  ///< the status a full run must give
  ClaimStatus quick;  ///< the status a --quick run must give
  std::string why;  ///< the reason, as registered
};

/// One line per claim: `ID FULL QUICK why…` ('#' starts a comment; statuses spelled with
/// '_' for spaces). Unreadable files, unknown IDs, bad statuses: InputError naming the line.
std::map<std::string, Expectation> read_expectations(const std::filesystem::path& file);

}  // namespace akm
