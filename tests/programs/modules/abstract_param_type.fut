-- An abstract type with a type parameter: a stack over any element type,
-- used at two element types.
-- ==
-- input { 3 } output { 2 3 true }

module type STACK = {
  type stack 'a
  val empty 'a : a -> stack a
  val push 'a : a -> stack a -> stack a
  val top 'a : stack a -> a
  val size 'a : stack a -> i32
}

module Stack : STACK = {
  type stack 'a = (i32, a)
  def empty 'a (x: a) : stack a = (0, x)
  def push 'a (x: a) ((n, _): stack a) : stack a = (n + 1, x)
  def top 'a ((_, x): stack a) : a = x
  def size 'a ((n, _): stack a) = n
}

def main (x: i32) =
  let s = Stack.push x (Stack.push 1 (Stack.empty 0))
  let b = Stack.push true (Stack.empty false)
  in (Stack.size s, Stack.top s, Stack.top b)
