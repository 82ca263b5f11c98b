-- An index section applied to a value that is not an array.
-- ==
-- error: expected type
def main (x: i32) = (.[0]) x
