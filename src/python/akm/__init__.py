"""akm — the AK-Momentum toolkit from Python.

The closed forms (theory, spectrum, phase), the Monte-Carlo checks (simulate, phase with
measure=True), the registered experiments (list, run), the optimizers (SgdEma, AkSgd,
AdamW, AkAdamW, AkMuon) and Muon's Newton–Schulz (newton_schulz), all calling the same C++ library as the `akm` program. Bad input raises
ValueError with the program's message; long calls release the GIL and stop on Ctrl-C.
"""
from ._akm import (NS_COEFFICIENTS, AdamW, AkAdamW, AkMuon, AkSgd, SgdEma, __version__, list,
                   newton_schulz, newton_schulz_bound, phase, run, simulate, spectrum, theory)

__all__ = ["theory", "spectrum", "phase", "simulate", "run", "list",
           "SgdEma", "AkSgd", "AdamW", "AkAdamW", "AkMuon", "newton_schulz", "newton_schulz_bound",
           "NS_COEFFICIENTS", "__version__"]
