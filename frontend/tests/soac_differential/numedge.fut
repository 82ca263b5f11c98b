-- ==
-- input { [0u64, 1u64, 9223372036854775808u64, 18446744073709551615u64] [-0.0f64, -0.5f64, 2.5f64, -2.5f64, f64.nan, f64.inf, -f64.inf] }
def main (us: []u64) (fs: []f64) =
  (map f64.u64 us, map f32.u64 us, map f16.u64 us, map i64.u64 us, map u8.u64 us, map (/ 3) us, map (% 7) us,
   map (\u -> u >> 63) us, map u64.clz us, map u64.ctz us, map u64.popc us, map (\u -> u * u) us, map (\u -> u ** 3) us,
   map f64.sgn fs, map f64.round fs, map f64.trunc fs, map f64.floor fs, map f64.ceil fs, map f64.abs fs,
   map f64.isinf fs, map f64.isnan fs, map f64.isfinite fs, map (\x -> x == x) fs, map (\x -> x < 1) fs, map (\x -> f64.max x 0) fs,
   map (\x -> f64.min x 0) fs, map i32.f64 fs, map u32.f64 fs, map bool.f64 fs, map f64.to_bits fs, map f32.f64 fs, map f16.f64 fs,
   map (\x -> x % 2) fs, map (\x -> (-2) % x) fs, map (\x -> x ** 2) fs, map (\x -> (-8) ** x) fs, map (\x -> 2 ** x) fs,
   i32.ctz 0, u8.ctz 0u8, i8.clz 0i8, i64.abs i64.lowest, i8.abs (-128), i64.lowest / -1, i64.lowest % -1, i64.lowest // -1, i64.lowest %% -1,
   u32.highest, i64.lowest, f64.highest, f64.lowest, i16.num_bits, f16.num_bits, f64.from_fraction (-7) 2, f16.to_bits 1.5f16,
   f16.from_bits 0x3e00u16, f64.from_bits 0x4000000000000000u64, true < false, true == true, bool.i32 2, i32.bool true, !true,
   f32.sgn (-0.0f32), f32.e, f64.pi, f16.pi, f16.e, f16.inf, f16.nan, 1f16 / 3f16, f16.sqrt 2f16, f16.exp 1f16, f16.round 2.5f16)
