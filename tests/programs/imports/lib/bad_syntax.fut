-- A library file with a syntax error (imported by `import_parse_error.fut`).

def broken (x: i32) = x +
