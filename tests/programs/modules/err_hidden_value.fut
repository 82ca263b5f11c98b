-- An ascription hides what the module type does not list.
-- ==
-- error: unknown name `M.secret`

module type S = { val public : i32 }

module M : S = { def secret = 41 def public = secret + 1 }

def main (x: i32) = M.secret + x
