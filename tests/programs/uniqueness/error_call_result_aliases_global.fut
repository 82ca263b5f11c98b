-- A function may return a tuple holding a top-level constant; its call's
-- result then aliases the constant, which may not be consumed.
-- ==
-- error: aliases the free variable "table"

def table = ([1, 2, 3], 0)

def get () = table

def main (i: i64) = (get ()).0 with [i] = 0
