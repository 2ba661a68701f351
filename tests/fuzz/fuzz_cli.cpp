// libFuzzer target: the command-line handling (parse + validate, no work). The input is
// split at NUL or newline bytes into argv. Every command line must end in exit code 0
// (valid) or 2 (refused with a message), never 3, a crash or undefined behaviour, and
// validation must never start an experiment: the registered experiments here are the real
// IDs (from the registrations in experiments/*/claim.cpp) with bodies that abort.
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "akm/experiments/experiment.hpp"
#include "cli/command.hpp"

namespace {

void validation_ran_work(akm::ExperimentContext&) { std::abort(); }

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  std::istringstream ids(AKM_FUZZ_EXPERIMENT_IDS);  // "T1,T2,…"
  for (std::string id; std::getline(ids, id, ',');)
    const akm::Registrar registered({.id = id.c_str(), .slug = id.c_str(), .title = "fuzz", .labels = "",
                                     .claim = "", .body = validation_ran_work});
  // --out probes (and may create) folders: keep them inside a scratch folder.
  const auto scratch = std::filesystem::temp_directory_path() / ("akm-fuzz-cli-" + std::to_string(::getpid()));
  std::filesystem::create_directories(scratch);
  if (::chdir(scratch.c_str()) != 0) std::abort();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 2048) return 0;
  std::vector<std::string> args{"akm"};
  std::string cur;
  for (std::size_t i = 0; i < size; ++i) {
    const char c = static_cast<char>(data[i]);
    if (c == '\0' || c == '\n') {
      args.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) args.push_back(cur);
  if (args.size() > 24) return 0;
  for (const auto& a : args) {
    // Stay inside the scratch folder: no paths, no home; and no O(n³) random basis.
    if (a.find('/') != std::string::npos || a.find('~') != std::string::npos ||
        a.find("..") != std::string::npos || a.find("random") != std::string::npos)
      return 0;
  }
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  const int code = akm::cli::run_main(static_cast<int>(argv.size()), argv.data(), /*execute=*/false);
  if (code != 0 && code != 2) std::abort();
  return 0;
}
