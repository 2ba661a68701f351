// A source of the theory layer including problems, which the old chain of layers put below
// theory but which theory does not depend on: the graph forbids it ("No such file").
#include "akm/problems/logistic.hpp"
