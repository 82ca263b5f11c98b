-- Anonymous sizes in a size-lifted abbreviation, and in the result of a
-- function type of a lifted one, are allowed.
-- ==
-- input { [1, 2, 3] } output { 6 }

type~ vec = []i32
type^ grow = i64 -> []i32

def sum (xs: vec) : i32 = i32.sum xs

def make : grow = \n -> map i32.i64 (iota n)

def main (xs: []i32) = sum xs + sum (make 0)
