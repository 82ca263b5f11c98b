-- Imported only inside a functor's body (imports/import_in_functor.fut).
def scale_all [n] (k: i32) (xs: [n]i32) : [n]i32 = map (* k) xs
