-- User-defined operators in a module, used through `open` and local open.
-- ==
-- input { 3 4 } output { 25 25 }

module Op = {
  def (<+>) (a: i32) (b: i32) = a * a + b * b
}

def main (a: i32) (b: i32) = (Op.(a <+> b), let open_ x = x in open_ (Op.(<+>) a b))
