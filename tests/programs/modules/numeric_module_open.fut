-- A local open of a built-in numeric module.
-- ==
-- input { 3 9 } output { 9 3 }

def main (a: i32) (b: i32) = (i32.(max a b), let open_min = i32.min in open_min a b)
