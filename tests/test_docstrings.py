"""Every example in the library's docstrings runs and prints what it says."""

from __future__ import annotations

import doctest
import importlib

import pytest

from tests.test_layout import can_import, modules

LIBRARY = sorted(name for name, _ in modules() if name == "kozyri" or name.startswith("kozyri."))


@pytest.mark.parametrize("name", LIBRARY)
def test_docstring_examples(name):
    if not can_import(name):
        pytest.skip(f"{name} needs an optional extra that is not installed")
    module = importlib.import_module(name)
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
                                  verbose=False)
    assert failures == 0, f"{failures} docstring example(s) of {name} fail (run: python -m doctest -v)"
