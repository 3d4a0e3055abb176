# SPDX-License-Identifier: MIT
"""The package's metadata in its three places agree: pyproject.toml (pip), the .dist-info
that the .deb installs (packaging/python/), and the code; and pytest finds the plugin."""

import configparser
import os
import re
import tomllib

import memviz_probe
from conftest import PACKAGE_ROOT, REPO_ROOT


def test_versions_and_entry_points_agree():
    with open(os.path.join(PACKAGE_ROOT, "pyproject.toml"), "rb") as f:
        project = tomllib.load(f)["project"]
    with open(os.path.join(REPO_ROOT, "CMakeLists.txt")) as f:
        cmake_version = re.search(r"project\(memviz VERSION ([0-9.]+)", f.read()).group(1)
    assert project["version"] == memviz_probe.__version__ == cmake_version
    installed = configparser.ConfigParser()
    installed.optionxform = str
    installed.read(os.path.join(REPO_ROOT, "packaging", "python", "entry_points.txt"))
    assert dict(installed["pytest11"]) == project["entry-points"]["pytest11"] == {"memviz_probe.pytest": "memviz_probe.pytest"}
    with open(os.path.join(REPO_ROOT, "packaging", "python", "METADATA.in")) as f:
        metadata = f.read()
    assert "Name: %s\n" % project["name"] in metadata


def test_the_plugin_registers_its_options_and_marker(pytester):
    result = pytester.runpytest_subprocess("-p", "memviz_probe.pytest", "--help")
    assert "--memviz-record=DIR" in result.stdout.str() and "--memviz-baseline=DIR" in result.stdout.str()
    markers = pytester.runpytest_subprocess("-p", "memviz_probe.pytest", "--markers").stdout.str()
    assert "@pytest.mark.memory_budget(peak=None, growth=None)" in markers


def test_importing_the_plugin_does_not_import_torch(pytester):
    # Installed, the plugin loads into every pytest run on the machine: it must stay light.
    pytester.makepyfile(test_light="""
import sys
def test_light():
    assert "torch" not in sys.modules
""")
    pytester.runpytest_subprocess("-p", "memviz_probe.pytest").assert_outcomes(passed=1)
