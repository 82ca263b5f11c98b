-- A top-level constant is not consumable.
-- ==
-- error: Consuming "table", which is not consumable: it is a top-level constant
def table : []i32 = [1, 2, 3]

def main (x: i32) : i32 =
  let t = table with [0] = x
  in t[0]
