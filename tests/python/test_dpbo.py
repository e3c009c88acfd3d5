"""CTest: `import dpbo` (apps/python). Run as `python3 -m unittest test_dpbo.CLASS` with PYTHONPATH at
the package (build/lib/python) and DPBO (the dpbo executable), DPBO_SOURCE_DIR in the environment.

The central check: a seeded study driven from Python, the same study driven through `dpbo ask` /
`dpbo tell` by the CLI client, and `dpbo run` over the same objective as a `command` program release
exactly the same values.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import unittest

import numpy as np

import dpbo

DPBO = os.environ["DPBO"]
SOURCE = os.environ["DPBO_SOURCE_DIR"]
EXAMPLES = os.path.join(SOURCE, "sdk", "examples", "python-objective")
sys.path.insert(0, EXAMPLES)
import record_objective  # noqa: E402  (the sdk example's objective: the same function every way)

RECORDS = record_objective.make_records(2, 20, 7)
SPACE = {"theta0": (-5.0, 5.0), "theta1": (-5.0, 5.0)}


def record_loss(params):
    """The example's per-record losses at θ, as a numpy array."""
    _, losses = record_objective.evaluate([params["theta0"], params["theta1"]], RECORDS)
    return np.array(losses)


def mean_loss(params):
    """The example's loss as its program computes it (its own sum, bit for bit)."""
    loss, _ = record_objective.evaluate([params["theta0"], params["theta1"]], RECORDS)
    return loss


def dpbo_cli(*words):
    done = subprocess.run([DPBO, *map(str, words)], capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        raise AssertionError(f"dpbo {' '.join(map(str, words))}: exit {done.returncode}\n{done.stderr}")
    return done.stdout


class Folder(unittest.TestCase):
    def setUp(self):
        self._folder = tempfile.TemporaryDirectory(prefix="dpbo-python-")
        self.folder = self._folder.name

    def tearDown(self):
        self._folder.cleanup()

    def path(self, name):
        return os.path.join(self.folder, name)


# (algorithm, settings, per-record): the open BO loop and DP-GIBO's private per-record gradients.
JOBS = {
    "gp-ucb": ({"algorithm.budget": 14, "algorithm.initial_points": 5}, False),
    "dp-gibo": ({"algorithm.track_objective": "false", "algorithm.iterations": 4}, True),
}


class SameReleases(Folder):
    """A seeded Python study = the seeded CLI study = dpbo run, bit for bit."""

    def python_study(self, algorithm, settings, per_record):
        return dpbo.run(record_loss if per_record else mean_loss, space=SPACE, algorithm=algorithm,
                        outputs={"loss": "minimise"}, records=len(RECORDS), seed=5, settings=settings)

    def cli_study(self, algorithm, settings):
        spec = self.path(f"{algorithm}-spec.json")
        with open(spec, "w") as out:
            out.write(subprocess.run([sys.executable, os.path.join(EXAMPLES, "record_objective.py"), "--print-spec"],
                                     capture_output=True, text=True, check=True).stdout)
        study = self.path(f"{algorithm}-cli.db")
        words = ["study", "create", study, "--algorithm", algorithm, "--space", spec, "--seed", "5"]
        for key, value in settings.items():
            words += ["--set", f"{key}={value}"]
        dpbo_cli(*words)
        subprocess.run([sys.executable, os.path.join(EXAMPLES, "ask_tell_client.py"), study, "--dpbo", DPBO],
                       check=True, capture_output=True, timeout=300)
        return json.loads(dpbo_cli("study", "show", study, "--json"))["result"]

    def dpbo_run(self, algorithm, settings):
        """The released values of the seeded dpbo run over the example's program."""
        out = self.path(f"{algorithm}-run")
        words = ["run", "--algorithm", algorithm, "--objective", "command", "--set",
                 f"objective.command={sys.executable} {os.path.join(EXAMPLES, 'record_objective.py')}",
                 "--seed", "5", "--out", out]
        for key, value in settings.items():
            words += ["--set", f"{key}={value}"]
        dpbo_cli(*words)
        with open(os.path.join(out, "result.json")) as f:
            return json.load(f)

    def test_each_algorithm(self):
        for algorithm, (settings, per_record) in JOBS.items():
            with self.subTest(algorithm=algorithm):
                in_python = self.python_study(algorithm, settings, per_record)
                through_cli = self.cli_study(algorithm, settings)
                run = self.dpbo_run(algorithm, settings)
                self.assertEqual(in_python["released"], run["released"])
                self.assertEqual(through_cli["released"], run["released"])
                self.assertEqual(in_python["privacy"]["headline"], run["privacy"]["headline"])

    def test_vectorised_objective_releases_the_same(self):
        settings = {"algorithm.budget": 10, "algorithm.initial_points": 4, "algorithm.batch": 3}

        def batch_loss(params):
            return np.array([mean_loss({"theta0": a, "theta1": b}) for a, b in zip(params["theta0"], params["theta1"])])

        one_by_one = dpbo.run(mean_loss, space=SPACE, algorithm="gp-ucb", seed=9, settings=settings)
        vectorised = dpbo.run(batch_loss, space=SPACE, algorithm="gp-ucb", seed=9, settings=settings, vectorised=True)
        self.assertEqual(one_by_one["released"], vectorised["released"])

    def test_an_objective_that_raises_keeps_the_study_and_resumes(self):
        settings = {"algorithm.budget": 12, "algorithm.initial_points": 4}
        calls = []

        def failing_once(params):
            calls.append(1)
            if len(calls) == 7:
                raise ArithmeticError("the model diverged")
            return mean_loss(params)

        with self.assertRaises(ArithmeticError) as raised:
            dpbo.run(failing_once, space=SPACE, algorithm="gp-ucb", seed=8, settings=settings)
        note = " ".join(raised.exception.__notes__)
        kept = re.search(r"kept in '([^']+)'", note).group(1)
        try:
            self.assertTrue(os.path.exists(kept), note)
            resumed = dpbo.run(failing_once, space=SPACE, algorithm="gp-ucb", seed=8, settings=settings, study=kept)
        finally:
            shutil.rmtree(os.path.dirname(kept), ignore_errors=True)
        whole = dpbo.run(mean_loss, space=SPACE, algorithm="gp-ucb", seed=8, settings=settings)
        self.assertEqual(resumed["released"], whole["released"])

    def test_python_study_continued_by_the_cli(self):
        """The file is the study: begun in Python, finished by dpbo ask/tell, the same release."""
        settings = {"algorithm.budget": 12, "algorithm.initial_points": 4}
        whole = dpbo.run(mean_loss, space=SPACE, algorithm="gp-ucb", seed=2, settings=settings)
        study_file = self.path("handed-over.db")
        study = dpbo.Study.create(study_file, algorithm="gp-ucb", space=SPACE, seed=2, settings=settings)
        for _ in range(7):
            trial = study.ask()
            study.tell(trial, value=mean_loss(trial.params))
        del study
        while True:
            asked = json.loads(dpbo_cli("ask", study_file))
            if asked["finished"]:
                break
            for trial in asked["trials"]:
                value = mean_loss(dict(zip(asked["names"], trial["point"])))
                dpbo_cli("tell", study_file, trial["id"], "--value", repr(value))
        self.assertEqual(asked["result"]["released"], whole["released"])


class Keeper(Folder):
    """dpbo study serve: the CLI's asks answered by a process that keeps the study's run alive."""

    def start(self, study, *options):
        keeper = subprocess.Popen([DPBO, "study", "serve", study, *options], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
        ready = keeper.stdout.readline()
        self.assertIn("keeping study", ready, keeper.stderr.read() if keeper.poll() is not None else "")
        return keeper

    def stop(self, keeper):
        keeper.terminate()
        out, err = keeper.communicate(timeout=60)
        self.assertEqual(keeper.returncode, 0, err)
        return out

    def test_the_cli_study_through_a_keeper_is_the_run(self):
        settings = {"algorithm.budget": 12, "algorithm.initial_points": 4}
        spec = self.path("spec.json")
        with open(spec, "w") as out:
            out.write(subprocess.run([sys.executable, os.path.join(EXAMPLES, "record_objective.py"), "--print-spec"],
                                     capture_output=True, text=True, check=True).stdout)
        study = self.path("kept.db")
        words = ["study", "create", study, "--algorithm", "gp-ucb", "--space", spec, "--seed", "5"]
        for key, value in settings.items():
            words += ["--set", f"{key}={value}"]
        dpbo_cli(*words)
        keeper = self.start(study, "--idle", "120")
        try:
            subprocess.run([sys.executable, os.path.join(EXAMPLES, "ask_tell_client.py"), study, "--dpbo", DPBO],
                           check=True, capture_output=True, timeout=300)
            shown = json.loads(dpbo_cli("study", "show", study, "--json"))
        finally:
            log = self.stop(keeper)
        self.assertEqual(log.count("answered: dpbo ask"), 12 + 1, log)  # every trial's ask, and the one that finds the end
        self.assertFalse(os.path.exists(study + ".keeper"), "the keeper removes its socket")
        self.assertEqual(shown["result"]["released"], SameReleases.dpbo_run(self, "gp-ucb", settings)["released"])

    def test_idle_keeper_ends_and_a_second_one_is_refused(self):
        study = self.path("idle.db")
        dpbo_cli("study", "create", study, "--algorithm", "random-search", "--objective", "branin", "--seed", "1")
        keeper = self.start(study, "--idle", "1")
        second = subprocess.run([DPBO, "study", "serve", study], capture_output=True, text=True, timeout=60)
        self.assertEqual(second.returncode, 2)
        self.assertIn("a keeper already serves study", second.stderr)
        out, _ = keeper.communicate(timeout=60)
        self.assertIn("no request for 1 s", out)
        self.assertEqual(keeper.returncode, 0)
        self.assertFalse(os.path.exists(study + ".keeper"))

    def test_a_replaced_study_file_is_not_served_from_the_old_run(self):
        study = self.path("replaced.db")
        dpbo_cli("study", "create", study, "--algorithm", "random-search", "--objective", "branin", "--seed", "1")
        keeper = self.start(study, "--idle", "120")
        try:
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(study + suffix):
                    os.remove(study + suffix)
            dpbo_cli("study", "create", study, "--algorithm", "random-search", "--objective", "branin", "--seed", "2")
            asked = json.loads(dpbo_cli("ask", study))
            keeper.wait(timeout=60)
        finally:
            if keeper.poll() is None:
                keeper.kill()
        fresh = self.path("fresh.db")
        dpbo_cli("study", "create", fresh, "--algorithm", "random-search", "--objective", "branin", "--seed", "2")
        self.assertEqual(asked["trials"][0]["point"], json.loads(dpbo_cli("ask", fresh))["trials"][0]["point"])
        self.assertIn("replaced or removed", keeper.stdout.read())


class Extend(Folder):
    """A finished study given more budget goes on in its file; only new releases are charged."""

    def test_more_evaluations_continue_the_run(self):
        short = {"algorithm.budget": 10, "algorithm.initial_points": 4}
        longer = dict(short, **{"algorithm.budget": 16})
        study = dpbo.Study.create(self.path("e.db"), algorithm="gp-ucb", space=SPACE, seed=6, settings=short)
        while (trial := study.ask()) is not None:
            study.tell(trial, value=mean_loss(trial.params))
        self.assertEqual(study.result["evaluations"], 10)
        study.extend({"algorithm.budget": 16})
        self.assertFalse(study.finished)
        while (trial := study.ask()) is not None:
            study.tell(trial, value=mean_loss(trial.params))
        whole = dpbo.run(mean_loss, space=SPACE, algorithm="gp-ucb", seed=6, settings=longer)
        self.assertEqual(study.result["released"], whole["released"])
        self.assertEqual(study.job["algorithm"]["parameters"]["budget"], 16)

    def test_dp_gibo_iterations_and_a_shorter_job_are_refused_changing_nothing(self):
        settings = {"algorithm.track_objective": "false", "algorithm.iterations": 2}
        path = self.path("g.db")
        dpbo.run(record_loss, space=SPACE, algorithm="dp-gibo", records=len(RECORDS), seed=3, settings=settings,
                 study=path)
        before = json.loads(dpbo_cli("study", "show", path, "--json"))
        refused = subprocess.run([DPBO, "study", "extend", path, "--set", "algorithm.iterations=4"],
                                 capture_output=True, text=True)
        self.assertEqual(refused.returncode, 2)
        self.assertIn("cannot be extended with algorithm.iterations=4", refused.stderr)
        self.assertIn("earlier steps depend on it", refused.stderr)
        self.assertEqual(json.loads(dpbo_cli("study", "show", path, "--json")), before)
        shorter = subprocess.run([DPBO, "study", "extend", path, "--set", "algorithm.iterations=1"],
                                 capture_output=True, text=True)
        self.assertEqual(shorter.returncode, 2)
        self.assertIn("cannot be extended", shorter.stderr)
        wrong = subprocess.run([DPBO, "study", "extend", path, "--set", "objective.records=3"],
                               capture_output=True, text=True)
        self.assertEqual(wrong.returncode, 2)
        self.assertIn("--set 'objective.records=3': expected algorithm.KEY=VALUE", wrong.stderr)


class AskTell(Folder):
    def test_named_parameters_values_and_refusals(self):
        study = dpbo.Study.create(self.path("s.db"), algorithm="dp-gibo", space=SPACE, records=len(RECORDS),
                                  outputs="loss", seed=3,
                                  settings={"algorithm.track_objective": "false", "algorithm.iterations": 2})
        self.assertEqual(study.names, ["theta0", "theta1"])
        self.assertEqual(study.records, len(RECORDS))
        trial = study.ask()
        self.assertEqual(set(trial.params), {"theta0", "theta1"})
        self.assertTrue(trial.per_record)
        self.assertIsNone(study.best, "nothing is released before the study finishes")
        with self.assertRaisesRegex(dpbo.Error, r"trial \d+ of study .*per-record values"):
            study.tell(trial, value=1.0)
        with self.assertRaisesRegex(dpbo.Error, "1-D array"):
            study.tell(trial, per_record=np.ones((2, 2)))
        with self.assertRaisesRegex(dpbo.Error, "is nan"):
            study.tell(trial, per_record=np.full(len(RECORDS), np.nan))
        study.tell(trial, per_record=record_loss(trial.params))
        with self.assertRaisesRegex(dpbo.Error, "told already"):
            study.tell(trial, per_record=record_loss(trial.params))
        with self.assertRaisesRegex(dpbo.Error, "has no trial 999"):
            study.tell(999, value=1.0)
        while (trial := study.ask()) is not None:
            study.tell(trial, per_record=record_loss(trial.params))
        self.assertTrue(study.finished)
        best = study.best
        self.assertIn("params", best)
        self.assertEqual(set(best["params"]), {"theta0", "theta1"})
        self.assertTrue(study.best_told["evaluation_only"])
        privacy = study.privacy
        # Seeded, so its noise is known to anyone with the seed: the statement says so, and what the
        # same run with secret noise would give.
        self.assertEqual(privacy["statement"]["notion"], "not private")
        self.assertIn("reproducible run", privacy["statement"]["headline"])
        self.assertEqual(privacy["statement"]["hypothetical"]["notion"], "mu-GDP")
        self.assertGreater(privacy["releases"], 0)
        self.assertEqual(privacy["spent"]["headline"], privacy["statement"]["hypothetical"]["headline"])
        self.assertTrue(all(t.state == "done" for t in study.trials))
        # The report draws the study's privacy over its releases, as it does a run's.
        page = self.path("report.html")
        dpbo_cli("report", self.path("s.db"), "--out", page)
        with open(page) as f:
            figures = [json.loads(text) for text in
                       re.findall(r'<script type="application/json" class="figure-data">(.*?)</script>', f.read(), re.S)]
        over_run = [f for f in figures if f["title"].startswith("Privacy spent over the run")]
        self.assertEqual(len(over_run), 1, [f["title"] for f in figures])
        points = over_run[0]["series"][0]
        self.assertEqual(points["x"], list(range(1, privacy["releases"] + 1)))
        self.assertTrue(all(a < b for a, b in zip(points["y"], points["y"][1:])), points["y"])
        study.close()
        with self.assertRaisesRegex(dpbo.Error, "the study was closed"):
            study.ask()
        with dpbo.Study(self.path("s.db")) as reopened:
            self.assertEqual(reopened.best, best)

    def test_threads_sharing_a_study_lose_nothing(self):
        settings = {"algorithm.budget": 16, "algorithm.initial_points": 4, "algorithm.batch": 2}
        alone = dpbo.run(mean_loss, space=SPACE, algorithm="gp-ucb", seed=4, settings=settings)
        study = dpbo.Study.create(self.path("threads.db"), algorithm="gp-ucb", space=SPACE, seed=4, settings=settings)
        evaluated = []

        def client():
            while not study.finished:
                trial = study.ask()
                if trial is None:
                    continue
                evaluated.append(trial.id)
                study.tell(trial, value=mean_loss(trial.params))

        clients = [threading.Thread(target=client) for _ in range(2)]
        for thread in clients:
            thread.start()
        for thread in clients:
            thread.join()
        self.assertEqual(sorted(evaluated), list(range(1, 17)))
        self.assertEqual(study.result["released"], alone["released"])

    def test_a_failed_trial_is_asked_again(self):
        study = dpbo.Study.create(self.path("f.db"), algorithm="random-search", space=SPACE, seed=1,
                                  settings={"algorithm.budget": 3})
        trial = study.ask()
        retry = study.tell(trial, failed="out of memory")
        again = {t.id: t for t in study.ask_batch(10)}
        self.assertIn(retry, again)
        np.testing.assert_array_equal(again[retry].point, trial.point)
        failed = [t for t in study.trials if t.state == "failed"]
        self.assertEqual([t.failure for t in failed], ["out of memory"])

    def test_host_errors_keep_the_message(self):
        with self.assertRaisesRegex(dpbo.Error, "no-such-algorithm"):
            dpbo.Study.create(self.path("x.db"), algorithm="no-such-algorithm", space=SPACE)
        self.assertFalse(os.path.exists(self.path("x.db")))
        with self.assertRaisesRegex(dpbo.Error, "nothing.db' is not a file"):
            dpbo.Study(os.path.join(self.folder, "nothing.db"))
        with self.assertRaisesRegex(dpbo.Error, r"space\['theta0'\]"):
            dpbo.Study.create(self.path("y.db"), algorithm="gp-ucb", space={"theta0": 3})


class Commands(unittest.TestCase):
    def test_modules_info_account(self):
        names = {(m["kind"], m["name"]) for m in dpbo.modules()}
        self.assertIn(("algorithm", "dp-gibo"), names)
        self.assertIn(("accountant", "rdp"), names)
        self.assertEqual({m["kind"] for m in dpbo.modules("accountant")}, {"accountant"})
        self.assertIn("budget", json.dumps(dpbo.info("gp-ucb")))
        accounted = dpbo.account("gaussian:sigma=2,sensitivity=1x100", delta=1e-6)
        cli = json.loads(dpbo_cli("account", "--event", "gaussian:sigma=2,sensitivity=1x100", "--delta", "1e-6",
                                  "--json"))
        self.assertEqual(accounted, cli)
        self.assertEqual(accounted["mu"], 5.0)
        with self.assertRaisesRegex(dpbo.Error, "no-such-module"):
            dpbo.info("no-such-module")

    def test_the_gil_is_released_while_dpbo_works(self):
        ticks = []
        stop = threading.Event()

        def tick():
            while not stop.is_set():
                ticks.append(1)
                stop.wait(0.001)

        ticker = threading.Thread(target=tick)
        ticker.start()
        try:
            before = len(ticks)
            # About a second of C++: Rényi composition of many subsampled steps over every order.
            dpbo.account("subsampled-gaussian:q=0.01,sigma=1.1,sampling=poisson,steps=100000", delta=1e-5,
                         compare=True)
            during = len(ticks) - before
        finally:
            stop.set()
            ticker.join()
        self.assertGreater(during, 0, "no Python thread ran while dpbo composed")


class Example(unittest.TestCase):
    def test_the_sdk_example_tunes_privately(self):
        example = os.path.join(SOURCE, "sdk", "examples", "python-tuning", "tune_dp_sgd.py")
        with open(example) as f:
            self.assertLess(len(f.read().splitlines()), 30)
        done = subprocess.run([sys.executable, example], capture_output=True, text=True, timeout=300)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("released:", done.stdout)
        self.assertRegex(done.stdout, r"privacy: \[\{'epsilon': [0-9.]+, 'delta': 1e-05\}\] for one row of the table")


if __name__ == "__main__":
    unittest.main()
