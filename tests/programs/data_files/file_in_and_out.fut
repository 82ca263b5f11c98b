-- Both input and expected output read from data files.
-- ==
-- input @ data/scale.in
-- output @ data/scale.out
def main (k: f32) (xs: []f32): []f32 = map (* k) xs
