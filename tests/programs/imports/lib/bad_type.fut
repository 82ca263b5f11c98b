-- A library file with a type error (imported by `import_type_error.fut`).

def broken (x: i32) : bool = x + 1
