// expectations — reads tests/expected_status.txt (see the header).
#include "akm/experiments/expectations.hpp"

#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "akm/base/errors.hpp"
#include "akm/experiments/experiment.hpp"

namespace akm {

std::map<std::string, Expectation> read_expectations(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw InputError("--expect", file.string(), "must be a readable expectations file");
  std::map<std::string, Expectation> out;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    std::istringstream words(line);
    std::string id, full, quick;
    if (!(words >> id)) continue;
    const std::string where = fmt::format("{}:{}", file.string(), n);
    if (!(words >> full >> quick))
      throw InputError("--expect", where, "each line must read: ID FULL-STATUS QUICK-STATUS why");
    const std::string canonical = Registry::instance().require(id).info.id;
    std::string why;
    std::getline(words >> std::ws, why);
    if (!out.emplace(canonical, Expectation{parse_claim_status(full, where),
                                            parse_claim_status(quick, where), why})
             .second)
      throw InputError("--expect", where, fmt::format("{} is listed twice", canonical));
  }
  return out;
}

}  // namespace akm
