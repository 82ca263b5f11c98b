-- An abstract type's size parameter must be an array size of the type
-- behind it, outside function types: its values are what carry it.
-- ==
-- error: Size parameter "n" of abstract type "m.t" is not used constructively

module m : {
  type^ t [n]
  val mk : (n: i64) -> t [n]
} = {
  type^ t [n] = [n]i32 -> i64
  def mk (n: i64) : t [n] = \(xs: [n]i32) -> n + length xs
}

def main (x: i64) = x
