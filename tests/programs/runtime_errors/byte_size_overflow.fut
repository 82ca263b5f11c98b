-- Arrays whose size in bytes overflows 64 bits are an error, not memory
-- corruption (Note [Byte sizes saturate]): 2**61 i64s are 2**64 bytes,
-- which wrapped around to 0.
-- ==
-- entry: iota_huge
-- input { 0i64 } error: too large
-- input { -2305843009213693950i64 } output { [0i64, 1i64] }

-- ==
-- entry: replicate_huge
-- input { 0i64 } error: too large

entry iota_huge (n: i64) = iota (2**61 + n)

entry replicate_huge (n: i64) = replicate (2**62 + n) (replicate 4 1i8)
