-- Binding a module to an unknown module.
-- ==
-- error: unknown module `Nope`

module M = Nope

def main (x: i32) = x
