-- Length and contents of a string literal.
-- ==
-- input { 0i64 }
-- output { 3i64 65u8 }
-- input { 2i64 }
-- output { 3i64 67u8 }
def main (i: i64): (i64, u8) =
  let s = "ABC"
  in (length s, s[i])
