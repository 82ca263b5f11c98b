-- A polymorphic function over two type parameters.
-- ==
-- input { 1 false }
-- output { false 1 }
def swap 'a 'b ((x, y): (a, b)): (b, a) = (y, x)

def main (x: i32) (y: bool): (bool, i32) = swap (x, y)
