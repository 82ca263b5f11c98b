//! Special functions, computed in f64: Γ, ln Γ, erf and erfc (Rust's
//! standard library has none of them).

/// ln Γ(x) for x ≥ 10 by Stirling's series.
fn lgamma_stirling(x: f64) -> f64 {
    let inv = 1.0 / x;
    let inv2 = inv * inv;
    // Bernoulli terms B_2k / (2k (2k-1) x^(2k-1)).
    let series = inv
        * (1.0 / 12.0
            + inv2
                * (-1.0 / 360.0
                    + inv2
                        * (1.0 / 1260.0
                            + inv2
                                * (-1.0 / 1680.0
                                    + inv2 * (1.0 / 1188.0 + inv2 * (-691.0 / 360_360.0 + inv2 / 156.0))))));
    (x - 0.5) * x.ln() - x + 0.5 * (2.0 * std::f64::consts::PI).ln() + series
}

/// sin(πx), exact at integers.
fn sin_pi(x: f64) -> f64 {
    let r = x - 2.0 * (x / 2.0).floor(); // in [0, 2)
    if r == 0.0 || r == 1.0 {
        return 0.0;
    }
    (std::f64::consts::PI * r).sin()
}

pub fn lgamma(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x.is_infinite() {
        return f64::INFINITY;
    }
    if x <= 0.0 && x == x.floor() {
        return f64::INFINITY;
    }
    if x == x.floor() && x <= 171.0 {
        // ln of an exact factorial (exactly 0 at 1 and 2).
        return gamma(x).ln();
    }
    if x < 0.5 {
        // Reflection: Γ(x) Γ(1-x) = π / sin(πx).
        return (std::f64::consts::PI / sin_pi(x).abs()).ln() - lgamma(1.0 - x);
    }
    if x >= 10.0 {
        return lgamma_stirling(x);
    }
    // Shift up: Γ(x) = Γ(x + k) / (x (x+1) ... (x+k-1)).
    let mut prod = 1.0;
    let mut y = x;
    while y < 10.0 {
        prod *= y;
        y += 1.0;
    }
    lgamma_stirling(y) - prod.ln()
}

pub fn gamma(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x == 0.0 {
        return if x.is_sign_negative() {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
    }
    if x == f64::INFINITY {
        return x;
    }
    if x < 0.0 && x == x.floor() {
        return f64::NAN;
    }
    if x == x.floor() && x <= 171.0 {
        // Exact factorials.
        let mut acc = 1.0;
        let mut k = 2.0;
        while k < x {
            acc *= k;
            k += 1.0;
        }
        return acc;
    }
    if x < 0.5 {
        return std::f64::consts::PI / (sin_pi(x) * gamma(1.0 - x));
    }
    if x > 171.7 {
        return f64::INFINITY;
    }
    let mut prod = 1.0;
    let mut y = x;
    while y < 10.0 {
        prod *= y;
        y += 1.0;
    }
    lgamma_stirling(y).exp() / prod
}

const FRAC_2_SQRT_PI: f64 = std::f64::consts::FRAC_2_SQRT_PI;

/// erf(x) for |x| < 1.5 by the series 2/√π e^(-x²) Σ 2ⁿ x^(2n+1) / (1·3···(2n+1)),
/// whose terms are all positive.
fn erf_series(x: f64) -> f64 {
    let x2 = x * x;
    let mut term = x;
    let mut sum = x;
    let mut n = 0.0;
    loop {
        n += 1.0;
        term *= 2.0 * x2 / (2.0 * n + 1.0);
        sum += term;
        if term.abs() <= sum.abs() * 1e-17 || n > 200.0 {
            break;
        }
    }
    FRAC_2_SQRT_PI * (-x2).exp() * sum
}

/// erfc(x) for x ≥ 1.5 by the continued fraction
/// e^(-x²)/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + ...)))).
fn erfc_cf(x: f64) -> f64 {
    let mut f = x;
    let mut k = 120.0;
    while k >= 1.0 {
        f = x + (k / 2.0) / f;
        k -= 1.0;
    }
    (-x * x).exp() / (f * std::f64::consts::PI.sqrt())
}

pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    let a = x.abs();
    let r = if a < 1.5 { erf_series(a) } else { 1.0 - erfc_cf(a) };
    if x < 0.0 {
        -r
    } else {
        r
    }
}

pub fn erfc(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    let a = x.abs();
    let r = if a < 1.5 { 1.0 - erf_series(a) } else { erfc_cf(a) };
    if x < 0.0 {
        2.0 - r
    } else {
        r
    }
}
