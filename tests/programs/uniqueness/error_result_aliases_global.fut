-- A function's result may not alias a top-level constant.
-- ==
-- error: Function result aliases the free variable "table"
def table : []i32 = [1, 2, 3]

def main (b: bool) : []i32 = if b then table else []
