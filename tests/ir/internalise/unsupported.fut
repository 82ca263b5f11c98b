entry main (x: i32): i32 = x + i32.mul_hi x x
