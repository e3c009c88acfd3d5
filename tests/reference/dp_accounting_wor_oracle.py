#!/usr/bin/env python3
"""Reference values for the rdp accountant's fixed-size-without-replacement event (replace-one neighbours):
what Google's dp_accounting RDP accountant reports for SampledWithoutReplacementDpEvent(n, m, Gaussian(σ))
composed `steps` times under NeighboringRelation.REPLACE_ONE, at its default orders and conversion
(github.com/google/differential-privacy, python/dp_accounting, commit b5b0286e313b64a692abfc8c528d54ef47d960a0;
Debian's python3-numpy, -scipy, -attr, -mpmath, -absl).

  PYTHONPATH=/path/to/differential-privacy/python/dp_accounting \
    python3 tests/reference/dp_accounting_wor_oracle.py > tests/reference/dp_accounting_wor.txt

prints the whole file: one row per setting below, with the event as `dpbo account --event` takes it
(q written as the double nearest m/n, exactly as Python divides), δ, and dp_accounting's ε and the
order that attained it, to 17 significant digits (the unit test compares to 1e-9 relative)."""
from dp_accounting import dp_event as E
from dp_accounting import privacy_accountant as P
from dp_accounting.rdp import rdp_privacy_accountant as R

# (name, n, m, sigma, steps, delta). The first seven are the settings where dpbo's Theorem 9 route was
# looser than dp_accounting; the rest cover what those do not: q near and at 1, one step, tiny and
# large q, small and large σ, a small δ.
SETTINGS = [
    ('issue-cifar-sigma4', 100000, 1000, 4.0, 10000, 1e-5),
    ('issue-cifar-sigma2', 100000, 1000, 2.0, 10000, 1e-5),
    ('issue-small-n', 400, 100, 5.0, 400, 1e-5),
    ('issue-full-batch', 1000, 1000, 10.0, 100, 1e-5),
    ('issue-sigma1.5-delta1e-6', 20000, 1000, 1.5, 2000, 1e-6),
    ('issue-one-record-batches', 250, 1, 0.6, 10000, 1e-5),
    ('issue-tiny-q', 10000, 10, 1.0, 100000, 1e-6),
    ('mnist-sigma1.1', 60000, 256, 1.1, 14063, 1e-5),
    ('adult-sigma1.5', 32561, 256, 1.5, 1272, 1e-5),
    ('q0.01-sigma0.8', 50000, 500, 0.8, 5000, 1e-5),
    ('q0.01-sigma2-short', 1000, 10, 2.0, 1000, 1e-5),
    ('q0.001-sigma8', 100000, 100, 8.0, 100000, 1e-6),
    ('q0.5-sigma3', 5000, 2500, 3.0, 50, 1e-5),
    ('q0.99-sigma20', 100, 99, 20.0, 10, 1e-5),
    ('q1e-6-sigma1', 1000000, 1, 1.0, 1000, 1e-7),
    ('q0.1-sigma0.7', 2000, 200, 0.7, 100, 1e-5),
    ('full-batch-one-step', 500, 500, 2.0, 1, 1e-5),
]

print('# case\tevent (dpbo account --event)\tdelta\tdp_accounting epsilon\tdp_accounting order')
for name, n, m, sigma, steps, delta in SETTINGS:
    accountant = R.RdpAccountant(neighboring_relation=P.NeighboringRelation.REPLACE_ONE)
    accountant.compose(E.SampledWithoutReplacementDpEvent(n, m, E.GaussianDpEvent(sigma)), steps)
    epsilon, order = accountant.get_epsilon_and_optimal_order(delta)
    event = f'subsampled-gaussian:q={m / n!r},sigma={sigma!r},steps={steps},sampling=without-replacement'
    print(f'{name}\t{event}\t{delta!r}\t{epsilon:.17g}\t{order!r}')
