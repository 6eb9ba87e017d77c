//! The transcendental functions of `Math` (`Op::Math`) on concrete values.

use crate::func::MathFn;

/// The value of `f` on `args` (the platform's library; Java's may differ in the last place).
pub fn eval(f: MathFn, args: &[f64]) -> f64 {
    use MathFn::*;
    let x = args.first().copied().unwrap_or(f64::NAN);
    let y = args.get(1).copied().unwrap_or(f64::NAN);
    match f {
        Sin => x.sin(),
        Cos => x.cos(),
        Tan => x.tan(),
        Asin => x.asin(),
        Acos => x.acos(),
        Atan => x.atan(),
        Atan2 => x.atan2(y),
        Sinh => x.sinh(),
        Cosh => x.cosh(),
        Tanh => x.tanh(),
        Exp => x.exp(),
        Expm1 => x.exp_m1(),
        Log => x.ln(),
        Log10 => x.log10(),
        Log1p => x.ln_1p(),
        Pow => java_pow(x, y),
        Cbrt => x.cbrt(),
        Hypot => x.hypot(y),
    }
}

/// `Math.pow` as Java defines it where it differs from C's `pow`: a NaN exponent gives NaN, and
/// `pow(±1, ±∞)` is NaN.
fn java_pow(x: f64, y: f64) -> f64 {
    if y.is_nan() || (x.abs() == 1.0 && y.is_infinite()) {
        f64::NAN
    } else {
        x.powf(y)
    }
}
