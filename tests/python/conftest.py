# Shared fixtures of the akm Python tests: the module (from PYTHONPATH, the build tree's
# python/ folder under ctest) and the program it is compared with (AKM_CLI, else build/akm).
import os
import pathlib

import pytest


@pytest.fixture(scope="session")
def akm_cli():
    path = os.environ.get("AKM_CLI") or str(pathlib.Path(__file__).resolve().parents[2] / "build" / "akm")
    if not os.access(path, os.X_OK):
        pytest.skip(f"the akm program is not built at {path} (set AKM_CLI)")
    return path
