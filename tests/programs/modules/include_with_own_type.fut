-- `include S with t = t` in a module type refines the included type to
-- the type the module type declared before.
-- ==
-- input { 4 } output { 5 }

module type has_elem = {
  type elem
  val one : elem
}

module type counter = {
  type elem
  include has_elem with elem = elem
  val add : elem -> elem -> elem
}

module int_counter : counter with elem = i32 = {
  type elem = i32
  def one = 1i32
  def add (a: i32) (b: i32) = a + b
}

def main (x: i32) = int_counter.add x int_counter.one
