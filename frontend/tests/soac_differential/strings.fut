-- ==
-- input { 3i64 }
def main (n: i64) =
  let s = "hello"
  in (s, length s, s[1:n], map u8.i32 (map i32.u8 s), "", s ++ " world", 'a', "a\nb\t\"c\\")
