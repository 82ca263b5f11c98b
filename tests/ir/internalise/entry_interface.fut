-- Entry points say how their flattened parameters and results group into
-- the values a user passes (Note [Entry point interfaces]): a record
-- named by the abbreviation it is written with, fields sorted by name; an
-- unnamed record and tuple named by their types, without sizes or
-- uniqueness (fields sorted there too), nested types described before
-- the record holding them; a sum type (tag and slots, each constructor's
-- slots and payload types); an array of
-- tuples (its element type described first, then its `array` line); a
-- top-level result tuple as several results, but one written
-- as an abbreviation as one value.
-- RUN: futmlir opt %s
-- CHECK-LABEL: sym_name = "named"
-- CHECK-SAME: interface = "type\tpoint\trecord\tf32\tf32\nfield\tpoint\tx\tf32\nfield\tpoint\ty\tf32\nin\tpoint\nout\tf32\n"
-- CHECK-LABEL: sym_name = "nested"
-- CHECK-SAME: interface = "type\t{a: i32, b: [][]f32}\trecord\ti32\t[][]f32\nfield\t{a: i32, b: [][]f32}\ta\ti32\nfield\t{a: i32, b: [][]f32}\tb\t[][]f32\ntype\t(bool, []u8)\trecord\tbool\t[]u8\nfield\t(bool, []u8)\t0\tbool\nfield\t(bool, []u8)\t1\t[]u8\ntype\t(i32, (bool, []u8))\trecord\ti32\tbool\t[]u8\nfield\t(i32, (bool, []u8))\t0\ti32\nfield\t(i32, (bool, []u8))\t1\t(bool, []u8)\ntype\t{inner: {a: i32, b: [][]f32}, t: (i32, (bool, []u8))}\trecord\ti32\t[][]f32\ti32\tbool\t[]u8\nfield\t{inner: {a: i32, b: [][]f32}, t: (i32, (bool, []u8))}\tinner\t{a: i32, b: [][]f32}\nfield\t{inner: {a: i32, b: [][]f32}, t: (i32, (bool, []u8))}\tt\t(i32, (bool, []u8))\nin\t{a: i32, b: [][]f32}\nin\t(i32, (bool, []u8))\nout\t{inner: {a: i32, b: [][]f32}, t: (i32, (bool, []u8))}\nout\ti32\n"
-- CHECK-LABEL: sym_name = "sums"
-- CHECK-SAME: interface = "type\topt\tsum\ti8\ti32\nvariant\topt\tnone\t\nvariant\topt\tsome\t0\ti32\ntype\t(i32, bool)\trecord\ti32\tbool\nfield\t(i32, bool)\t0\ti32\nfield\t(i32, bool)\t1\tbool\ntype\t[](i32, bool)\topaque\t[]i32\t[]bool\narray\t[](i32, bool)\t(i32, bool)\t1\nin\topt\nin\t[]i32\nout\t[](i32, bool)\n"
-- CHECK-LABEL: sym_name = "pairs"
-- CHECK-SAME: interface = "type\tpair\trecord\ti32\tbool\nfield\tpair\t0\ti32\nfield\tpair\t1\tbool\nin\ti32\nout\tpair\n"
type point = {y: f32, x: f32}

entry named (p: point): f32 = p.x - p.y

entry nested (r: {b: *[][]f32, a: i32}) (t: (i32, (bool, []u8))): ({inner: {b: [][]f32, a: i32}, t: (i32, (bool, []u8))}, i32) =
  ({inner = r, t}, r.a)

type opt = #some i32 | #none

entry sums (o: opt) (xs: []i32): [](i32, bool) =
  map (\x -> match o case #some y -> (x + y, true) case #none -> (x, false)) xs

type pair = (i32, bool)

entry pairs (x: i32): pair = (x, x > 0)
