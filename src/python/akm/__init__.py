"""akm — the AK-Momentum toolkit from Python.

The closed forms (theory, spectrum, phase), the Monte-Carlo checks (simulate, phase with
measure=True), the registered experiments (list, run) and the optimizers (SgdEma, AkSgd,
AdamW, AkAdamW), all calling the same C++ library as the `akm` program. Bad input raises
ValueError with the program's message; long calls release the GIL and stop on Ctrl-C.
"""
from ._akm import (AdamW, AkAdamW, AkSgd, SgdEma, __version__, list, phase, run, simulate,
                   spectrum, theory)

__all__ = ["theory", "spectrum", "phase", "simulate", "run", "list",
           "SgdEma", "AkSgd", "AdamW", "AkAdamW", "__version__"]
