-- An accumulator exists only inside its stream: no entry point takes
-- one.
-- ==
-- error: accumulator

def main (a: *intrinsics.acc ([]i32)) = intrinsics.acc_write a 0 1
