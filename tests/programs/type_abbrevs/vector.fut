-- An abbreviation for a fixed-size array type.
-- ==
-- input { [1.0f32, 2.0f32, 3.0f32] [0.5f32, 0.25f32, 2.0f32] }
-- output { 7.0f32 }
type vec3 = [3]f32

def dot (a: vec3) (b: vec3): f32 = f32.sum (map2 (*) a b)

def main (a: [3]f32) (b: [3]f32): f32 = dot a b
