-- A size parameter that appears only inside a size expression the
-- checker keeps as written (`/`, a constant), here behind a module type:
-- each call matches the expression at the argument's type, `[(c - 1) /
-- per + 1]` against `[(n - 1) / per + 1]`, and the callee gets `n = c`
-- (Note [Size terms] in `types`).
-- ==
-- input { 0i64 } output { 0i64 0i64 }
-- input { 1i64 } output { 1i64 1i64 }
-- input { 9i64 } output { 9i64 2i64 }
-- input { 16i64 } output { 16i64 2i64 }

module type packed = {
  type words [n]
  val per : i64
  val empty : (n: i64) -> words [(n - 1) / per + 1]
  val bits [n] : words [(n - 1) / per + 1] -> i64
  val flip [n] : words [(n - 1) / per + 1] -> words [(n - 1) / per + 1]
}

module packed_u8 : packed = {
  def per = 8i64
  type words [n] = [n]u8
  def empty (n: i64) : words [(n - 1) / per + 1] = replicate ((n - 1) / per + 1) 0
  def bits [n] (_: words [(n - 1) / per + 1]) : i64 = n
  def flip [n] (ws: words [(n - 1) / per + 1]) : words [(n - 1) / per + 1] =
    map (\w -> if n > 0 then !w else w) ws
}

entry main (c: i64) =
  let ws = packed_u8.flip (packed_u8.empty c)
  in (packed_u8.bits ws, if c == 0 then 0 else (c - 1) / packed_u8.per + 1)
