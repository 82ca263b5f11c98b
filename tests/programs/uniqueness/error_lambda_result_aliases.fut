-- A lambda without a return type returns a unique value only where its
-- result aliases nothing bound outside it: this one returns `x`.
-- ==
-- error: does not return a unique value

def cons (f: () -> *[2]i32) : *[2]i32 =
  f () with [0] = 1

def main (x: [2]i32) : *[2]i32 =
  cons (\() -> x)
