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


def test_pyproject_builds_a_wheel_with_the_plugin_entry_point(tmp_path):
    """setuptools (Debian's python3-setuptools) builds what pip would install from
    pyproject.toml: every module of the package and the pytest11 entry point."""
    import shutil
    import subprocess
    import sys
    import zipfile

    from conftest import skip_or_fail
    try:
        import setuptools  # noqa: F401
    except ImportError as e:
        skip_or_fail("setuptools is not installed (python3-setuptools): %s" % e)
    source = tmp_path / "src"
    shutil.copytree(PACKAGE_ROOT, source, ignore=shutil.ignore_patterns("__pycache__", "tests", "build", "*.egg-info"))
    out = tmp_path / "dist"
    out.mkdir()
    built = subprocess.run([sys.executable, "-c", "import setuptools.build_meta as b; print(b.build_wheel(%r))" % str(out)],
                           cwd=source, capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr
    wheel = out / built.stdout.strip().splitlines()[-1]
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        modules = {n.split("/", 1)[1] for n in names if n.startswith("memviz_probe/")}
        assert modules == set(n for n in os.listdir(os.path.join(PACKAGE_ROOT, "memviz_probe")) if n.endswith(".py"))
        entry_points = z.read("memviz_probe-%s.dist-info/entry_points.txt" % memviz_probe.__version__).decode()
    assert "[pytest11]\nmemviz_probe.pytest = memviz_probe.pytest" in entry_points
