#!/usr/bin/python3
"""kh_linear_theory: the linear growth rate of the McNally et al. (2012)
Kelvin-Helmholtz problem, from the compressible Euler equations linearised
about its smooth initial profile: an independent number for the growth rate
that apps/verify_kh.py fits to cfdrun's M(t).

The base state on the periodic [0,1] in y is McNally's (eq. 1-4): density
rho0(y) and velocity U(y) smoothed over L = 0.025, pressure P0 = 2.5, no vy.
A perturbation q'(y) exp(i k x + s t) of (rho, vx, vy, p) obeys

  s rho' = -i k U rho' - rho0_y vy' - rho0 (i k vx' + vy'_y)
  s vx'  = -i k U vx'  - U_y vy'   - i k p' / rho0
  s vy'  = -i k U vy'  - p'_y / rho0
  s p'   = -i k U p'   - gamma P0 (i k vx' + vy'_y)

discretised in y with the periodic Fourier differentiation matrix; the
growth rate is the largest real part of s over the eigenvalues that converge
with the grid. k = 4 pi (two wavelengths in the box, the seeded mode).

usage: apps/kh_linear_theory.py [--points 256,384,512] [--gamma 1.6667]
"""
import argparse
import sys

try:
    import numpy as np
except ImportError as e:  # a clean message, not a traceback (ctest runs it through tests/needs.sh)
    sys.exit(f"kh_linear_theory: {e}: it needs numpy (Debian: python3-numpy)")


def profile(y, L=0.025):
    rho1, rho2, u1, u2 = 1.0, 2.0, 0.5, -0.5
    rm, um = (rho1 - rho2) / 2, (u1 - u2) / 2
    rho, u = np.empty_like(y), np.empty_like(y)
    for k, v in enumerate(y):
        if v < 0.25:
            e = np.exp((v - 0.25) / L)
            rho[k], u[k] = rho1 - rm * e, u1 - um * e
        elif v < 0.5:
            e = np.exp((0.25 - v) / L)
            rho[k], u[k] = rho2 + rm * e, u2 + um * e
        elif v < 0.75:
            e = np.exp((v - 0.75) / L)
            rho[k], u[k] = rho2 + rm * e, u2 + um * e
        else:
            e = np.exp((0.75 - v) / L)
            rho[k], u[k] = rho1 - rm * e, u1 - um * e
    return rho, u


def fourier_derivative(n):
    """Periodic spectral first derivative on n points of [0, 1) (n even)."""
    h = 2 * np.pi / n
    d = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            if i != j:
                d[i, j] = 0.5 * (-1) ** (i - j) / np.tan((i - j) * h / 2)
    return d * 2 * np.pi  # from [0, 2 pi) to [0, 1)


def growth_rate(n, gamma, p0=2.5, k=4 * np.pi):
    y = (np.arange(n) + 0.5) / n
    rho, u = profile(y)
    d = fourier_derivative(n)
    rho_y, u_y = d @ rho, d @ u
    i = 1j
    Z, I = np.zeros((n, n)), np.eye(n)
    U, R, Ry, Uy = np.diag(u), np.diag(rho), np.diag(rho_y), np.diag(u_y)
    Rinv = np.diag(1 / rho)
    A = np.block([
        [-i * k * U, -i * k * R, -Ry - R @ d, Z],
        [Z, -i * k * U, -Uy, -i * k * Rinv],
        [Z, Z, -i * k * U, -Rinv @ d],
        [Z, -i * k * gamma * p0 * I, -gamma * p0 * d, -i * k * U],
    ])
    s = np.linalg.eigvals(A)
    return np.max(s.real)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--points", default="256,384,512")
    ap.add_argument("--gamma", type=float, default=5.0 / 3.0)
    a = ap.parse_args()
    rates = []
    for n in [int(v) for v in a.points.split(",")]:
        rates.append(growth_rate(n, a.gamma))
        print(f"{n:5d} points in y: growth rate {rates[-1]:.5f}")
    if len(rates) > 1:
        print(f"change over the last refinement: {abs(rates[-1] - rates[-2]):.2e}")


if __name__ == "__main__":
    main()
