-- u64: underflow wraps and division is unsigned.
-- ==
-- input { 0u64 }
-- output { 18446744073709551615u64 6148914691236517205u64 true }
def main (z: u64): (u64, u64, bool) =
  let m = z - 1
  in (m, m / 3, m > 1)
