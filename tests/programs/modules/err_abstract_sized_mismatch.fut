-- Values of an abstract sized type of different sizes do not match.
-- ==
-- error: Sizes "n" and "m" do not match

module vec : {
  type t [n]
  val mk : (n: i64) -> t [n]
  val add [n] : t [n] -> t [n] -> t [n]
} = {
  type t [n] = [n]i64
  def mk n = replicate n 1i64
  def add [n] (xs: [n]i64) (ys: [n]i64) = map2 (+) xs ys
}

def main (n: i64) (m: i64) = vec.add (vec.mk n) (vec.mk m)
