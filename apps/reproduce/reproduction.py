"""The reproduction harness: one command per paper runs its experiment cells with `dpbo`, writes the
tables of its docs page between generated markers (each stamped with the commit and the command),
and keeps every cell's numbers in a JSON file beside the script, so that a test can re-run one cheap
cell and fail when the code no longer produces the documented numbers.

A paper's script (plugins/algorithms/<method>/experiments/reproduce.py) builds a `Reproduction`,
adds its cells (a `dpbo run` command each) and its tables (functions from the cells' numbers to
Markdown), and calls `main()`. Standard library only: the docs are regenerated where dpbo builds.

    python3 plugins/algorithms/dp-gibo/experiments/reproduce.py             # every table
    python3 .../reproduce.py --only examples --jobs 2                       # one table's cells
    python3 .../reproduce.py --check normal-location-mu2                    # the drift test
"""
import argparse
import concurrent.futures
import csv
import datetime
import functools
import html
import json
import math
import os
import pathlib
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

SOURCE_ROOT = pathlib.Path(__file__).resolve().parents[2]

# OpenBLAS chooses its kernels by the CPU it recognises or by OPENBLAS_CORETYPE, and kernels for
# different instruction sets round differently, so a seeded run's digits depend on that choice. The
# documented numbers were computed with its SkylakeX (AVX-512) kernels (Cooperlake's, which it
# picks for a CPU with AVX-512 BF16, give the same digits in every drift cell); a machine whose
# environment sets OPENBLAS_CORETYPE=Haswell (AVX2) moved every drift cell. The kernels are part of
# a cell's definition, as its seed is: every CPU with the AVX-512 subsets SkylakeX's kernels use runs
# the cells with them, whatever the environment says, so that any such machine gives the documented
# digits. On a CPU without them the environment's choice stands and the digits can differ (a drift
# cell's failure names the kernels it ran).
SKYLAKEX_FLAGS = {"avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"}
DOCUMENTED_CORETYPE = "SkylakeX"


@functools.lru_cache(maxsize=None)
def cpu_flags():
    """The CPU's feature flags (/proc/cpuinfo, read once), empty where it cannot be read."""
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def run_environment():
    """The environment of every cell's dpbo: BLAS on one thread, and OpenBLAS's SkylakeX kernels where
    the CPU has them (see SKYLAKEX_FLAGS)."""
    environment = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
    if SKYLAKEX_FLAGS <= cpu_flags():
        environment["OPENBLAS_CORETYPE"] = DOCUMENTED_CORETYPE
    return environment


class ReproductionError(Exception):
    """A failure the user can act on; main() prints it and exits non-zero."""


class Cell:
    """One experiment: a `dpbo run` (its arguments after `run`, paths relative to the source root)
    whose finished folder gives the cell's numbers. `extract(folder, summary)` may add numbers the
    summary lacks (from traces); its dict is merged into the cell's."""

    def __init__(self, name, args, extract=None):
        if not re.fullmatch(r"[A-Za-z0-9._=-]+", name):
            raise ValueError(f"cell name '{name}': letters, digits, '.', '_', '=' and '-' only")
        self.name = name
        self.args = list(args)
        self.extract = extract

    def command(self, dpbo, out):
        return [str(dpbo), "run", *self.args, "--out", str(out)]


class AuditCell(Cell):
    """One `dpbo audit` (its arguments after `audit`): its `--json` report gives the cell's numbers,
    through `extract(report)` (default: every number and truth value of the report, flattened). An
    audit's exit 3 (claim refuted) is a finding, not a failure. The report is kept in OUT/NAME.json
    with the command that made it and reused while the command is the same."""

    def command(self, dpbo, out):
        return [str(dpbo), "audit", *self.args, "--json"]


def flattened(report, prefix=""):
    """A JSON report's numbers and truth values (as 0/1) as 'a.b.c' → value."""
    numbers = {}
    if isinstance(report, dict):
        for key, value in report.items():
            numbers.update(flattened(value, f"{prefix}{key}."))
    elif isinstance(report, bool):
        numbers[prefix[:-1]] = int(report)
    elif isinstance(report, (int, float)):
        numbers[prefix[:-1]] = report
    return numbers


def summary_numbers(summary):
    """`dpbo summary --json` flattened: 'evaluation_only.NAME.median' → value, and so on."""
    numbers = {}
    for group in ("released", "evaluation_only"):
        for name, stats in summary.get(group, {}).items():
            for stat, value in stats.items():
                if isinstance(value, (int, float)):
                    numbers[f"{group}.{name}.{stat}"] = value
    return numbers


def repeat_folders(folder):
    """A run's repeat folders in order (a run of one repeat keeps its files at the top)."""
    folder = pathlib.Path(folder)
    return sorted(folder.glob("repeat-*")) or [folder]


def read_trace_column(folder, column):
    """Each repeat's trace column (its trace.csv), in repeat order."""
    curves = []
    for repeat in repeat_folders(folder):
        if not (repeat / "trace.csv").exists():
            raise ReproductionError(f"{repeat}: no trace.csv")
        with open(repeat / "trace.csv", newline="") as handle:
            rows = list(csv.DictReader(handle))
        if rows and column not in rows[0]:
            raise ReproductionError(f"{repeat / 'trace.csv'}: no column '{column}' (has {', '.join(rows[0])})")
        curves.append([float(row[column]) for row in rows])
    return curves


def reported_cpu_seconds(folder):
    """The CPU time the runs of a folder report (each repeat's result.json `timing`): the cost of the
    cell on the machine that ran it, also when it was run earlier and kept."""
    results = [repeat / "result.json" for repeat in repeat_folders(folder)]
    return sum(json.loads(result.read_text()).get("timing", {}).get("cpu_seconds", 0.0)
               for result in results if result.exists())


def mean_and_standard_error(values):
    values = list(values)
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, float("nan")
    return mean, statistics.stdev(values) / math.sqrt(len(values))


def number(value, digits=3):
    """A figure at `digits` significant digits, as the tables print it."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    if value == 0:
        return "0"
    text = f"{value:.{digits}g}"
    if "e" in text:
        mantissa, exponent = text.split("e")
        return f"{mantissa}e{int(exponent)}"
    return text


def median_range(numbers, key, digits=3):
    """'median (min–max)' of an evaluation-only or released scalar of a cell."""
    return (f"{number(numbers[key + '.median'], digits)} "
            f"({number(numbers[key + '.min'], digits)}–{number(numbers[key + '.max'], digits)})")


def plain_text(markup):
    """HTML as the reader sees it: tags dropped, entities decoded."""
    return html.unescape(re.sub(r"<[^>]+>", "", markup)).strip()


def replace_block(page_text, script, name, markdown, stamp, page):
    """`page_text` with the block `name` that `script` generates replaced by `markdown` and `stamp`
    (the lines between '<!-- generated by SCRIPT: NAME -->' and '<!-- end of generated NAME -->')."""
    begin = f"<!-- generated by {script}: {name} -->"
    end = f"<!-- end of generated {name} -->"
    pattern = re.compile(re.escape(begin) + r"\n.*?" + re.escape(end), re.S)
    if not pattern.search(page_text):
        raise ReproductionError(f"{page}: no generated block '{name}' (a line '{begin}' followed "
                                f"by a line '{end}'); add the two lines where the table belongs")
    block = f"{begin}\n{markdown.rstrip()}\n\n{stamp}\n{end}" if stamp else f"{begin}\n{markdown.rstrip()}\n{end}"
    return pattern.sub(lambda _: block, page_text, count=1)


def git_commit(root=SOURCE_ROOT):
    """The commit a source tree is at (`--dirty` when it has changes), for a stamp."""
    try:
        return subprocess.run(["git", "-C", str(root), "describe", "--always", "--dirty", "--abbrev=10"],
                              capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown (not a git checkout)"


class Reproduction:
    def __init__(self, paper, page, script):
        self.paper = paper
        self.page = SOURCE_ROOT / page
        self.script = pathlib.Path(script).resolve()
        self.store = self.script.with_name("reproduced.json")
        self.cells = {}
        self.tables = {}   # name → (cell names, render(numbers by cell) → Markdown)
        self.drift_cells = []
        self.figures = {}  # name → (cell names, caption to find, file under the source root)

    def figure(self, name, cells, caption, file):
        """A figure of `dpbo report` over the cells' folders — the one whose caption contains
        `caption` — saved as an SVG file (path relative to the source root) for the page to show."""
        unknown = [c for c in cells if c not in self.cells]
        if unknown:
            raise ValueError(f"figure '{name}' names unknown cells: {', '.join(unknown)}")
        self.figures[name] = (list(cells), caption, file)

    def draw_figures(self, dpbo, out, names):
        """Each figure whose cells were run now: the report's SVG, cut out of its page."""
        for name, (cells, caption, file) in self.figures.items():
            if not set(cells) <= set(names):
                if set(cells) & set(names):  # a --cell run that left out some of the figure's settings
                    print(f"  figure {name} not redrawn: it also shows {', '.join(sorted(set(cells) - set(names)))}, "
                          f"not re-run now (add them with --cell)", file=sys.stderr)
                continue
            with tempfile.TemporaryDirectory(prefix="dpbo-reproduce-report-") as scratch:
                page = pathlib.Path(scratch) / "report.html"
                report = subprocess.run([str(dpbo), "report", *[str(out / c) for c in cells], "--out", str(page)],
                                        capture_output=True, text=True, stdin=subprocess.DEVNULL)
                if report.returncode != 0:
                    raise ReproductionError(f"figure '{name}': dpbo report exited {report.returncode}: "
                                            f"{report.stderr.strip()}")
                html = page.read_text()
            svg = None
            for figure in re.finditer(r'<figure class="plot"[^>]*>(.*?)</figure>', html, re.S):
                caption_text = re.search(r"<figcaption[^>]*>(.*?)</figcaption>", figure.group(1), re.S)
                if caption_text and caption in plain_text(caption_text.group(1)):
                    svg = re.search(r"<svg.*?</svg>", figure.group(1), re.S)
                    break
            if svg is None:
                raise ReproductionError(f"figure '{name}': no figure of the report has a caption containing "
                                        f"'{caption}'")
            target = SOURCE_ROOT / file
            target.parent.mkdir(parents=True, exist_ok=True)
            self.write_atomically(target, svg.group(0) + "\n")
            print(f"  figure {name}: {file}", file=sys.stderr)

    def drift(self, *cells):
        """The cheap cells the per-paper test re-runs (`--check` with no cell)."""
        self.drift_cells.extend(cells)

    def cell(self, name, args, extract=None):
        return self._add(Cell(name, args, extract))

    def audit(self, name, args, extract=flattened):
        """A cell that is a `dpbo audit` (AuditCell): a table can show what the auditor found."""
        return self._add(AuditCell(name, args, extract))

    def _add(self, cell):
        if cell.name in self.cells:
            raise ValueError(f"cell '{cell.name}' added twice")
        self.cells[cell.name] = cell
        return cell.name

    def table(self, name, cells, render):
        unknown = [c for c in cells if c not in self.cells]
        if unknown:
            raise ValueError(f"table '{name}' names unknown cells: {', '.join(unknown)}")
        self.tables[name] = (list(cells), render)

    # --- running -------------------------------------------------------------------------------
    def run_audit(self, cell, dpbo, out):
        kept = out / f"{cell.name}.json"
        command = "dpbo audit " + shlex.join(cell.args)
        if kept.exists():
            try:
                record = json.loads(kept.read_text())
            except json.JSONDecodeError:
                record = {}
            if record.get("command") == command:
                return {"numbers": cell.extract(record["report"]), "command": command, "seconds": 0.0,
                        "cpu_seconds": record["cpu_seconds"]}
        started = time.monotonic()
        with tempfile.TemporaryFile("w+") as stdout, open(out / f"{cell.name}.log", "w") as log:
            process = subprocess.Popen(cell.command(dpbo, None), cwd=SOURCE_ROOT, stdout=stdout, stderr=log,
                                       stdin=subprocess.DEVNULL, env=run_environment())
            # wait4, not wait: the child's own CPU time (other cells may run at once).
            _, status, usage = os.wait4(process.pid, 0)
            process.returncode = exit_code = os.waitstatus_to_exitcode(status)
            stdout.seek(0)
            text = stdout.read()
        if exit_code not in (0, 3):
            raise ReproductionError(f"cell '{cell.name}': `{command}` exited {exit_code}; see "
                                    f"{out / (cell.name + '.log')}")
        record = {"command": command, "report": json.loads(text),
                  "cpu_seconds": round(usage.ru_utime + usage.ru_stime, 2)}
        self.write_atomically(kept, json.dumps(record, indent=1) + "\n")
        return {"numbers": cell.extract(record["report"]), "command": command,
                "seconds": round(time.monotonic() - started, 2), "cpu_seconds": record["cpu_seconds"]}

    def run_cell(self, cell, dpbo, out):
        if isinstance(cell, AuditCell):
            return self.run_audit(cell, dpbo, out)
        folder = out / cell.name
        command = cell.command(dpbo, folder)
        started = time.monotonic()
        log = out / f"{cell.name}.log"
        with open(log, "w") as handle:
            status = subprocess.run(command, cwd=SOURCE_ROOT, stdout=handle, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL, env=run_environment())
        seconds = time.monotonic() - started
        if status.returncode != 0:
            tail = "".join(open(log).readlines()[-5:])
            raise ReproductionError(f"cell '{cell.name}': `{shlex.join(command)}` exited {status.returncode}; "
                                    f"the end of {log}:\n{tail}")
        summary = subprocess.run([str(dpbo), "summary", str(folder), "--json"], capture_output=True, text=True,
                                 stdin=subprocess.DEVNULL)
        if summary.returncode != 0:
            raise ReproductionError(f"cell '{cell.name}': dpbo summary {folder} exited {summary.returncode}: "
                                    f"{summary.stderr.strip()}")
        numbers = summary_numbers(json.loads(summary.stdout))
        if cell.extract:
            numbers.update(cell.extract(folder, numbers))
        return {"numbers": numbers, "command": "dpbo run " + shlex.join(cell.args), "seconds": round(seconds, 2),
                "cpu_seconds": round(reported_cpu_seconds(folder), 2)}

    def run_cells(self, names, dpbo, out, jobs):
        out.mkdir(parents=True, exist_ok=True)
        results = {}
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            futures = {pool.submit(self.run_cell, self.cells[n], dpbo, out): n for n in names}
            for future in concurrent.futures.as_completed(futures):
                name = futures[future]
                results[name] = future.result()
                print(f"  {name}: {results[name]['seconds']} s", file=sys.stderr, flush=True)
        return results

    # --- the store and the page --------------------------------------------------------------------
    def load_store(self):
        if not self.store.exists():
            return {"paper": self.paper, "cells": {}}
        try:
            return json.loads(self.store.read_text())
        except json.JSONDecodeError as error:
            raise ReproductionError(f"{self.store}: not JSON ({error}); regenerate it with {self.script.name}")

    @staticmethod
    def write_atomically(path, text):
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
        try:
            # mkstemp's file is 0600; the page and the store keep the mode a checkout gives them.
            os.chmod(temporary, path.stat().st_mode & 0o777 if path.exists() else 0o644)
            with os.fdopen(handle, "w") as stream:
                stream.write(text)
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise

    def relative_script(self):
        try:
            return self.script.relative_to(SOURCE_ROOT)
        except ValueError:  # a script outside the source tree (the harness's own test)
            return self.script

    def write_table(self, page_text, name, markdown, stamp, page=None):
        return replace_block(page_text, self.relative_script(), name, markdown, stamp, page or self.page)

    def render(self, names, store, command):
        text = self.page.read_text()
        for name in names:
            cells, render = self.tables[name]
            missing = [c for c in cells if c not in store["cells"]]
            if missing:
                raise ReproductionError(f"table '{name}': cells never run: {', '.join(missing)}; "
                                        f"run `{command} --only {name}`")
            numbers = {c: store["cells"][c]["numbers"] for c in cells}
            cpu = sum(store["cells"][c].get("cpu_seconds", 0.0) for c in cells)
            commits = sorted({store["cells"][c]["commit"] for c in cells})
            stamp = (f"<sub>Written by `{command} --only {name}` from runs at commit {', '.join(commits)}; "
                     f"{len(cells)} settings, {cpu / 60:.1f} CPU-minutes inside the runs (their own timing, which leaves out start-up and loading data).</sub>")
            text = self.write_table(text, name, render(numbers), stamp)
        self.write_atomically(self.page, text)
        self.render_cost(store, command)

    def render_cost(self, store, command):
        """The paper's line on docs/reproductions.md: its settings and their CPU time, from the store."""
        overview = SOURCE_ROOT / "docs" / "reproductions.md"
        if not overview.exists() or self.script.parent.parent.parent.parent != SOURCE_ROOT / "plugins":
            return  # a paper outside the source tree (the harness's own test) has no line there
        cells = [c for c in self.cells if c in store["cells"]]
        cpu = sum(store["cells"][c].get("cpu_seconds", 0.0) for c in cells)
        line = f"- {self.paper}: {len(cells)} settings, {cpu / 60:.1f} CPU-minutes inside the runs (their own timing, which leaves out start-up and loading data)"
        self.write_atomically(overview, self.write_table(overview.read_text(), "cost", line, "", overview))

    # --- the drift check ---------------------------------------------------------------------------
    def check(self, name, dpbo, relative_tolerance):
        store = self.load_store()
        if name not in self.cells:
            raise ReproductionError(f"--check '{name}': no such cell (cells: {', '.join(self.cells)})")
        if name not in store["cells"]:
            raise ReproductionError(f"--check '{name}': {self.store} has no numbers for it; run the reproduction")
        committed = store["cells"][name]["numbers"]
        with tempfile.TemporaryDirectory(prefix="dpbo-reproduce-") as scratch:
            fresh = self.run_cell(self.cells[name], dpbo, pathlib.Path(scratch))["numbers"]
        drifted = []
        for key, value in sorted(committed.items()):
            now = fresh.get(key)
            if now is None:
                drifted.append(f"  {key}: documented {value!r}, no longer produced")
            elif isinstance(value, str) or isinstance(now, str):  # a text an extract kept (an audit's event)
                if now != value:
                    drifted.append(f"  {key}: documented {value!r}, now {now!r}")
            elif not math.isclose(now, value, rel_tol=relative_tolerance, abs_tol=1e-12):
                drifted.append(f"  {key}: documented {value!r}, now {now!r}")
        if drifted:
            raise ReproductionError(
                f"{self.paper}: cell '{name}' no longer gives the numbers documented in {self.page.name}:\n"
                + "\n".join(drifted) + "\nOpenBLAS's kernels: "
                + run_environment().get("OPENBLAS_CORETYPE", "chosen by OpenBLAS for this CPU")
                + f" (the documented numbers: {DOCUMENTED_CORETYPE})" + f"\nregenerate the docs with `python3 {self.relative_script()}` and say in "
                "CHANGELOG.md why they moved")
        print(f"{self.paper}: cell '{name}' gives the documented numbers ({len(committed)} values)")

    # --- the command line --------------------------------------------------------------------------
    def main(self, argv=None):
        parser = argparse.ArgumentParser(description=f"Reproduce {self.paper}: run the cells, write the tables "
                                         f"of {self.page.name}.")
        parser.add_argument("--dpbo", default=str(SOURCE_ROOT / "build" / "bin" / "dpbo"),
                            help="the dpbo executable (default: build/bin/dpbo)")
        parser.add_argument("--out", default=None,
                            help="where the runs go (default: results/reproduce-<paper>); runs found there "
                                 "finished are kept, unfinished ones resume")
        parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="runs at once")
        parser.add_argument("--only", action="append", default=[], metavar="TABLE",
                            help=f"regenerate only this table (repeatable): {', '.join(self.tables)}")
        parser.add_argument("--cell", action="append", default=[], metavar="SETTING",
                            help="re-run only this setting (repeatable) and rewrite the tables that use it; the "
                                 "other settings' stored numbers stand, each stamped with the commit that made it")
        parser.add_argument("--render-only", action="store_true",
                            help="rewrite the page's tables from the stored numbers without running")
        parser.add_argument("--check", metavar="CELL", nargs="?", const="", default=None,
                            help="re-run a cell (default: the paper's drift cells) and compare it with the stored "
                                 "numbers; exit 1 naming every number that moved")
        parser.add_argument("--tolerance", type=float, default=1e-6,
                            help="relative tolerance of --check (runs are deterministic; the default allows "
                                 "last-digit differences of floating-point libraries)")
        parser.add_argument("--list", action="store_true", help="list the tables and their cells' commands")
        arguments = parser.parse_args(argv)
        try:
            dpbo = pathlib.Path(arguments.dpbo).resolve()
            if not arguments.list and not arguments.render_only and not os.access(dpbo, os.X_OK):
                raise ReproductionError(f"--dpbo {arguments.dpbo}: not an executable file (build dpbo first)")
            if arguments.jobs < 1:
                raise ReproductionError(f"--jobs {arguments.jobs}: expected at least 1")
            if arguments.check is not None:
                cells = [arguments.check] if arguments.check else self.drift_cells
                if not cells:
                    raise ReproductionError("--check: this paper names no drift cell")
                for cell in cells:
                    self.check(cell, dpbo, arguments.tolerance)
                return 0
            unknown = [t for t in arguments.only if t not in self.tables]
            if unknown:
                raise ReproductionError(f"--only {', '.join(unknown)}: no such table (tables: {', '.join(self.tables)})")
            unknown = [c for c in arguments.cell if c not in self.cells]
            if unknown:
                raise ReproductionError(f"--cell {', '.join(unknown)}: no such setting (`--list` names them)")
            if arguments.cell and (arguments.only or arguments.render_only):
                raise ReproductionError("--cell names the settings to re-run and the tables follow from them: "
                                        "give it without --only or --render-only")
            if arguments.cell:
                # After a change that moves some settings only: the tables that show them are rewritten,
                # every other setting's numbers stand for the commit that produced them (the stamps say).
                names = [n for n, (cells, _) in self.tables.items() if set(cells) & set(arguments.cell)]
            else:
                names = arguments.only or list(self.tables)
            if arguments.list:
                for name in names:
                    print(f"{name}:")
                    for cell in self.tables[name][0]:
                        print(f"  {cell}: dpbo run {shlex.join(self.cells[cell].args)}")
                return 0
            command = f"python3 {self.relative_script()}"
            store = self.load_store()
            if not arguments.render_only:
                cells = (list(dict.fromkeys(arguments.cell)) if arguments.cell else
                         list(dict.fromkeys(c for n in names for c in self.tables[n][0])))
                out = pathlib.Path(arguments.out or SOURCE_ROOT / "results" / f"reproduce-{self.paper}")
                commit = git_commit()
                print(f"{self.paper}: {len(cells)} runs into {out} ({arguments.jobs} at once)", file=sys.stderr)
                for name, result in self.run_cells(cells, dpbo, out, arguments.jobs).items():
                    # Wall time depends on what else the machine runs and is ~0 for kept runs: only shown.
                    result = {k: v for k, v in result.items() if k != "seconds"}
                    earlier = store["cells"].get(name, {})
                    if earlier.get("numbers") == result["numbers"] and earlier.get("command") == result["command"]:
                        # The same numbers from the same command (runs kept in --out, or a deterministic
                        # re-run): they still stand for the commit that first produced them.
                        store["cells"][name] = {**result, "commit": earlier["commit"], "date": earlier["date"]}
                    else:
                        store["cells"][name] = {**result, "commit": commit,
                                                "date": datetime.date.today().isoformat()}
                store["cells"] = dict(sorted(store["cells"].items()))
                self.write_atomically(self.store, json.dumps(store, indent=1, sort_keys=False) + "\n")
                self.draw_figures(dpbo, out, cells)
            self.render(names, store, command)
            print(f"{self.page}: wrote {', '.join(names)}", file=sys.stderr)
            return 0
        except ReproductionError as error:
            print(f"{self.script.name}: error: {error}", file=sys.stderr)
            return 1
