-- A type declared lifted (`type^`) does not implement a non-lifted
-- specification (`type`), whatever it stands for.
-- ==
-- error: non-lifted

module M : { type t 'a val mk 'a : a -> t a } = {
  type^ t '^a = a
  def mk 'a (x: a) : t a = x
}

def main (x: i32) = x
