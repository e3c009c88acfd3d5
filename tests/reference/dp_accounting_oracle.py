#!/usr/bin/env python3
"""Recomputes the "dp_accounting epsilon" column of tests/reference/dp_accounting_repeat_and_select.txt
with Google's dp_accounting itself (github.com/google/differential-privacy, python/dp_accounting, commit
b5b0286e313b64a692abfc8c528d54ef47d960a0; Debian's python3-numpy, -scipy, -attr, -mpmath, -absl).

  PYTHONPATH=/path/to/differential-privacy/python/dp_accounting \
    python3 tests/reference/dp_accounting_oracle.py tests/reference/dp_accounting_repeat_and_select.txt

prints the file with that column replaced (the other columns as they are)."""
import math
import sys

from dp_accounting import dp_event as E
from dp_accounting.rdp import rdp_privacy_accountant as R


def trial_event(text):
    kind, _, rest = text.partition(':')
    p = dict(kv.split('=') for kv in rest.split(','))
    if kind == 'subsampled-gaussian':
        assert p.get('sampling', 'poisson') == 'poisson'
        return E.SelfComposedDpEvent(E.PoissonSampledDpEvent(float(p['q']), E.GaussianDpEvent(float(p['sigma']))),
                                     int(p['steps']))
    if kind == 'laplace':
        return E.LaplaceDpEvent(float(p['scale']) / float(p['sensitivity']))
    if kind == 'gaussian':
        return E.GaussianDpEvent(float(p['sigma']) / float(p['sensitivity']))
    raise ValueError(text)


def selected(trial, text):
    kind, _, rest = text.partition(':')
    p = dict(kv.split('=') for kv in rest.split(','))
    if kind == 'fixed':
        k = int(p['k'])
        return trial if k == 1 else E.SelfComposedDpEvent(trial, k)
    shape = {'logarithmic': 0.0, 'geometric': 1.0, 'poisson': math.inf}.get(kind)
    if kind == 'negative-binomial':
        shape = float(p['eta'])
    return E.RepeatAndSelectDpEvent(trial, float(p['mean']), shape)


for line in open(sys.argv[1]):
    if line.startswith('#'):
        print(line, end='')
        continue
    f = line.rstrip('\n').split('\t')
    accountant = R.RdpAccountant()
    accountant.compose(selected(trial_event(f[1]), f[2]))
    f[4] = f'{accountant.get_epsilon(float(f[3])):.6f}'
    print('\t'.join(f))
