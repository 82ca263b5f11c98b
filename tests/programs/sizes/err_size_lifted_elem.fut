-- A size-lifted abbreviation is no array element, whatever its sizes.
-- ==
-- error: elements of size-lifted type "row"

type~ row = [2]i32
type table = [3]row

def main (x: i32) = x
