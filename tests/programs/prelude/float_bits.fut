-- The float members on the representation, compared as bits
-- (`to_bits`): `get_bit` and `set_bit` (a bit number out of range reads 0
-- and writes nothing), `nextafter` (also across zero and to infinity),
-- `ldexp` (exact, into the subnormals with one rounding, overflowing),
-- `copysign`.
-- ==
-- input { 1065353216u32 }
-- output { 0 0 0 0 3212836864u32 1065353217u32 1065353216u32 1065353217u32
--          1065353215u32 1065353215u32 1090519040u32 1040187392u32 3212836864u32 }
-- input { 2147483648u32 }
-- output { 1 0 0 0 2147483648u32 2147483649u32 0u32 1u32
--          2147483649u32 0u32 2147483648u32 2147483648u32 2147483648u32 }
-- input { 2139095039u32 }
-- output { 0 1 0 0 4286578687u32 2139095039u32 2139095039u32 2139095040u32
--          2139095038u32 2139095038u32 2139095040u32 2113929215u32 4286578687u32 }
-- input { 1u32 }
-- output { 0 1 0 0 2147483649u32 1u32 1u32 2u32
--          0u32 0u32 8u32 0u32 2147483649u32 }
def main (b: u32) =
  let x = f32.from_bits b
  in ( f32.get_bit 31 x, f32.get_bit 0 x, f32.get_bit 32 x, f32.get_bit (-1) x
     , f32.to_bits (f32.set_bit 31 x 1), f32.to_bits (f32.set_bit 0 x 1), f32.to_bits (f32.set_bit 31 x 0)
     , f32.to_bits (f32.nextafter x f32.inf), f32.to_bits (f32.nextafter x (-f32.inf))
     , f32.to_bits (f32.nextafter x 0)
     , f32.to_bits (f32.ldexp x 3), f32.to_bits (f32.ldexp x (-3)), f32.to_bits (f32.copysign x (-1)) )

-- ==
-- entry: double
-- input { 4607182418800017408u64 }
-- output { 4607182418800017409u64 4607182418800017407u64 9214364837600034816u64 1u64 0 4602678819172646912u64 }
-- input { 4613937818241073152u64 }
-- output { 4613937818241073153u64 4613937818241073151u64 9218868437227405312u64 3u64 0 4613937818241073152u64 }
-- input { 13828302655841107968u64 }
-- output { 13828302655841107967u64 13828302655841107969u64 18435485074641125376u64 9223372036854775809u64 1 13828302655841107968u64 }
entry double (b: u64) =
  let x = f64.from_bits b
  in ( f64.to_bits (f64.nextafter x f64.inf), f64.to_bits (f64.nextafter x (-f64.inf))
     , f64.to_bits (f64.ldexp x 1023), f64.to_bits (f64.ldexp x (-1074))
     , f64.get_bit 63 x, f64.to_bits (f64.set_bit 52 x 0) )

-- ==
-- entry: half
-- input { 15360u16 }
-- output { 15361u16 15359u16 30720u16 1u16 0 14336u16 }
-- input { 31743u16 }
-- output { 31744u16 31742u16 31744u16 7167u16 0 31743u16 }
entry half (b: u16) =
  let x = f16.from_bits b
  in ( f16.to_bits (f16.nextafter x f16.inf), f16.to_bits (f16.nextafter x (-f16.inf))
     , f16.to_bits (f16.ldexp x 15), f16.to_bits (f16.ldexp x (-24))
     , f16.get_bit 15 x, f16.to_bits (f16.set_bit 10 x 0) )

-- NaN in, NaN out; `nextafter x x` is `x`; `ldexp` at the ends of `i32`
-- and of infinity; `epsilon` is the step from 1 up (`nextafter 1 2`).
-- ==
-- entry: special
-- input { 1f32 }
-- output { true true true true true true true true true true true }
entry special (one: f32) =
  ( f32.isnan (f32.nextafter f32.nan one), f32.isnan (f32.nextafter one f32.nan)
  , f32.isnan (f32.ldexp f32.nan 3), f32.nextafter one one == one
  , f32.ldexp (-f32.inf) (-5) == -f32.inf, f32.ldexp one i32.lowest == 0
  , f32.ldexp one i32.highest == f32.inf
  , f32.nextafter one 2 == one + f32.epsilon
  , f64.nextafter 1 2 == 1 + f64.epsilon
  , f16.nextafter 1 2 == 1 + f16.epsilon
  , f16.ldexp 1 (-25) == 0 && f16.ldexp 1.5 (-24) == f16.from_bits 2 )
