# quick_tests.cmake — read by ctest (TEST_INCLUDE_FILES of tests/CMakeLists.txt), not by cmake:
# one quick_<ID> test per experiment ID that `akm list --ids` prints. Set by the includer:
# AKM_QUICK_CLI (the akm program), AKM_QUICK_OUT (the results folder), AKM_QUICK_EXPECT
# (tests/expected_status.txt), AKM_QUICK_CMAKE (cmake, for the failure message).
if(NOT EXISTS "${AKM_QUICK_CLI}")
  # Not built yet: one test that fails and says so, instead of silently no quick tests.
  add_test(quick_NOT_BUILT "${AKM_QUICK_CLI}")
  set_tests_properties(quick_NOT_BUILT PROPERTIES LABELS quick)
  return()
endif()
execute_process(COMMAND "${AKM_QUICK_CLI}" list --ids
  OUTPUT_VARIABLE akm_ids RESULT_VARIABLE akm_rc ERROR_VARIABLE akm_err)
string(REGEX MATCHALL "[^\n]+" akm_ids "${akm_ids}")
if(NOT akm_rc EQUAL 0 OR NOT akm_ids)
  # `akm list --ids` failed or listed nothing: a failing test carries its message.
  add_test(quick_NO_IDS "${AKM_QUICK_CMAKE}" -E echo "akm list --ids failed (${akm_rc}): ${akm_err}")
  set_tests_properties(quick_NO_IDS PROPERTIES LABELS quick WILL_FAIL TRUE)
  return()
endif()
# ctest -j starts the costliest ready test first, learning each test's time from its previous
# run (Testing/Temporary/CTestCostData.txt). A fresh build (CI) has none and would start them in
# the order listed, leaving a long one for last on a busy core: the slowest quick runs carry
# their seconds as measured in a fresh-clone CI run on 2 cores, a hint for the order only.
set(akm_quick_cost T13 160 T25 55 T18 50 T19 45 T20 40 T24 30)
foreach(id IN LISTS akm_ids)
  add_test(quick_${id} "${AKM_QUICK_CLI}" run ${id} --quick --out "${AKM_QUICK_OUT}"
    --expect "${AKM_QUICK_EXPECT}")
  set_tests_properties(quick_${id} PROPERTIES LABELS quick TIMEOUT 600 FIXTURES_SETUP quick_results)
  list(FIND akm_quick_cost ${id} at)
  if(at GREATER -1)
    math(EXPR at "${at} + 1")
    list(GET akm_quick_cost ${at} cost)
    set_tests_properties(quick_${id} PROPERTIES COST ${cost})
  endif()
endforeach()
