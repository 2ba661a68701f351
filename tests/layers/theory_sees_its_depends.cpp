// A source of the theory layer sees what it depends on (base, rules, spectrum: its DEPENDS
// in CMakeLists.txt) and what they reach (random): this file compiles. It is the control of
// the two forbidden cases beside it, which fail only because of their one #include.
#include "akm/base/errors.hpp"
#include "akm/random/random.hpp"
#include "akm/rules/rules.hpp"
#include "akm/spectrum/spectrum.hpp"
#include "akm/theory/theory.hpp"
