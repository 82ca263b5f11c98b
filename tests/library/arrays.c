/* Arrays of records through the C library: tests/library/arrays.fut.
   Prints one line per check; driver/tests/library.rs compares them. */
#include <stdio.h>
#include <stdlib.h>
#include "arrays.h"

#define CHECK(e) do { if (e) { char *m = futhark_context_get_error(ctx); \
  printf("error at line %d: %s\n", __LINE__, m ? m : "?"); free(m); return 1; } } while (0)

int main(void) {
  struct futhark_context_config *cfg = futhark_context_config_new();
  struct futhark_context *ctx = futhark_context_new(cfg);
  float xs[] = {1, 2, 3}, ys[] = {10, 20, 30};
  struct futhark_f32_1d *a = futhark_new_f32_1d(ctx, xs, 3), *b = futhark_new_f32_1d(ctx, ys, 3);
  struct futhark_opaque_arr1d_point *ps, *swapped, *two;
  CHECK(futhark_entry_mk(ctx, &ps, a, b));
  printf("shape %lld\n", (long long) futhark_shape_opaque_arr1d_point(ctx, ps)[0]);
  struct futhark_opaque_point *p;
  CHECK(futhark_index_opaque_arr1d_point(ctx, &p, ps, 1));
  float x;
  CHECK(futhark_project_opaque_point_x(ctx, &x, p));
  printf("ps[1].x %g\n", x);
  printf("ps[3] fails %d\n", futhark_index_opaque_arr1d_point(ctx, &p, ps, 3) != 0);
  free(futhark_context_get_error(ctx));
  CHECK(futhark_zip_opaque_arr1d_point(ctx, &swapped, b, a));
  float s;
  CHECK(futhark_entry_sumx(ctx, &s, swapped));
  printf("sumx swapped %g\n", s);
  CHECK(futhark_set_opaque_arr1d_point(ctx, ps, p, 0));
  CHECK(futhark_entry_sumx(ctx, &s, ps));
  printf("sumx after set %g\n", s);
  struct futhark_opaque_point *elems[] = {p, p};
  CHECK(futhark_new_opaque_arr1d_point(ctx, &two, elems, 2));
  CHECK(futhark_entry_sumy(ctx, &s, two));
  printf("sumy of two %g\n", s);
  struct futhark_f32_1d *ys2;
  CHECK(futhark_project_opaque_arr1d_point_y(ctx, &ys2, ps));
  float back[3];
  CHECK(futhark_values_f32_1d(ctx, ys2, back));
  CHECK(futhark_context_sync(ctx));
  printf("ys %g %g %g\n", back[0], back[1], back[2]);
  futhark_free_f32_1d(ctx, ys2);
  futhark_free_opaque_arr1d_point(ctx, two);
  futhark_free_opaque_point(ctx, p);
  futhark_free_opaque_arr1d_point(ctx, swapped);
  futhark_free_opaque_arr1d_point(ctx, ps);
  futhark_free_f32_1d(ctx, a);
  futhark_free_f32_1d(ctx, b);
  futhark_context_free(ctx);
  futhark_context_config_free(cfg);
  return 0;
}
