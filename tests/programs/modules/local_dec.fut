-- `local` declarations in a structure are visible inside only.
-- ==
-- input { 5 } output { 30 }

module M = {
  local def helper (x: i32) = x * 3
  def api (x: i32) = helper x * 2
}

def main (x: i32) = M.api x
