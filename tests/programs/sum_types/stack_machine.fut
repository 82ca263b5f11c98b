-- A small stack machine: an array of instructions (a sum type with
-- payloads) interpreted by a loop whose body is a `match` updating the
-- stack in place.
-- ==
-- input { 3 4 }
-- output { 25 }
-- input { -2 0 }
-- output { 4 }
type instr = #push i32 | #add | #mul | #dup | #swap

def main (a: i32) (b: i32): i32 =
  let prog: []instr = [#push b, #push a, #swap, #dup, #mul, #swap, #dup, #mul, #add]
  let (stack, sp) =
    loop (stack, sp) = (replicate 8 0, 0) for ins in prog do
      match ins
      case #push v -> (stack with [sp] = v, sp + 1)
      case #add -> (stack with [sp - 2] = stack[sp - 2] + stack[sp - 1], sp - 1)
      case #mul -> (stack with [sp - 2] = stack[sp - 2] * stack[sp - 1], sp - 1)
      case #dup -> (stack with [sp] = stack[sp - 1], sp + 1)
      case #swap ->
        let t = stack[sp - 1]
        let stack[sp - 1] = stack[sp - 2]
        let stack[sp - 2] = t
        in (stack, sp)
  in stack[sp - 1]
