-- A function called from host code and from a map's kernel: on the GPU it
-- has a host and a device version, of distinct symbols in the imp IR
-- (`twice` and `twice$device`; Note [Functions at the imp level]), which
-- upstream MLIR accepts (driver/tests/cli.rs runs mlir-opt on the
-- `--emit=imp` output for CUDA).
-- ==
-- input { 3 [1, 2, 3] } output { 6 [2, 4, 6] }

#[noinline]
def twice (x: i32) : i32 = x * 2

def main (y: i32) (xs: []i32) = (twice y, map twice xs)
