-- A string literal is an array of UTF-8 bytes.
-- ==
-- input { 3i64 }
-- output { [104u8, 101u8, 108u8] }
-- input { 0i64 }
-- output { empty([0]u8) }
def main (n: i64): []u8 = take n "hello"
