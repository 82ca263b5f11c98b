-- Nor may a local function's.
-- ==
-- error: Function result aliases the free variable "table"
def table : []i32 = [1, 2, 3]

def main (b: bool) =
  let f (c: bool) = if c then table else []
  in (f b)[0]
