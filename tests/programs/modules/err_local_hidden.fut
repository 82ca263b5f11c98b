-- A `local` declaration is not part of the structure.
-- ==
-- error: unknown name `M.helper`

module M = {
  local def helper (x: i32) = x * 3
  def api (x: i32) = helper x
}

def main (x: i32) = M.helper x
