# docs/torch.md's complete example, run as the page shows it: the page's second ```python block
# (train, save mid-way, resume into fresh objects, compare with the uninterrupted run; the
# block asserts bit-for-bit equality itself). A page that drifts from the package fails here.
import pathlib
import re

import pytest

pytest.importorskip("torch", reason="PyTorch is not installed (Debian: python3-torch)")

PAGE = pathlib.Path(__file__).resolve().parents[2] / "docs" / "torch.md"


def python_blocks():
    return re.findall(r"```python\n(.*?)```", PAGE.read_text(), flags=re.S)


def test_the_complete_example_runs_and_resumes_bit_for_bit():
    blocks = python_blocks()
    assert len(blocks) >= 2, "docs/torch.md lost its complete example"
    example = blocks[1]
    assert "load_state_dict" in example and "assert" in example
    exec(compile(example, str(PAGE) + ":complete-example", "exec"), {})
