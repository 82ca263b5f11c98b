-- A loop's result aliases its initial value: here a parameter that is
-- not unique.
-- ==
-- error: Consuming "s", which is not consumable
def id10 (xs: [10]i32) : [10]i32 = xs

def main (s: [10]i32) : *[10]i32 =
  let t = loop t = s for _i < 10 do id10 t
  in t with [0] = 0
