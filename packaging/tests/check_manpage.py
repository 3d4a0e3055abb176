#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Holds the man page (packaging/memviz.1) to what memviz accepts, so the two stay in sync.

For every command it compares three lists of long options:
  - the man page's: the tags of the .TP/.TQ entries under the command's .SS heading
    (or under OPTIONS for the options without a command);
  - `memviz COMMAND --help` (and `memviz --help` for the options without a command);
  - the command's parser in app/cli/*.cpp and app/screenshot/*.cpp: the names given to QCommandLineParser::addOption,
    directly or through a `for (const char* x : {...})` loop.
The three must be equal, the man page must list the same commands as `memviz --help`, and
memviz itself must accept every option (asked one at a time: it may fail for other reasons,
but never with "Unknown option"). Standard library only.

usage: check_manpage.py MEMVIZ_BINARY MAN_PAGE CLI_SOURCE_DIR...
"""
import os
import re
import subprocess
import sys

OPTION = re.compile(r"--[a-z][a-z0-9-]*")


def fail(message):
    print("FAIL: " + message)
    return 1


def run(memviz, args):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    return subprocess.run([memviz] + args, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                          timeout=60, env=env)


def deroff(text):
    """The text of a roff line: escapes and font changes removed, \\- as -."""
    text = text.replace("\\-", "-").replace("\\(em", "-")
    text = re.sub(r"\\f[BIRP]", "", text)
    text = re.sub(r"\\\(..", "", text)
    return text


def man_options(path):
    """{command or "": set of options in .TP/.TQ tags}, and the commands in section order."""
    sections = {}
    commands = []
    current = None
    section = None
    tag_next = False
    with open(path, encoding="utf-8") as f:
        for raw in f:
            line = raw.rstrip("\n")
            if line.startswith(".SH"):
                section = deroff(line[3:]).strip().strip('"')
                current = "" if section == "OPTIONS" else None
                continue
            if line.startswith(".SS") and section == "COMMANDS":
                words = deroff(line[3:]).strip().strip('"').split()
                if len(words) < 2 or words[0] != "memviz":
                    raise SystemExit("man page: a COMMANDS heading that is not 'memviz COMMAND ...': " + line)
                current = words[1]
                commands.append(current)
                sections.setdefault(current, set())
                continue
            if line.startswith(".TP") or line.startswith(".TQ"):
                tag_next = True
                continue
            if tag_next:
                tag_next = False
                if current is not None:
                    sections.setdefault(current, set()).update(OPTION.findall(deroff(line)))
    return sections, commands


def help_sections(text):
    """{command or "": options} from a --help text: each '  memviz ...' usage line with the
    lines indented under it."""
    sections = {}
    current = None
    for line in text.splitlines():
        if line.startswith("  memviz "):
            first = line.split()[1]
            current = "" if first.startswith("-") or first.startswith("[") or first == "COMMAND" else first
            sections.setdefault(current, set())
        elif not line.startswith("   "):
            current = None
            continue
        if current is not None:
            sections[current].update(OPTION.findall(line))
    return sections


def source_options(cli_dirs):
    """{command: options} from the parsers: XCommand.cpp holds command x; Cli.cpp holds the
    small commands, each in a function named xCommand."""
    found = {}
    paths = [os.path.join(d, name) for d in cli_dirs for name in sorted(os.listdir(d))]
    for path in paths:
        if not path.endswith(".cpp"):
            continue
        with open(path, encoding="utf-8") as f:
            text = f.read()
        # Split the file into functions named fooCommand(...) { ... } by their start.
        starts = [(m.start(), m.group(1)) for m in re.finditer(r"\bint (\w+)Command\s*\(", text)]
        for i, (start, command) in enumerate(starts):
            end = starts[i + 1][0] if i + 1 < len(starts) else len(text)
            body = text[start:end]
            options = set(re.findall(r'addOption\(\{\s*"([a-z][a-z0-9-]*)"', body))
            for loop in re.finditer(r"for \(const char\* (\w+) : \{([^}]*)\}\)\s*(?:\n\s*)?p\.addOption\(\{\1", body):
                options.update(re.findall(r'"([a-z][a-z0-9-]*)"', loop.group(2)))
            found[command] = {"--" + o for o in options}
    return found


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        return 2
    memviz, man_page, *cli_dirs = sys.argv[1:]
    cli_dir = " and ".join(cli_dirs)
    man, man_order = man_options(man_page)
    top = run(memviz, ["--help"])
    if top.returncode != 0:
        return fail("memviz --help exited with %d" % top.returncode)
    helped = help_sections(top.stdout)
    help_commands = sorted(c for c in helped if c)
    if sorted(man_order) != help_commands:
        return fail("commands: man page %s, memviz --help %s" % (sorted(man_order), help_commands))
    sources = source_options(cli_dirs)
    problems = []

    def compare(what, a_name, a, b_name, b):
        if a != b:
            problems.append("%s: only in %s: %s; only in %s: %s" % (
                what, a_name, sorted(a - b) or "-", b_name, sorted(b - a) or "-"))

    compare("options without a command", "man page", man.get("", set()), "memviz --help", helped.get("", set()))
    for command in help_commands:
        own = run(memviz, [command, "--help"])
        if own.returncode != 0:
            problems.append("memviz %s --help exited with %d: %s" % (command, own.returncode, own.stderr.strip()))
            continue
        own_options = help_sections(own.stdout).get(command, set())
        compare("memviz " + command, "man page", man[command], "memviz %s --help" % command, own_options)
        compare("memviz " + command, "memviz %s --help" % command, own_options, "memviz --help", helped[command])
        function = re.sub(r"-([a-z])", lambda m: m.group(1).upper(), command)  # allocator-replay: allocatorReplay
        if function not in sources:
            problems.append("no %sCommand(...) found in %s" % (function, cli_dir))
        else:
            compare("memviz " + command, "man page", man[command], "the parser in " + cli_dir, sources[function])
        for option in sorted(man[command]):
            r = run(memviz, [command, option])
            if "Unknown option '%s'" % option[2:] in r.stderr:
                problems.append("memviz %s does not accept %s, which the man page lists" % (command, option))
    for line in problems:
        print("FAIL: " + line)
    if problems:
        return 1
    counted = sum(len(man[c]) for c in help_commands) + len(man.get("", set()))
    print("man page, --help and the parsers agree: %d commands, %d options" % (len(help_commands), counted))
    return 0


if __name__ == "__main__":
    sys.exit(main())
