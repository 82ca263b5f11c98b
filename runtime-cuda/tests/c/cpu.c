/* A CPU-target program written by hand against ABI.md: its entry points
 * exercise every function of the runtime that works on the CPU. */
#include <stdlib.h>
#include <string.h>
#include "futrt.h"

static const char *messages[] = {
  "value {0} is out of range [0, {1}).\n  at prog.fut:3:7-12",
  "Index [{0}] out of bounds for array of shape [{1}].",
};

/* main : []i32 -> [][]f32 -> (i32, [][]f32): the sum, and the matrix doubled. */
static int32_t entry_main(struct futrt_ctx *ctx, void **outs, void **ins) {
  struct futrt_array1 *xs = ins[0];
  struct futrt_array2 *m = ins[1];
  int64_t n = xs->shape[0];
  int32_t *host = malloc(n * 4 + 1);
  futrt_read(ctx, host, xs->mem, 0, n * 4);
  int32_t sum = 0;
  for (int64_t i = 0; i < n; i++) sum += host[i];
  free(host);
  *(int32_t *)outs[0] = sum;

  int64_t k = m->shape[0] * m->shape[1];
  struct futrt_array2 *r = outs[1];
  r->mem = futrt_alloc(ctx, k * 4);
  r->shape[0] = m->shape[0];
  r->shape[1] = m->shape[1];
  futrt_copy(ctx, r->mem, 0, m->mem, 0, k * 4);
  float *f = malloc(k * 4 + 1);
  futrt_read(ctx, f, r->mem, 0, k * 4);
  for (int64_t i = 0; i < k; i++) f[i] *= 2;
  futrt_write(ctx, r->mem, 0, f, k * 4);
  free(f);
  /* Scratch memory through the pool. */
  void *tmp = futrt_alloc(ctx, 1000);
  futrt_free(ctx, tmp);
  futrt_free(ctx, NULL);
  return 0;
}

/* fails : i64 -> i64 -> bool: fails when x is not in [0, n). */
static int32_t entry_fails(struct futrt_ctx *ctx, void **outs, void **ins) {
  int64_t x = *(int64_t *)ins[0], n = *(int64_t *)ins[1];
  if (x < 0 || x >= n) {
    int64_t args[2] = {x, n};
    return futrt_fail(ctx, 0, 2, args);
  }
  *(uint8_t *)outs[0] = 1;
  return 0;
}

/* buffer_error : i64 -> i64: reports an error through the error buffer, as
 * a kernel would; futrt_sync (called by the runtime after the entry)
 * reports it. */
static int32_t entry_buffer_error(struct futrt_ctx *ctx, void **outs, void **ins) {
  int64_t *buf = futrt_error_buffer(ctx);
  buf[0] = 1 + 1;
  buf[1] = *(int64_t *)ins[0];
  buf[2] = 3;
  *(int64_t *)outs[0] = 0;
  return 0;
}

/* launch : () -> i32: a kernel launch, which the CPU target refuses. */
static int32_t entry_launch(struct futrt_ctx *ctx, void **outs, void **ins) {
  (void)ins;
  *(int32_t *)outs[0] = 0;
  return futrt_launch(ctx, 0, 1, 1, 1, 1, 1, 1, 0, NULL);
}

/* silent : () -> i32: fails without recording why. */
static int32_t entry_silent(struct futrt_ctx *ctx, void **outs, void **ins) {
  (void)ctx; (void)outs; (void)ins;
  return 1;
}

/* alias : []i32 -> []i32: returns its argument's memory, against the ABI. */
static int32_t entry_alias(struct futrt_ctx *ctx, void **outs, void **ins) {
  (void)ctx;
  *(struct futrt_array1 *)outs[0] = *(struct futrt_array1 *)ins[0];
  return 0;
}

/* Copies an array of `rank` dimensions and `size`-byte elements into fresh memory. */
static void copy_array(struct futrt_ctx *ctx, void *out, const void *in, int rank, int64_t size) {
  const int64_t *src = (const int64_t *)((const char *)in + sizeof(void *));
  int64_t *dst = (int64_t *)((char *)out + sizeof(void *));
  int64_t bytes = size;
  for (int i = 0; i < rank; i++) { dst[i] = src[i]; bytes *= src[i]; }
  void *mem = futrt_alloc(ctx, bytes);
  futrt_copy(ctx, mem, 0, *(void *const *)in, 0, bytes);
  *(void **)out = mem;
}

/* types : f16 -> bool -> []u8 -> [][]bool -> u64 -> [][][]f64 -> i8 -> []i16
 *         -> (the same, copied). */
static int32_t entry_types(struct futrt_ctx *ctx, void **outs, void **ins) {
  *(uint16_t *)outs[0] = *(uint16_t *)ins[0];
  *(uint8_t *)outs[1] = *(uint8_t *)ins[1];
  copy_array(ctx, outs[2], ins[2], 1, 1);
  copy_array(ctx, outs[3], ins[3], 2, 1);
  *(uint64_t *)outs[4] = *(uint64_t *)ins[4];
  copy_array(ctx, outs[5], ins[5], 3, 8);
  *(int8_t *)outs[6] = *(int8_t *)ins[6];
  copy_array(ctx, outs[7], ins[7], 1, 2);
  return 0;
}

/* pool : () -> (bool, bool, bool): blocks are aligned to 256, zero-byte
 * blocks are distinct, and freed blocks are reused. */
static int32_t entry_pool(struct futrt_ctx *ctx, void **outs, void **ins) {
  (void)ins;
  void *blocks[64];
  int aligned = 1;
  for (int i = 0; i < 64; i++) {
    blocks[i] = futrt_alloc(ctx, i * 100);
    aligned &= ((uintptr_t)blocks[i] % 256) == 0;
  }
  void *z1 = futrt_alloc(ctx, 0), *z2 = futrt_alloc(ctx, 0);
  *(uint8_t *)outs[0] = aligned;
  *(uint8_t *)outs[1] = z1 != z2 && z1 && z2;
  for (int i = 0; i < 64; i++) futrt_free(ctx, blocks[i]);
  int reused = 1;
  for (int i = 63; i >= 0; i--) {
    void *b = futrt_alloc(ctx, i * 100);
    int found = 0;
    for (int j = 0; j < 64; j++) found |= b == blocks[j];
    reused &= found;
  }
  *(uint8_t *)outs[2] = reused;
  futrt_free(ctx, z1);
  futrt_free(ctx, z2);
  return 0;
}

/* double_free : () -> i32: frees a block twice. */
static int32_t entry_double_free(struct futrt_ctx *ctx, void **outs, void **ins) {
  (void)ins;
  void *b = futrt_alloc(ctx, 8);
  futrt_free(ctx, b);
  futrt_free(ctx, b);
  *(int32_t *)outs[0] = 0;
  return 0;
}

/* (a, b) -> (b, a), a tuple of the type `(i64, i64)` (see its interface). */
static int32_t entry_pair(struct futrt_ctx *ctx, void **outs, void **ins) {
  (void)ctx;
  *(int64_t *)outs[0] = *(int64_t *)ins[1];
  *(int64_t *)outs[1] = *(int64_t *)ins[0];
  return 0;
}

static const char pair_interface[] = "type\t(i64, i64)\trecord\ti64\ti64\n"
                                     "field\t(i64, i64)\t0\ti64\n"
                                     "field\t(i64, i64)\t1\ti64\n"
                                     "in\ti64\nin\ti64\nout\t(i64, i64)\n";

static const struct futrt_type main_in[] = {{I32, 1}, {F32, 2}};
static const struct futrt_type main_out[] = {{I32, 0}, {F32, 2}};
static const struct futrt_type i64_i64[] = {{I64, 0}, {I64, 0}};
static const struct futrt_type bool_out[] = {{BOOL, 0}};
static const struct futrt_type i32_out[] = {{I32, 0}};
static const struct futrt_type arr_i32[] = {{I32, 1}};
static const struct futrt_type types[] = {{F16, 0}, {BOOL, 0}, {U8, 1}, {BOOL, 2},
                                          {U64, 0}, {F64, 3},  {I8, 0}, {I16, 1}};
static const struct futrt_type bools3[] = {{BOOL, 0}, {BOOL, 0}, {BOOL, 0}};

static const struct futrt_entry entries[] = {
  {"main", 2, main_in, 2, main_out, entry_main},
  {"fails", 2, i64_i64, 1, bool_out, entry_fails},
  {"buffer_error", 1, i64_i64, 1, i64_i64, entry_buffer_error},
  {"launch", 0, NULL, 1, i32_out, entry_launch},
  {"silent", 0, NULL, 1, i32_out, entry_silent},
  {"alias", 1, arr_i32, 1, arr_i32, entry_alias},
  {"types", 8, types, 8, types, entry_types},
  {"pool", 0, NULL, 3, bools3, entry_pool},
  {"double_free", 0, NULL, 1, i32_out, entry_double_free},
  {"pair", 2, i64_i64, 2, i64_i64, entry_pair, pair_interface},
};

static const struct futrt_program program = {
  2, sizeof entries / sizeof entries[0], entries, NULL, 0, NULL, 2, messages,
};

int main(int argc, char **argv) { return futrt_main(argc, argv, &program); }
