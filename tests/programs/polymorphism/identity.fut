-- A polymorphic identity function used at several types.
-- ==
-- input { 1 2.5f32 true }
-- output { 1 2.5f32 true }
def id 't (x: t): t = x

def main (a: i32) (b: f32) (c: bool): (i32, f32, bool) = (id a, id b, id c)
