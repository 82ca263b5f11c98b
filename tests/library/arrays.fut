-- Arrays of records through the C library (driver/tests/library.rs,
-- `opaque_arrays`): made by an entry point, zipped, indexed, set,
-- built from elements and projected.

type point = {x: f32, y: f32}

entry mk (xs: []f32) (ys: []f32) : []point = map2 (\x y -> {x, y}) xs ys

entry sumx (ps: []point) : f32 = f32.sum (map (.x) ps)

entry sumy (ps: []point) : f32 = f32.sum (map (.y) ps)
