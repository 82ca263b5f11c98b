-- An assertion that holds returns its second argument.
-- ==
-- input { 5 }
-- output { 10 }
def main (x: i32): i32 = assert (x > 0) (x * 2)
