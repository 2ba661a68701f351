// A source of the rules layer including a layer above it (theory): the rules layer's view of
// include/akm/ has no theory/ folder, so this fails with "No such file".
#include "akm/theory/theory.hpp"
