-- Unrecognised attributes are ignored.
-- ==
-- input { 20 }
-- output { 21 }
def main (x: i32): i32 = #[my_custom_attribute] (x + 1)
