#!/usr/bin/env python3
"""Recomputes the two dp_accounting columns of tests/reference/dp_accounting_pld.txt with Google's
dp_accounting itself (github.com/google/differential-privacy, python/dp_accounting, commit
b5b0286e313b64a692abfc8c528d54ef47d960a0; Debian's python3-numpy, -scipy, -attr, -mpmath, -absl):

  PYTHONPATH=/path/to/differential-privacy/python/dp_accounting \\
    python3 tests/reference/dp_accounting_pld_oracle.py tests/reference/dp_accounting_pld.txt

prints the file with those columns replaced (the other columns as they are).

"dp_accounting upper" is its PLDAccountant at the default grid (1e-4, pessimistic estimate,
connect the dots); "dp_accounting lower" the same distributions built with
pessimistic_estimate=False (privacy buckets, losses rounded down), as PLDAccountant would compose
them. A row's events compose in order; the query is the epsilon at a delta or the delta at an
epsilon. Fixed-size sampling without replacement under replace-one neighbours is evaluated on the
dominating pair dpbo uses (Zhu, Dong & Wang 2022): the Poisson add/remove pair at q = m/n with the
replace-one sensitivity, which dp_accounting computes as a PoissonSampledDpEvent."""
import math
import sys

from dp_accounting import dp_event as E
from dp_accounting.pld import pld_privacy_accountant as A
from dp_accounting.pld import privacy_loss_distribution as P


def fields(text):
    kind, _, rest = text.partition(':')
    repeats = 1
    if 'x' in rest.rsplit(',', 1)[-1]:
        rest, _, repeats = rest.rpartition('x')
        repeats = int(repeats)
    return kind, dict(kv.split('=') for kv in rest.split(',')), repeats


def upper_event(text):
    kind, p, repeats = fields(text)
    if kind == 'subsampled-gaussian':
        event = E.PoissonSampledDpEvent(float(p['q']), E.GaussianDpEvent(float(p['sigma'])))
        return E.SelfComposedDpEvent(event, int(p['steps']) * repeats)
    if kind == 'gaussian':
        return E.SelfComposedDpEvent(E.GaussianDpEvent(float(p['sigma']) / float(p['sensitivity'])), repeats)
    if kind == 'laplace':
        return E.SelfComposedDpEvent(E.LaplaceDpEvent(float(p['scale']) / float(p['sensitivity'])), repeats)
    raise ValueError(text)


def lower_pld(text):
    # The constructions PLDAccountant uses for these events, with pessimistic_estimate=False.
    kind, p, repeats = fields(text)
    if kind == 'subsampled-gaussian':
        return P.from_gaussian_mechanism(float(p['sigma']), sampling_prob=float(p['q']),
                                         pessimistic_estimate=False).self_compose(int(p['steps']) * repeats)
    if kind == 'gaussian':
        sigma = float(p['sigma']) / float(p['sensitivity'])
        return P.from_gaussian_mechanism(sigma / math.sqrt(repeats), pessimistic_estimate=False)
    if kind == 'laplace':
        return P.from_laplace_mechanism(float(p['scale']) / float(p['sensitivity']),
                                        pessimistic_estimate=False).self_compose(repeats)
    raise ValueError(text)


def answer(query, upper, lower):
    name, _, value = query.partition('=')
    if name == 'delta':
        return upper.get_epsilon(float(value)), lower.get_epsilon_for_delta(float(value))
    return upper.get_delta(float(value)), lower.get_delta_for_epsilon(float(value))


for line in open(sys.argv[1]):
    if line.startswith('#'):
        print(line, end='')
        continue
    f = line.rstrip('\n').split('\t')
    upper = A.PLDAccountant()
    lower = None
    for text in f[1].split(';'):
        upper.compose(upper_event(text))
        one = lower_pld(text)
        lower = one if lower is None else lower.compose(one)
    high, low = answer(f[2], upper, lower)
    f[3], f[4] = f'{high:.9g}', f'{low:.9g}'
    print('\t'.join(f))
