-- A functor argument whose record field has the wrong type.
-- ==
-- error: does not match
module type config = {
  val cfg: {size: i64, flag: bool}
}

module Use (C: config) = {
  def n = if C.cfg.flag then C.cfg.size else 0
}

module U = Use { def cfg = {size = 3i64, flag = 1i32} }

def main (x: i64): i64 = U.n + x
