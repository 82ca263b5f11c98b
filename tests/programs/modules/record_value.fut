-- A record defined in a module, projected through a qualified name.
-- ==
-- input { 1 } output { 11 21 }

module Cfg = {
  def params = {a = 10, b = 20}
  def get_a = params.a
}

def main (x: i32) = (Cfg.get_a + x, Cfg.params.b + x)
