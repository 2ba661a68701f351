// Consumer example: with whole-archive linking the paper's experiments register
// themselves, so a program can list and run them through akm::Registry.
#include <cstdio>

#include <akm/akm.hpp>  // the umbrella header must compile from the installed tree

int main() {
  const auto& all = akm::Registry::instance().all();
  for (const auto& e : all) std::printf("%s %s\n", e.info.id.c_str(), e.info.title.c_str());
  std::printf("akm %s: %zu experiments\n", akm::version(), all.size());
  return (!all.empty() && akm::Registry::instance().find("T1") != nullptr) ? 0 : 1;
}
