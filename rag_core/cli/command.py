"""The life of a command that computes (report, compare): its options parsed, its work done, its result shown.

    return run(parser(), argv, compute=tables_of, show=print_tables)

`run` parses the options (a bad one is one line, exit 2; --help exits 0), refuses a closed stdout before any work,
checks how they combine (`options.check_options`), then calls compute(args) with what Ray itself prints kept off
stdout and a local Ray started by --compute ray stopped at the end whatever happens; any failure is one `error:`
line and exit 2; then show(args, result) prints and returns the exit code.

Left out on purpose: `verify`, which reads no corpus and computes nothing on Ray (it parses its own options).
"""
from __future__ import annotations

import argparse
from typing import Any, Callable

from rag_core.cli.compute import close_compute, quiet_stdout
from rag_core.cli.options import check_options, parsed
from rag_core.cli.output import CLOSED, error


def run(parser: argparse.ArgumentParser, argv, compute: Callable[[Any], Any],
        show: Callable[[Any, Any], int]) -> int:
    args, code = parsed(parser, argv)
    if args is None:
        return code
    if 1 in CLOSED:                     # `>&-`: no place for the result, so nothing is computed for it
        return error("cannot write the report: standard output is closed.")
    with quiet_stdout(args):            # Ray's own lines ("(raylet) A worker died ...") stay off stdout
        try:
            check_options(args)
            result = compute(args)
        except Exception as e:          # every failure is one readable line, never a traceback
            return error(e)
        finally:
            close_compute()             # a local Ray started by --compute ray stops here
    return show(args, result)
