-- A type specification whose size names a value spec is not implemented
-- by a type with a number there: sizes are compared as written.
-- ==
-- error: Module defines type vec = \[3\]i64, but module type requires type vec = \[k\]i64
module type sized = {
  val k : i64
  type vec = [k]i64
}

module three : sized = {
  def k = 3i64
  type vec = [3]i64
}

def main (x: three.vec) = x
