"""Every example in the library's docstrings runs and prints what it says."""

from __future__ import annotations

import doctest
import importlib

import pytest

from tests.test_layout import modules

LIBRARY = sorted(name for name, _ in modules() if name == "kozyri" or name.startswith("kozyri."))


@pytest.mark.parametrize("name", LIBRARY)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
                                  verbose=False)
    assert failures == 0, f"{failures} docstring example(s) of {name} fail (run: python -m doctest -v)"
