"""dpbo from Python: private hyperparameter tuning with a stated guarantee.

    import dpbo
    study = dpbo.Study.create("tune.db", algorithm="gp-ucb",
                              space={"lr": dpbo.real(1e-4, 1e-1, log=True), "depth": dpbo.integer(1, 8)},
                              seed=7, settings={"algorithm.budget": 30})
    while (trial := study.ask()) is not None:
        study.tell(trial, value=train_and_validate(**trial.params))
    print(study.best, study.privacy["statement"]["headline"])

A Study is the same SQLite file `dpbo study create|ask|tell` works on, and the same run: a seeded
study releases what `dpbo run --seed` releases. Kept open in this process, its algorithm stays alive
between asks, so an ask costs one step of the algorithm, not a replay of the study. dpbo.run drives a
study with a Python function as the objective. Released values (what the algorithm privatised and
published) and evaluation-only values (what clients told, computed from the data) are kept apart:
Study.best is released, Study.best_told is not.

Host errors keep dpbo's message: dpbo.Error (a ValueError) for bad input, dpbo.RunError (a
RuntimeError) for a run that failed.
"""

import json
import os
import shutil
import tempfile

import numpy as np

from . import _dpbo

Error = _dpbo.Error
RunError = _dpbo.RunError

__all__ = ["Error", "RunError", "Study", "Trial", "real", "integer", "run", "account", "modules", "info", "command"]


def real(lower, upper, log=False):
    """A real hyperparameter in [lower, upper], searched on a log scale when log=True."""
    return {"lower": float(lower), "upper": float(upper), "scale": "log" if log else "linear"}


def integer(lower, upper, log=False):
    """A whole-number hyperparameter in [lower, upper]."""
    return {"lower": float(lower), "upper": float(upper), "scale": "log" if log else "linear", "integer": True}


def command(*words):
    """Runs `dpbo WORDS...` in this process and returns what it printed (stdout); dpbo.Error or
    dpbo.RunError with dpbo's message when it fails."""
    status, out, err = _dpbo.command([str(w) for w in words])
    if status != 0:
        message = err.strip() or out.strip() or f"dpbo {' '.join(map(str, words))} exited with status {status}"
        raise (Error if status == 2 else RunError)(message)
    return out


def _json_command(*words):
    return json.loads(command(*words, "--json"))


def modules(kind=None):
    """The modules dpbo finds (dpbo list): a list of dicts with kind, name, version, summary, file."""
    words = ["list"] + (["--kind", kind] if kind else [])
    return _json_command(*words)["modules"]


def info(name, kind=None):
    """A module's description (dpbo info): its parameters with defaults, roles, privacy, ..."""
    words = ["info", name] + (["--kind", kind] if kind else [])
    return _json_command(*words)


def _option_words(options):
    """Keyword arguments as dpbo options: a_b=v → --a-b v, a list repeats the option, True is a switch."""
    words = []
    for key, value in options.items():
        if value is None or value is False:
            continue
        flag = "--" + key.replace("_", "-")
        if value is True:
            words.append(flag)
        elif isinstance(value, (list, tuple)):
            for item in value:
                words += [flag, str(item)]
        else:
            words += [flag, str(value)]
    return words


def account(*events, **options):
    """Composes privacy events (texts as `dpbo account --event` reads them) and states the result:
    dpbo.account("gaussian:sigma=2,sensitivity=1x100", delta=1e-6). Options are dpbo account's
    (accountant=, epsilon=, delta=, mu=, select=, compare=True, ...), lists for repeated ones."""
    words = ["account"]
    for event in events:
        words += ["--event", event]
    return _json_command(*(words + _option_words(options)))


def _dimension(name, given):
    if isinstance(given, dict):
        return {"name": name, **given}
    if isinstance(given, (tuple, list)) and len(given) == 2:
        return {"name": name, "lower": float(given[0]), "upper": float(given[1])}
    raise Error(f"space['{name}'] = {given!r}: expected (lower, upper), dpbo.real(...) or dpbo.integer(...)")


def _declaration(space, outputs, records, trials):
    """The objective's declaration, as a `command` program's handshake states it."""
    if not isinstance(space, dict) or not space:
        raise Error(f"space = {space!r}: expected a dict of hyperparameter names to ranges")
    if outputs is None:
        outputs = [{"name": "value", "sense": "minimise"}]
    elif isinstance(outputs, str):
        outputs = [{"name": outputs, "sense": "minimise"}]
    elif isinstance(outputs, dict):
        outputs = [{"name": name, "sense": sense} for name, sense in outputs.items()]
    spec = {"protocol": "dpbo-objective", "version": 1,
            "space": [_dimension(name, given) for name, given in space.items()], "outputs": outputs}
    if records is not None:
        spec["records"] = records
    if trials is not None:
        spec["trials"] = trials
    return spec


class Trial:
    """One point the algorithm asks for: its id, its hyperparameters by name (params) and as an array
    (point), whether it wants per-record values, and, once told, its state and values."""

    def __init__(self, record, names, per_record=False):
        self.id = record["id"]
        self.point = np.array(record["point"], dtype=float)
        self.params = dict(zip(names, self.point.tolist()))
        self.per_record = per_record
        self.state = record.get("state", "running")
        self.values = record.get("values")
        self.failure = record.get("failure")

    def __repr__(self):
        return f"Trial(id={self.id}, params={self.params}, state={self.state!r})"


class Study:
    """An ask/tell study: dpbo.Study(path) opens one, dpbo.Study.create(path, ...) makes one."""

    @classmethod
    def create(cls, path, *, algorithm, space=None, objective=None, outputs=None, records=None, trials=None,
               seed=None, settings=None, roles=None, budget=None, ledger=None, config=None):
        """Creates the study file `path` (refused if it exists) for `algorithm` over `space` (a dict of
        names to ranges; `outputs`, `records` and `trials` as the objective declares them) or over a
        built-in `objective`. `settings` are dpbo's --set keys ({"algorithm.budget": 30}), `roles` its
        --ROLE modules ({"acquisition": "ei"}); `seed`, `budget`, `ledger` and `config` as for dpbo run."""
        words = ["study", "create", os.fspath(path), "--algorithm", algorithm]
        for role, module in (roles or {}).items():
            words += [f"--{role}", module]
        for key, value in (settings or {}).items():
            words += ["--set", f"{key}={value}"]
        words += _option_words({"seed": seed, "budget": budget,
                                "ledger": None if ledger is None else os.fspath(ledger),
                                "config": None if config is None else os.fspath(config)})
        if objective is not None:
            if space is not None:
                raise Error(f"objective={objective!r} with space: give one (space declares the objective)")
            _json_command(*(words + ["--objective", objective]))
            return cls(path)
        if space is None:
            raise Error("Study.create needs space= (your objective's hyperparameters) or objective= (a built-in)")
        folder = tempfile.mkdtemp(prefix="dpbo-space-")
        try:
            spec_file = os.path.join(folder, "space.json")
            with open(spec_file, "w") as out:
                json.dump(_declaration(space, outputs, records, trials), out)
            _json_command(*(words + ["--space", spec_file]))
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        return cls(path)

    def __init__(self, path):
        self._study = _dpbo.OpenStudy(os.fspath(path))
        described = json.loads(self._study.describe())
        self.path = described["file"]
        self.job = described["job"]
        self.names = described["names"]
        self.outputs = described["outputs"]
        self.records = described["records"]
        self.lifetime_ledger = described.get("lifetime_ledger")
        self._state = None

    def extend(self, settings=None, budget=None):
        """More budget for the study, finished or not: settings are algorithm keys ({"algorithm.budget":
        60}), budget a larger privacy budget. It goes on in the same file; what was told and released is
        replayed, not charged again. dpbo.Error, changing nothing, when the algorithm's earlier steps
        depend on the setting (DP-GIBO's noise on its iterations)."""
        algorithm = {}
        for key, value in (settings or {}).items():
            if not key.startswith("algorithm."):
                raise Error(f"settings['{key}']: a study is extended through algorithm.KEY settings and budget=")
            algorithm[key[len("algorithm."):]] = str(value).lower() if isinstance(value, bool) else str(value)
        self._state = json.loads(self._study.extend(algorithm, None if budget is None else str(budget)))
        self.job = json.loads(self._study.describe())["job"]

    def close(self):
        """Ends the study's kept run and closes the file (the file keeps everything told)."""
        self._study.close()

    def __enter__(self):
        return self

    def __exit__(self, *exception):
        self.close()
        return False

    def __repr__(self):
        return f"dpbo.Study({self.path!r}: {self.job['algorithm']['name']} over {', '.join(self.names)})"

    def ask(self):
        """The next trial, or None when the study has finished or every trial of the batch the
        algorithm waits for is out with other clients (see waiting_for)."""
        trials = self.ask_batch(1)
        return trials[0] if trials else None

    def ask_batch(self, count):
        """Up to `count` trials of the batch the algorithm waits for."""
        self._state = json.loads(self._study.ask(int(count)))
        return [Trial(t, self.names, self._state["per_record"]) for t in self._state["trials"]]

    def tell(self, trial, value=None, *, values=None, per_record=None, outputs=None, failed=None, events=None):
        """Tells a trial's result: value= (one output), values= (one per output), per_record= (a numpy
        array of the per-record values, when the trial asks for them; with one output and no value,
        the value is their mean), outputs= ({name: value}, outputs and auxiliary outputs by name),
        events= (what a trial that is a private learner spent, as texts), or failed= (a reason, or
        True): the trial's point is then asked again as a new trial, whose id is returned."""
        trial_id = trial.id if isinstance(trial, Trial) else int(trial)
        if failed is not None and failed is not False:
            if any(v is not None for v in (value, values, per_record, outputs, events)):
                raise Error(f"trial {trial_id}: failed= takes no values")
            return self._study.fail(trial_id, "" if failed is True else str(failed))
        if value is not None and values is not None:
            raise Error(f"trial {trial_id}: give value= or values=, not both")
        told = [float(value)] if value is not None else [float(v) for v in (values or [])]
        records = None if per_record is None else np.asarray(per_record, dtype=float)
        self._study.tell(trial_id, told, records, {k: float(v) for k, v in (outputs or {}).items()},
                         list(events or []))
        return None

    def _show(self):
        self._state = json.loads(self._study.show())
        return self._state

    @property
    def finished(self):
        return self._show()["finished"]

    @property
    def waiting_for(self):
        """Ids of trials handed out whose values the algorithm waits for."""
        return (self._state or self._show())["waiting_for"]

    @property
    def result(self):
        """Once finished: what the run released, its privacy statement, the evaluation-only values
        (as result.json holds them); None before."""
        return self._show().get("result")

    @property
    def best(self):
        """The released result once the study has finished: {name: value} of what the algorithm
        published (the best point by name under "params" when it released one). None before: nothing
        is released until the algorithm says so. See best_told for the clients' own best value."""
        result = self.result
        if not result or result.get("status") != "complete":
            return None
        return _released(result["released"], self.names)

    @property
    def best_told(self):
        """The best value a client told (first output's sense): computed from the data, not released
        — evaluation only."""
        if len(self.outputs) != 1:
            return None
        done = [t for t in self.trials if t.state == "done"]
        if not done:
            return None
        pick = min if self.outputs[0]["sense"] == "minimise" else max
        best = pick(done, key=lambda t: t.values[0])
        return {"trial": best.id, "params": best.params, "value": best.values[0], "evaluation_only": True}

    @property
    def trials(self):
        return [Trial(t, self.names) for t in json.loads(self._study.trials())]

    @property
    def privacy(self):
        """The privacy spent so far (the ledger's composition of every release), the run's statement
        once finished, and the lifetime ledger the study charges."""
        state = self._show()
        result = state.get("result") or {}
        return {"spent": state["privacy_spent"], "releases": state["releases"],
                "statement": result.get("privacy"), "lifetime_ledger": self.lifetime_ledger}


def _released(released, names):
    """The released values by name; a released point of the space's dimension also by parameter name."""
    out = {name: entry["value"] for name, entry in released.items()}
    for name, entry in released.items():
        value = entry["value"]
        if isinstance(value, list) and len(value) == len(names) and all(isinstance(v, (int, float)) for v in value):
            out["params"] = dict(zip(names, value))
            out["params_release"] = name
            break
    return out


def run(objective, *, space, algorithm, outputs=None, records=None, trials=None, seed=None, settings=None,
        roles=None, budget=None, ledger=None, vectorised=False, study=None):
    """Tunes `objective` (a Python function) with `algorithm` and returns the study's result: what was
    released, the privacy statement, the evaluation-only values.

    objective(params) gets a dict of hyperparameter values and returns the value (a float; several
    outputs: a sequence), or, when the algorithm asks for per-record values (records= declared,
    dp-gibo), a numpy array of the n per-record values; or a dict of Study.tell's keywords (value=,
    per_record=, outputs=, events= — a trial that is a private learner says what it spent).
    vectorised=True calls it once per batch with a dict of arrays (one entry per trial) and takes an
    array of values (or a b × n array, or a list of such dicts).
    `study` keeps the study in that file (resumed when it exists); otherwise a temporary one is used
    and removed — unless the objective raises: the study is then kept, its path in the error's note,
    and the trials it had not told are asked again when it resumes. The other arguments are
    Study.create's."""
    folder = None
    if study is None:
        folder = tempfile.mkdtemp(prefix="dpbo-run-")
        study = os.path.join(folder, "study.db")
    try:
        if os.path.exists(study):
            tuning = Study(study)
        else:
            tuning = Study.create(study, algorithm=algorithm, space=space, outputs=outputs, records=records,
                                  trials=trials, seed=seed, settings=settings, roles=roles, budget=budget,
                                  ledger=ledger)
        with tuning:
            while True:
                asked = tuning.ask_batch(1 << 20)
                if not asked:
                    if tuning.finished:
                        return tuning.result
                    raise RunError(f"study '{tuning.path}' waits for trials {tuning.waiting_for}, which other clients "
                                   "hold")
                try:
                    _evaluate(objective, tuning, asked, vectorised)
                except BaseException as error:
                    _keep_for_resuming(tuning, asked, error)
                    folder = None  # what was told stays: the note says where
                    raise
    finally:
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)


def _keep_for_resuming(tuning, asked, error):
    """The objective raised: the batch's trials not told are reported failed (asked again when the
    study resumes), and the error says where the study is kept."""
    asked_ids = {trial.id for trial in asked}
    for trial in tuning.trials:
        if trial.id in asked_ids and trial.state == "running":
            tuning.tell(trial, failed=f"the objective raised {type(error).__name__}: {error}")
    error.add_note(f"dpbo: the study so far is kept in '{tuning.path}'; dpbo.run(..., study='{tuning.path}') "
                   "resumes it (the trials not told are asked again)")


def _evaluate(objective, tuning, trials, vectorised):
    if vectorised:
        batch = {name: np.array([t.params[name] for t in trials]) for name in tuning.names}
        answers = objective(batch)
        answers = answers if isinstance(answers, list) else list(np.asarray(answers, dtype=float))
        if len(answers) != len(trials):
            raise Error(f"the vectorised objective returned {len(answers)} rows for {len(trials)} trials")
    else:
        answers = [objective(dict(t.params)) for t in trials]
    for trial, answer in zip(trials, answers):
        if isinstance(answer, dict):
            tuning.tell(trial, **answer)
        elif trial.per_record:
            tuning.tell(trial, per_record=np.asarray(answer, dtype=float))
        elif np.ndim(answer) == 0:
            tuning.tell(trial, value=float(answer))
        else:
            tuning.tell(trial, values=[float(v) for v in np.ravel(answer)])
