-- Character literals are integer patterns: count the vowels in a string
-- (the input is "futhark is fun").
-- ==
-- input { [102u8, 117u8, 116u8, 104u8, 97u8, 114u8, 107u8, 32u8, 105u8, 115u8, 32u8, 102u8, 117u8, 110u8] }
-- output { 4 }
def is_vowel (c: u8): bool =
  match c
  case 'a' -> true
  case 'e' -> true
  case 'i' -> true
  case 'o' -> true
  case 'u' -> true
  case _ -> false

def main (s: []u8): i32 =
  i32.sum (map (\c -> if is_vowel c then 1 else 0) s)
