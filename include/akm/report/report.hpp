// report — what an experiment writes: tidy CSV + JSON per experiment, gnuplot figures,
// results/summary.json and results/index.html. One header per job:
//   csv.hpp         CsvTable and its CSV text
//   figure.hpp      Figure / Series, the gnuplot script and its rendering
//   files.hpp       atomic writes, the writable-folder probe, subprocesses
//   result_dir.hpp  ResultDir: results/<ID>/ staged and renamed into place
//   index.hpp       write_report: results/summary.json and index.html
#pragma once
#include "akm/report/csv.hpp"
#include "akm/report/figure.hpp"
#include "akm/report/files.hpp"
#include "akm/report/index.hpp"
#include "akm/report/result_dir.hpp"
