-- RUN: futmlir build %s --target=cuda --emit=mlir

-- A GPU thread's own allocation in MLIR (imp_to_mlir/device.rs): CUDA's
-- device `malloc` and `free`, declared in the device module beside the
-- global `futrt_heap_bytes` where the runtime stores the heap's size
-- (runtime-cuda/ABI.md). A NULL block of a non-zero size records the
-- heap-exhausted message with the bytes asked for and the heap's size in
-- the error buffer (first failing thread only), and ends the thread. No
-- device function recurses here, so there is no `futrt_recursive`.
-- CHECK-LABEL: gpu.module @futmlir_kernels {
-- CHECK-NEXT: llvm.func @free(!llvm.ptr)
-- CHECK-NEXT: llvm.func @malloc(i64) -> !llvm.ptr
-- CHECK-NEXT: llvm.mlir.global external @futrt_heap_bytes(0 : i64) {addr_space = 1 : i32, alignment = 8 : i64} : i64
-- CHECK: gpu.func @k0(%err: !llvm.ptr
-- CHECK: [[P:%t[0-9]+]] = llvm.call @malloc([[BYTES:%v[0-9]+]]) : (i64) -> !llvm.ptr
-- CHECK-NEXT: [[NULL:%t[0-9]+]] = llvm.mlir.zero : !llvm.ptr
-- CHECK-NEXT: [[ISNULL:%t[0-9]+]] = llvm.icmp "eq" [[P]], [[NULL]] : !llvm.ptr
-- CHECK-NEXT: [[ZERO:%t[0-9]+]] = arith.constant 0 : i64
-- CHECK-NEXT: [[SOME:%t[0-9]+]] = arith.cmpi ne, [[BYTES]], [[ZERO]] : i64
-- CHECK-NEXT: [[FAILED:%t[0-9]+]] = arith.andi [[ISNULL]], [[SOME]] : i1
-- CHECK-NEXT: scf.if [[FAILED]] {
-- CHECK-NEXT: [[G:%t[0-9]+]] = llvm.mlir.addressof @futrt_heap_bytes : !llvm.ptr<1>
-- CHECK-NEXT: [[HEAP:%t[0-9]+]] = llvm.load [[G]] : !llvm.ptr<1> -> i64
-- CHECK: llvm.cmpxchg %err,
-- CHECK: llvm.store [[BYTES]], {{%t[0-9]+}} : i64, !llvm.ptr
-- CHECK: llvm.store [[HEAP]], {{%t[0-9]+}} : i64, !llvm.ptr
-- CHECK: nvvm.exit
-- CHECK: llvm.call @free([[P]]) : (!llvm.ptr) -> ()
-- CHECK-NOT: futrt_recursive

def main (xs: []i64) (k: i64) : []i64 =
  map (\x -> let ys = loop ys = [x] for i < k do ys ++ map (+ i) ys
             in reduce (+) 0 ys) xs
