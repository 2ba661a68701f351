// A source of the report layer (what a run writes) including the app layer (the drivers of
// the program's commands) above it: report's view has no app/ folder ("No such file").
#include "akm/app/simulate.hpp"
