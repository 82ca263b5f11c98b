/* A CUDA-target program written by hand against ABI.md, with its kernel in
 * hand-written PTX. Without a driver or GPU it must fail cleanly; with one
 * it adds 1 to each element, and reports a negative element through the
 * error buffer as generated kernels do. */
#include <stdlib.h>
#include "futrt.h"

static const char ptx[] =
  ".version 7.0\n"
  ".target sm_50\n"
  ".address_size 64\n"
  "\n"
  ".visible .entry add_one(.param .u64 p_a, .param .u64 p_n, .param .u64 p_err)\n"
  "{\n"
  "  .reg .pred %p<3>;\n"
  "  .reg .b32 %r<5>;\n"
  "  .reg .b64 %rd<12>;\n"
  "  ld.param.u64 %rd1, [p_a];\n"
  "  ld.param.u64 %rd2, [p_n];\n"
  "  ld.param.u64 %rd3, [p_err];\n"
  "  mov.u32 %r1, %ctaid.x;\n"
  "  mov.u32 %r2, %ntid.x;\n"
  "  mov.u32 %r3, %tid.x;\n"
  "  mul.wide.u32 %rd4, %r1, %r2;\n"
  "  cvt.u64.u32 %rd5, %r3;\n"
  "  add.u64 %rd4, %rd4, %rd5;\n"
  "  setp.ge.s64 %p1, %rd4, %rd2;\n"
  "  @%p1 bra DONE;\n"
  "  cvta.to.global.u64 %rd6, %rd1;\n"
  "  shl.b64 %rd7, %rd4, 2;\n"
  "  add.u64 %rd8, %rd6, %rd7;\n"
  "  ld.global.u32 %r4, [%rd8];\n"
  "  setp.lt.s32 %p2, %r4, 0;\n"
  "  @%p2 bra FAIL;\n"
  "  add.s32 %r4, %r4, 1;\n"
  "  st.global.u32 [%rd8], %r4;\n"
  "  bra DONE;\n"
  "FAIL:\n"
  "  cvta.to.global.u64 %rd9, %rd3;\n"
  "  atom.global.cas.b64 %rd10, [%rd9], 0, 1;\n"
  "  setp.ne.s64 %p1, %rd10, 0;\n"
  "  @%p1 bra DONE;\n"
  "  st.global.u64 [%rd9+8], %rd4;\n"
  "  st.global.u64 [%rd9+16], %rd2;\n"
  "DONE:\n"
  "  ret;\n"
  "}\n";

static const char *kernel_names[] = {"add_one"};
static const char *messages[] = {"Index [{0}] out of bounds for array of shape [{1}]."};

/* main : []i32 -> []i32: each element plus 1. */
static int32_t entry_main(struct futrt_ctx *ctx, void **outs, void **ins) {
  struct futrt_array1 *xs = ins[0], *r = outs[0];
  int64_t n = xs->shape[0];
  r->mem = futrt_alloc(ctx, n * 4);
  r->shape[0] = n;
  futrt_copy(ctx, r->mem, 0, xs->mem, 0, n * 4);
  void *err = futrt_error_buffer(ctx);
  void *args[] = {&r->mem, &n, &err};
  return futrt_launch(ctx, 0, (n + 255) / 256, 1, 1, 256, 1, 1, 0, args);
}

/* bad_kernel : () -> i32: launches a kernel the program does not have. */
static int32_t entry_bad_kernel(struct futrt_ctx *ctx, void **outs, void **ins) {
  (void)ins;
  *(int32_t *)outs[0] = 0;
  return futrt_launch(ctx, 5, 1, 1, 1, 1, 1, 1, 0, NULL);
}

static const struct futrt_type arr_i32[] = {{I32, 1}};
static const struct futrt_type i32_out[] = {{I32, 0}};

static const struct futrt_entry entries[] = {
  {"main", 1, arr_i32, 1, arr_i32, entry_main},
  {"bad_kernel", 0, NULL, 1, i32_out, entry_bad_kernel},
};

int main(int argc, char **argv) {
  struct futrt_program program = {2, 2, entries, ptx, 1, kernel_names, 1, messages};
  /* The tests' way to check the message of a module that does not load. */
  if (getenv("FUTRT_TEST_BAD_PTX")) program.ptx = "this is not PTX";
  return futrt_main(argc, argv, &program);
}
