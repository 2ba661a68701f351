#!/bin/sh
# Runs a refuted claim's quick experiment and passes only on the FAIL verdict (exit code 1):
# 0 means the claim now passes (look at it, then update tests/known_refuted.txt); 2 or 3
# (bad input, crash) are errors as usual.   usage: expect_refuted.sh AKM ID OUT
"$1" run "$2" --quick --out "$3"
rc=$?
if [ "$rc" -eq 1 ]; then
  echo "expected verdict: $2 FAIL (claim refuted in simulation, tests/known_refuted.txt)"
  exit 0
fi
echo "expected exit code 1 (claim refuted) from akm run $2, got $rc"
exit 1
