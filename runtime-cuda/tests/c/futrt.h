/* The declarations of ABI.md, for the tests' hand-written programs. */
#include <stdint.h>

struct futrt_ctx;
struct futrt_type { int32_t elem; int32_t rank; };
struct futrt_entry {
  const char *name;
  int64_t n_in;  const struct futrt_type *in;
  int64_t n_out; const struct futrt_type *out;
  int32_t (*fn)(struct futrt_ctx *ctx, void **outs, void **ins);
  const char *interface; /* NULL here: each component is a value */
};
struct futrt_program {
  int64_t version;
  int64_t n_entries; const struct futrt_entry *entries;
  const char *ptx;
  int64_t n_kernels; const char *const *kernel_names;
  int64_t n_messages; const char *const *messages;
};
struct futrt_array1 { void *mem; int64_t shape[1]; };
struct futrt_array2 { void *mem; int64_t shape[2]; };
struct futrt_array3 { void *mem; int64_t shape[3]; };

enum { I8, I16, I32, I64, U8, U16, U32, U64, F16, F32, F64, BOOL };

int futrt_main(int argc, char **argv, const struct futrt_program *program);
void *futrt_alloc(struct futrt_ctx *, int64_t bytes);
void futrt_free(struct futrt_ctx *, void *mem);
void futrt_copy(struct futrt_ctx *, void *dst, int64_t dst_off, const void *src, int64_t src_off, int64_t bytes);
void futrt_read(struct futrt_ctx *, void *host_dst, const void *mem, int64_t off, int64_t bytes);
void futrt_write(struct futrt_ctx *, void *mem, int64_t off, const void *host_src, int64_t bytes);
int32_t futrt_launch(struct futrt_ctx *, int32_t kernel, int64_t gx, int64_t gy, int64_t gz, int64_t bx, int64_t by,
                     int64_t bz, int64_t shared_bytes, void **args);
int32_t futrt_sync(struct futrt_ctx *);
void *futrt_error_buffer(struct futrt_ctx *);
int32_t futrt_fail(struct futrt_ctx *, int32_t msg, int64_t nargs, const int64_t *args);
