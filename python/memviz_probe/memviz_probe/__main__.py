# SPDX-License-Identifier: MIT
"""python3 -m memviz_probe [--connect ADDRESS] [--mode op|module] script.py [args...]:
runs a script with the probe streaming to memviz; exits with the script's status."""

import os
import runpy
import sys
import traceback

from . import __doc__ as package_doc
from .probe import start, stop

USAGE = "usage: python3 -m memviz_probe [--connect ADDRESS] [--mode op|module] script.py [args...]"


def main(argv):
    address, mode = None, None
    while argv and argv[0].startswith("-"):
        option = argv.pop(0)
        if option in ("-h", "--help"):
            print(USAGE)
            print(package_doc.split("\n\n")[0])
            print("pytest plugin: pytest --memviz-record DIR; @pytest.mark.memory_budget(peak=\"2GiB\", growth=\"5%\")")
            return 0
        if option in ("--connect", "--mode") and argv:
            value = argv.pop(0)
            if option == "--connect":
                address = value
            else:
                mode = value
        elif option.startswith("--connect="):
            address = option.split("=", 1)[1]
        elif option.startswith("--mode="):
            mode = option.split("=", 1)[1]
        else:
            sys.stderr.write("memviz_probe: unknown option %r\n%s\n" % (option, USAGE))
            return 2
    if not argv:
        sys.stderr.write("memviz_probe: no script to run\n%s\n" % USAGE)
        return 2
    if mode is not None and mode not in ("op", "module"):
        sys.stderr.write("memviz_probe: --mode must be op or module, not %r\n%s\n" % (mode, USAGE))
        return 2
    script = argv[0]
    if not os.path.isfile(script):
        sys.stderr.write("memviz_probe: %s: no such file\n" % script)
        return 2
    sys.argv = argv
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    start(address, mode)
    code, error = 0, None
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        if e.code is not None and not isinstance(e.code, int):
            sys.stderr.write("%s\n" % e.code)
    except BaseException as e:
        traceback.print_exc()
        code, error = 1, "%s: %s" % (type(e).__name__, e)
    stop(code, error)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
