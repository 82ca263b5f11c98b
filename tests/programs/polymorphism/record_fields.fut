-- Polymorphic functions over records with type parameters in their
-- fields, used at array and scalar types.
-- ==
-- input { 7 [1.0f32, 2.0f32, 3.0f32] }
-- output { [1.0f32, 2.0f32, 3.0f32] 7 true 3i64 }
def swap_rec 'a 'b (r: {fst: a, snd: b}): {fst: b, snd: a} = {fst = r.snd, snd = r.fst}

def set_snd 'a 'b 'c (r: {fst: a, snd: b}) (c: c): {fst: a, snd: c} = {fst = r.fst, snd = c}

def main (x: i32) (xs: [3]f32): ([3]f32, i32, bool, i64) =
  let s = swap_rec {fst = x, snd = xs}
  let t = set_snd s true
  in (s.fst, s.snd, t.snd, length t.fst)
