"""The worked examples in docstrings are tests too."""

import doctest
import importlib
import pkgutil

import pytest

import rocm_bridge

MODULES = sorted(
    info.name
    for info in pkgutil.walk_packages(rocm_bridge.__path__, "rocm_bridge.")
    if not info.name.startswith("rocm_bridge.ui") and info.name != "rocm_bridge.__main__"
)


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_worked_examples_exist():
    finder = doctest.DocTestFinder()
    examples = sum(len(t.examples) for t in finder.find(importlib.import_module("rocm_bridge.formulas")))
    assert examples >= 8
