-- Ascription may not put a size-lifted type's unknown size at the top
-- level of a value's type: `empty` would have a size bound nowhere.
-- ==
-- error: Cannot ascribe val empty.*size-lifted type

module type stack = {
  type~ stack
  val empty : (stack, i32)
}

module list_stack : stack = {
  type~ stack = []i32
  def empty : ([]i32, i32) = ([], 0)
}
