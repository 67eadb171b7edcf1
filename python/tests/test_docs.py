"""The Python blocks of docs/python.md (in order, in one namespace) and of the README run as
written, on the CPU backend (NUMGPU_BACKEND is set to cpu for them); a block after `<!-- python: gpu -->` runs only
where torch has a CUDA device."""

import os
import re
from pathlib import Path

import pytest

# docs/python.md of the checkout (python/tests/ -> the root), or beside tests/ in the GPU bundle.
_HERE = Path(__file__).resolve()
DOC = next((p for p in (_HERE.parents[2] / "docs" / "python.md", _HERE.parents[1] / "docs" / "python.md")
            if p.exists()), _HERE.parents[2] / "docs" / "python.md")


README = _HERE.parents[2] / "README.md"


def _blocks(doc=DOC):
    text = doc.read_text()
    out = []
    for m in re.finditer(r"(?:<!-- python: (\w+) -->\n)?```python\n(.*?)```", text, re.S):
        line = text[: m.start()].count("\n") + 1
        out.append((line, m.group(1), m.group(2)))
    return out


def _has_cuda_torch():
    try:
        import torch
    except ImportError:
        return False
    return torch.cuda.is_available()


@pytest.mark.skipif(not DOC.exists(), reason="SKIPPED: docs/python.md is not beside the tests")
def test_docs_python_blocks_run(monkeypatch):
    monkeypatch.setenv("NUMGPU_BACKEND", "cpu")
    import numgpu
    monkeypatch.setattr(numgpu._core, "_default", type(numgpu._core._default)())  # fresh default handles
    namespace = {}
    blocks = _blocks()
    assert len(blocks) >= 8
    for line, tag, code in blocks:
        if tag == "gpu" and not _has_cuda_torch():
            continue
        try:
            exec(compile(code, f"{DOC}:{line}", "exec"), namespace)
        except Exception as e:  # noqa: BLE001
            raise AssertionError(f"docs/python.md:{line}: {type(e).__name__}: {e}") from e


@pytest.mark.skipif(not README.exists(), reason="SKIPPED: README.md is not beside the tests")
def test_readme_python_blocks_run(monkeypatch):
    monkeypatch.setenv("NUMGPU_BACKEND", "cpu")
    import numgpu
    monkeypatch.setattr(numgpu._core, "_default", type(numgpu._core._default)())
    blocks = _blocks(README)
    assert blocks, "the README shows a Python example"
    for line, _tag, code in blocks:
        try:
            exec(compile(code, f"{README}:{line}", "exec"), {})
        except Exception as e:  # noqa: BLE001
            raise AssertionError(f"README.md:{line}: {type(e).__name__}: {e}") from e
