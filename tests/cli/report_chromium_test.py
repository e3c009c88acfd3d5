#!/usr/bin/env python3
"""The comparison report as a browser shows it: two seeded runs and a seeded study reported together
(apps/reproduce/report_compare_example.py), the page loaded in headless Chromium, and its DOM checked:
the comparison table comes first, one row per run and study with the dimensions by name, the noise
warning where the rule fires and not elsewhere; every figure's axes name dimensions, never x[i] or
θ[i]; ε spent over the run and a slice per hyperparameter are drawn; and a screenshot of the first
screen is taken. Skipped (77) only when no chromium is installed (cmake/setup.sh installs it).

Usage: report_chromium_test.py DPBO SOURCE_DIR
"""
import html.parser
import json
import os
import shutil
import sys
import tempfile

SKIP = 77


class Page(html.parser.HTMLParser):
    """What the checks need of the DOM Chromium dumped: section order, comparison rows, figure data."""

    def __init__(self):
        super().__init__()
        self.sections, self.rows, self.figures = [], {}, []
        self._row, self._script, self._text = None, False, []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "section":
            self.sections.append(attrs.get("id") or attrs.get("class") or "")
        if tag == "tr" and "data-label" in attrs:
            self._row = attrs["data-label"]
            self.rows[self._row] = ""
        if tag == "script" and attrs.get("class") == "figure-data":
            self._script, self._text = True, []

    def handle_endtag(self, tag):
        if tag == "tr":
            self._row = None
        if tag == "script" and self._script:
            self.figures.append(json.loads("".join(self._text)))
            self._script = False

    def handle_data(self, data):
        if self._row is not None:
            self.rows[self._row] += data
        if self._script:
            self._text.append(data)


def check(condition, message):
    if not condition:
        sys.exit("FAILED: " + message)


def main():
    dpbo, source = sys.argv[1], sys.argv[2]
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        print("SKIPPED: no chromium on the PATH (cmake/setup.sh installs Debian's chromium)")
        return SKIP
    sys.path.insert(0, os.path.join(source, "apps", "reproduce"))
    import report_compare_example as example

    with tempfile.TemporaryDirectory(prefix="dpbo-report-chromium-") as workdir:
        sources = example.make(dpbo, os.path.join(workdir, "runs"))
        page_file = os.path.join(workdir, "report.html")
        example.report(dpbo, sources, page_file)
        dumped = example.chromium_run(chromium, "--dump-dom", "file://" + page_file)
        check(dumped.returncode == 0, f"chromium --dump-dom exited {dumped.returncode}: {dumped.stderr[-2000:]}")
        dom = dumped.stdout
        page = Page()
        page.feed(dom)

        check(page.sections and page.sections[0] == "compare",
              f"the comparison comes first on the page; sections are {page.sections}")
        check(sorted(page.rows) == ["dp-gibo", "gp-ucb", "random-laplace", "tuning-study.db"],
              f"one comparison row per run and study: {sorted(page.rows)}")
        check("lambda" in page.rows["gp-ucb"] and "lambda" in page.rows["random-laplace"],
              "the runs' best point by its dimension's name (lambda)")
        check("learning_rate [log scale]" in page.rows["tuning-study.db"] and "l2_penalty" in page.rows["tuning-study.db"],
              "the study's best point by its dimensions' names, with the log scale: " + page.rows["tuning-study.db"])
        check("study file" in page.rows["tuning-study.db"], "the study's row says it is a study file")
        check("noise dominates" in page.rows["random-laplace"],
              "the Laplace-released best among 12 noisy values is warned about: " + page.rows["random-laplace"])
        check("noise dominates" not in page.rows["gp-ucb"], "an exact value has no noise warning")
        check("± 0.1697" in page.rows["random-laplace"], "the released value's noise s.d. √2·0.12 is shown")
        check("ε = 0.5" in page.rows["random-laplace"], "ε spent is in the row")

        titles = [figure["title"] for figure in page.figures]
        check(any(title.startswith("Privacy spent over the run") for title in titles), f"ε over the run: {titles}")
        check("theta0" in page.rows["dp-gibo"] and "theta1" in page.rows["dp-gibo"], "DP-GIBO's θ by name")
        for name in ("lambda", "learning_rate", "l2_penalty", "theta0", "theta1"):
            check(any(title.startswith("Slice: ") and title.split(" — ")[0].endswith(name) for title in titles),
                  f"a slice for {name}: {titles}")
        for figure in page.figures:
            for label in (figure["x_label"], figure["y_label"]):
                check("x[" not in label and "θ[" not in label and "theta[" not in label,
                      f"axis '{label}' of '{figure['title']}' names a dimension by its index")
        spent = [f for f in page.figures if f["title"].startswith("Privacy spent over the run")]
        check(len(spent) == 1, f"one ε figure: {titles}")
        by_folder = {s["folder"]: s for s in spent[0]["series"]}
        check(sorted(by_folder) == ["dp-gibo", "random-laplace"], f"ε over the private runs: {sorted(by_folder)}")
        check(by_folder["random-laplace"]["y"] == [0.5], "the Laplace run's one release at ε = 0.5")
        gibo = by_folder["dp-gibo"]
        check(gibo["x"] == list(range(1, 11)) and all(a < b for a, b in zip(gibo["y"], gibo["y"][1:])),
              f"DP-GIBO's ε grows over its ten releases: {gibo}")
        with open(os.path.join(workdir, "runs", "dp-gibo", "result.json")) as result:
            stated = json.load(result)["privacy"]["hypothetical"]["equivalent_epsilon_delta"][0]["epsilon"]
        check(abs(gibo["y"][-1] - stated) <= 1e-9 * stated,
              f"the last point is the statement's ε: {gibo['y'][-1]} against {stated}")
        check("learning_rate [log scale]" in dom.split('id="compare"')[1] and "<svg" in dom,
              "the figures are drawn as SVG")

        shot = os.path.join(workdir, "first-screen.png")
        example.screenshot(chromium, page_file, shot)
        with open(shot, "rb") as png:
            check(png.read(8) == b"\x89PNG\r\n\x1a\n", "the screenshot is a PNG")
    print("report in headless chromium: 1 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
