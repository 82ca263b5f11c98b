//! IEEE 754 half precision (binary16), held as its bits in a `u16`:
//! 1 sign bit, 5 exponent bits (bias 15), 10 fraction bits.
//!
//! Widening to `f32` is exact. Narrowing rounds to nearest, ties to even,
//! gives subnormals below 2^-14, ±0 below half the smallest subnormal,
//! ±inf from 65520 up (the first value that rounds past 65504, the largest
//! finite half), and keeps a NaN a NaN (quiet, with the top payload bits).

const SIGN: u16 = 0x8000;
const EXP_MASK: u16 = 0x7c00;
const FRAC_MASK: u16 = 0x03ff;
const QUIET: u16 = 0x0200;

/// The `f32` with the value of the half `h` (exact).
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = ((h & SIGN) as u32) << 16;
    let exp = (h & EXP_MASK) >> 10;
    let frac = (h & FRAC_MASK) as u32;
    match exp {
        0 => {
            // Zero or subnormal: frac * 2^-24, exact in f32.
            let mag = frac as f32 * f32::from_bits(0x3380_0000); // 2^-24
            f32::from_bits(mag.to_bits() | sign)
        }
        0x1f => f32::from_bits(sign | 0x7f80_0000 | (frac << 13)),
        _ => f32::from_bits(sign | ((exp as u32 + 127 - 15) << 23) | (frac << 13)),
    }
}

/// The `f64` with the value of the half `h` (exact).
pub fn f16_to_f64(h: u16) -> f64 {
    f16_to_f32(h) as f64
}

/// `x` rounded to the nearest half. Widening `f32` to `f64` is exact, so this
/// rounds once.
pub fn f32_to_f16(x: f32) -> u16 {
    f64_to_f16(x as f64)
}

/// `x` rounded to the nearest half (ties to even).
pub fn f64_to_f16(x: f64) -> u16 {
    let bits = x.to_bits();
    let sign = ((bits >> 48) as u16) & SIGN;
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    if exp == 0x7ff {
        if frac == 0 {
            return sign | EXP_MASK;
        }
        // NaN: keep the top payload bits, force quiet so it stays a NaN.
        return sign | EXP_MASK | QUIET | ((frac >> 42) as u16 & FRAC_MASK);
    }
    if exp == 0 {
        // Zero or an f64 subnormal (< 2^-1022): far below half of 2^-24.
        return sign;
    }
    let e = exp - 1023; // x = 1.frac * 2^e
    let sig = (1u64 << 52) | frac; // x = sig * 2^(e-52)
    if e >= 16 {
        return sign | EXP_MASK;
    }
    if e >= -14 {
        // Normal range: keep 10 fraction bits. A carry out of the fraction
        // bumps the exponent, and from 0x7bff that is exactly inf.
        let kept = (((e + 15) as u64) << 10) | ((frac >> 42) & 0x3ff);
        let rounded = round_shifted(kept, frac & ((1u64 << 42) - 1), 42);
        return sign | rounded.min(EXP_MASK as u64) as u16;
    }
    // Subnormal: the result is k * 2^-24 with k = sig * 2^(e-52+24).
    let shift = (28 - e) as u32; // >= 43
    if shift >= 64 {
        // sig < 2^53 <= half of 2^shift: rounds to zero.
        return sign;
    }
    let kept = sig >> shift;
    let rounded = round_shifted(kept, sig & ((1u64 << shift) - 1), shift);
    // k may round up to 0x400, which encodes the smallest normal: right.
    sign | rounded as u16
}

/// `kept` plus one if the dropped low `shift` bits `rest` are more than half,
/// or exactly half and `kept` is odd.
fn round_shifted(kept: u64, rest: u64, shift: u32) -> u64 {
    let half = 1u64 << (shift - 1);
    if rest > half || (rest == half && kept & 1 == 1) {
        kept + 1
    } else {
        kept
    }
}

pub fn is_nan(h: u16) -> bool {
    h & EXP_MASK == EXP_MASK && h & FRAC_MASK != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        assert_eq!(f32_to_f16(0.0), 0x0000);
        assert_eq!(f32_to_f16(-0.0), 0x8000);
        assert_eq!(f32_to_f16(1.0), 0x3c00);
        assert_eq!(f32_to_f16(-2.0), 0xc000);
        assert_eq!(f32_to_f16(0.5), 0x3800);
        assert_eq!(f32_to_f16(65504.0), 0x7bff);
        assert_eq!(f32_to_f16(0.1), 0x2e66);
        assert_eq!(f32_to_f16(1.0 / 3.0), 0x3555);
        assert_eq!(f32_to_f16(f32::INFINITY), 0x7c00);
        assert_eq!(f32_to_f16(f32::NEG_INFINITY), 0xfc00);
        assert_eq!(f16_to_f32(0x3c00), 1.0);
        assert_eq!(f16_to_f32(0x7bff), 65504.0);
        assert_eq!(f16_to_f32(0x0001), 2f32.powi(-24));
        assert_eq!(f16_to_f32(0x03ff), 1023.0 * 2f32.powi(-24));
        assert_eq!(f16_to_f32(0x0400), 2f32.powi(-14));
        assert_eq!(f16_to_f32(0x7c00), f32::INFINITY);
        assert_eq!(f16_to_f32(0xfc00), f32::NEG_INFINITY);
        assert!(f16_to_f32(0x8000).is_sign_negative() && f16_to_f32(0x8000) == 0.0);
    }

    #[test]
    fn overflow_rounds_to_inf_at_65520() {
        assert_eq!(f32_to_f16(65519.99), 0x7bff);
        assert_eq!(f32_to_f16(65520.0), 0x7c00); // tie, 0x7bff is odd: up to inf
        assert_eq!(f32_to_f16(65536.0), 0x7c00);
        assert_eq!(f64_to_f16(1e300), 0x7c00);
        assert_eq!(f64_to_f16(-1e300), 0xfc00);
    }

    #[test]
    fn subnormals_and_underflow() {
        let tiny = 2f64.powi(-24);
        assert_eq!(f64_to_f16(tiny), 0x0001);
        assert_eq!(f64_to_f16(tiny / 2.0), 0x0000); // tie to even (0)
        assert_eq!(f64_to_f16(tiny * 1.5), 0x0002); // tie to even (2)
        assert_eq!(f64_to_f16(tiny * 2.5), 0x0002); // tie to even (2)
        assert_eq!(f64_to_f16(tiny * 0.75), 0x0001);
        assert_eq!(f64_to_f16(tiny * 0.25), 0x0000);
        assert_eq!(f64_to_f16(-tiny * 0.25), 0x8000);
        assert_eq!(f64_to_f16(1e-300), 0x0000);
        assert_eq!(f64_to_f16(f64::MIN_POSITIVE / 4.0), 0x0000); // f64 subnormal
                                                                 // Largest subnormal rounding up to the smallest normal.
        assert_eq!(f64_to_f16(1023.75 * tiny), 0x0400);
        assert_eq!(f64_to_f16(1023.25 * tiny), 0x03ff);
    }

    #[test]
    fn normal_rounding_ties_to_even() {
        // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: even is 1.
        assert_eq!(f64_to_f16(1.0 + 2f64.powi(-11)), 0x3c00);
        // 1 + 3 * 2^-11 is halfway between 0x3c01 and 0x3c02: even is 0x3c02.
        assert_eq!(f64_to_f16(1.0 + 3.0 * 2f64.powi(-11)), 0x3c02);
        assert_eq!(f64_to_f16(1.0 + 2f64.powi(-11) + 2f64.powi(-40)), 0x3c01);
    }

    #[test]
    fn nan_stays_nan() {
        assert!(is_nan(f32_to_f16(f32::NAN)));
        assert!(is_nan(f32_to_f16(-f32::NAN)));
        assert_eq!(f32_to_f16(-f32::NAN) & SIGN, SIGN);
        // A signalling NaN whose payload is only in low bits still is a NaN.
        assert!(is_nan(f64_to_f16(f64::from_bits(0x7ff0_0000_0000_0001))));
        assert!(f16_to_f32(0x7e00).is_nan());
        assert!(f16_to_f32(0x7c01).is_nan());
        assert!(!is_nan(0x7c00));
    }

    #[test]
    fn every_half_round_trips() {
        for h in 0..=u16::MAX {
            let f = f16_to_f32(h);
            if is_nan(h) {
                assert!(f.is_nan(), "{h:#x}");
                assert!(is_nan(f32_to_f16(f)), "{h:#x}");
            } else {
                assert_eq!(f32_to_f16(f), h, "{h:#x} -> {f}");
                assert_eq!(f64_to_f16(f as f64), h, "{h:#x} -> {f}");
            }
        }
    }

    /// Against a brute-force reference: the result is a nearest half, and on a
    /// tie the even one.
    #[test]
    fn nearest_half_for_many_floats() {
        let mut state = 0x1234_5678_9abc_def0u64;
        for i in 0..200_000u32 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            // Mostly the range of halves, some far outside.
            let bits = if i % 4 == 0 {
                state as u32
            } else {
                let exp = 100 + (state >> 40) as u32 % 50; // 2^-27 .. 2^22
                ((state as u32) & 0x807f_ffff) | (exp << 23)
            };
            let x = f32::from_bits(bits);
            if x.is_nan() {
                continue;
            }
            let h = f32_to_f16(x);
            let got = f16_to_f32(h) as f64;
            let xd = x as f64;
            if got.is_infinite() {
                assert!(xd.abs() >= 65520.0, "{x} -> inf");
                continue;
            }
            // The neighbours of h in the direction of x must be no closer.
            let err = (got - xd).abs();
            for n in [h.wrapping_add(1), h.wrapping_sub(1)] {
                if is_nan(n) || (n & SIGN) != (h & SIGN) && got != 0.0 {
                    continue;
                }
                let other = f16_to_f32(n) as f64;
                if other.is_infinite() {
                    continue;
                }
                let oerr = (other - xd).abs();
                assert!(err <= oerr, "{x}: chose {h:#x} ({got}), {n:#x} ({other}) is closer");
                if err == oerr {
                    assert_eq!(h & 1, 0, "{x}: tie must go to even");
                }
            }
        }
    }
}
