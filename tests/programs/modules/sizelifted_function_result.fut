-- A size-lifted type's unknown size may appear in a function's result
-- (each call binds it) and in a function's parameter.
-- ==
-- input { 3i64 } output { 4i64 }

module type stack = {
  type~ stack
  val empty : () -> stack
  val push : i64 -> stack -> stack
  val size : stack -> i64
}

module list_stack : stack = {
  type~ stack = []i64
  def empty () : stack = []
  def push (x: i64) (s: stack) : stack = s ++ [x]
  def size (s: stack) = length s
}

def main (n: i64) =
  list_stack.size (loop s = list_stack.push 0 (list_stack.empty ()) for i < n do list_stack.push i s)
