-- A function passed for a parameter whose result is unique must return
-- a unique value: this local function declares its result non-unique
-- (it returns the parameter `x`), and `cons` consumes what it returns.
-- ==
-- error: does not return a unique value

def cons (f: () -> *[2]i32) : *[2]i32 =
  f () with [0] = 1

def main (x: [2]i32) : *[2]i32 =
  let f (): []i32 = x
  in cons f
