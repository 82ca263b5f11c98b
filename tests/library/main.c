/* The C test of driver/tests/library.rs: prog.fut's library used through
   prog.h. Prints OK at the end; a failed check prints the line and exits 1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "prog.h"

#define CHECK(c)                                                          \
  do {                                                                    \
    if (!(c)) {                                                           \
      fprintf(stderr, "main.c:%d: check failed: %s\n", __LINE__, #c);     \
      return 1;                                                           \
    }                                                                     \
  } while (0)

int main(void) {
  struct futhark_context_config *cfg = futhark_context_config_new();
  futhark_context_config_set_debugging(cfg, 0);
  CHECK(futhark_context_config_set_tuning_param(cfg, "reduce_groups", 64) == 0);
  CHECK(futhark_context_config_set_tuning_param(cfg, "no_such_param", 1) != 0);
  CHECK(futhark_get_tuning_param_count() == 3);
  CHECK(strcmp(futhark_get_tuning_param_name(2), "tile_min_blocks") == 0);
  CHECK(strcmp(futhark_get_tuning_param_class(2), "threshold") == 0);
  struct futhark_context *ctx = futhark_context_new(cfg);
  char *err = futhark_context_get_error(ctx);
  CHECK(err == NULL);

  /* Arrays in and out. */
  float xs[] = {1, 2, 3, 4};
  struct futhark_f32_1d *in = futhark_new_f32_1d(ctx, xs, 4);
  CHECK(in != NULL);
  struct futhark_f32_1d *out = NULL;
  CHECK(futhark_entry_scale(ctx, &out, 2.5f, in) == 0);
  CHECK(futhark_context_sync(ctx) == 0);
  CHECK(futhark_shape_f32_1d(ctx, out)[0] == 4);
  float ys[4];
  CHECK(futhark_values_f32_1d(ctx, out, ys) == 0);
  CHECK(ys[0] == 2.5f && ys[1] == 5.0f && ys[2] == 7.5f && ys[3] == 10.0f);
  float y;
  CHECK(futhark_index_f32_1d(ctx, &y, out, 2) == 0 && y == 7.5f);
  CHECK(futhark_index_f32_1d(ctx, &y, out, 4) != 0);
  err = futhark_context_get_error(ctx);
  CHECK(err != NULL);
  free(err);
  /* The entry point did not consume its input. */
  CHECK(futhark_values_f32_1d(ctx, in, ys) == 0 && ys[1] == 2.0f);
  CHECK(futhark_free_f32_1d(ctx, in) == 0);
  CHECK(futhark_free_f32_1d(ctx, out) == 0);

  /* Two scalar results. */
  int32_t is[] = {3, 9, -2};
  struct futhark_i32_1d *iin = futhark_new_i32_1d(ctx, is, 3);
  int32_t s = 0, m = 0;
  CHECK(futhark_entry_sum_and_max(ctx, &s, &m, iin) == 0);
  CHECK(s == 10 && m == 9);

  /* A two-dimensional array, row-major. */
  int64_t xss[] = {1, 2, 3, 40, 50, 60};
  struct futhark_i64_2d *m2 = futhark_new_i64_2d(ctx, xss, 2, 3);
  CHECK(futhark_shape_i64_2d(ctx, m2)[0] == 2 && futhark_shape_i64_2d(ctx, m2)[1] == 3);
  struct futhark_i64_1d *sums = NULL;
  CHECK(futhark_entry_transpose_sum(ctx, &sums, m2) == 0);
  int64_t got[3];
  CHECK(futhark_values_i64_1d(ctx, sums, got) == 0);
  CHECK(got[0] == 41 && got[1] == 52 && got[2] == 63);
  futhark_free_i64_2d(ctx, m2);
  futhark_free_i64_1d(ctx, sums);

  /* An opaque record: new, an entry point, project, store and restore. */
  struct futhark_opaque_point *p = NULL, *q = NULL;
  CHECK(futhark_new_opaque_point(ctx, &p, 1.0f, 2.0f) == 0);
  CHECK(futhark_entry_move(ctx, &q, p, 0.5f) == 0);
  float x;
  CHECK(futhark_project_opaque_point_x(ctx, &x, q) == 0 && x == 1.5f);
  CHECK(futhark_project_opaque_point_y(ctx, &y, q) == 0 && y == 2.5f);
  void *bytes = NULL;
  size_t n = 0;
  CHECK(futhark_store_opaque_point(ctx, q, NULL, &n) == 0 && n > 0);
  CHECK(futhark_store_opaque_point(ctx, q, &bytes, &n) == 0);
  struct futhark_opaque_point *r = futhark_restore_opaque_point(ctx, bytes);
  free(bytes);
  CHECK(r != NULL);
  CHECK(futhark_project_opaque_point_y(ctx, &y, r) == 0 && y == 2.5f);
  futhark_free_opaque_point(ctx, p);
  futhark_free_opaque_point(ctx, q);
  futhark_free_opaque_point(ctx, r);

  /* A record holding an array: its field projected as an array. */
  float pts[] = {1, 2, 3};
  struct futhark_f32_1d *pa = futhark_new_f32_1d(ctx, pts, 3);
  struct futhark_opaque_cloud *c = NULL, *c2 = NULL;
  CHECK(futhark_new_opaque_cloud(ctx, &c, pa, 2.0f) == 0);
  futhark_free_f32_1d(ctx, pa); /* The record holds its own copy. */
  CHECK(futhark_entry_weigh(ctx, &c2, c) == 0);
  float t = 0;
  CHECK(futhark_entry_total(ctx, &t, c2) == 0 && t == 36.0f);
  struct futhark_f32_1d *pts2 = NULL;
  CHECK(futhark_project_opaque_cloud_pts(ctx, &pts2, c2) == 0);
  CHECK(futhark_shape_f32_1d(ctx, pts2)[0] == 3);
  CHECK(futhark_values_f32_1d(ctx, pts2, ys) == 0 && ys[0] == 2.0f && ys[2] == 6.0f);
  CHECK(futhark_project_opaque_cloud_w(ctx, &y, c2) == 0 && y == 3.0f);
  futhark_free_f32_1d(ctx, pts2);
  futhark_free_opaque_cloud(ctx, c);
  futhark_free_opaque_cloud(ctx, c2);

  /* A record written out in the entry point's type: a hashed C name
     (Note [Opaque type names in C]). */
  double ds[] = {1.0, 2.0, 6.0};
  struct futhark_f64_1d *da = futhark_new_f64_1d(ctx, ds, 3);
  struct futhark_opaque_hbf4f6d15 *st = NULL;
  CHECK(futhark_entry_stats(ctx, &st, da) == 0);
  int64_t count = 0;
  double mean = 0;
  CHECK(futhark_project_opaque_hbf4f6d15_n(ctx, &count, st) == 0 && count == 3);
  CHECK(futhark_project_opaque_hbf4f6d15_mean(ctx, &mean, st) == 0 && mean == 3.0);
  futhark_free_opaque_hbf4f6d15(ctx, st);
  futhark_free_f64_1d(ctx, da);

  /* A sum type: constructors numbered in name order (circle, empty,
     poly), made, passed through entry points and taken apart. */
  struct futhark_opaque_shape *sh = NULL, *sh2 = NULL;
  CHECK(futhark_new_opaque_shape_circle(ctx, &sh, 2.0f) == 0);
  CHECK(futhark_variant_opaque_shape(ctx, sh) == 0);
  CHECK(futhark_entry_area(ctx, &t, sh) == 0 && t == 12.0f);
  CHECK(futhark_entry_grow(ctx, &sh2, sh) == 0);
  CHECK(futhark_destruct_opaque_shape_circle(ctx, &y, sh2) == 0 && y == 3.0f);
  CHECK(futhark_destruct_opaque_shape_poly(ctx, &pts2, &s, sh2) != 0);
  err = futhark_context_get_error(ctx);
  CHECK(err != NULL);
  printf("error: %s\n", err);
  free(err);
  futhark_free_opaque_shape(ctx, sh);
  futhark_free_opaque_shape(ctx, sh2);
  CHECK(futhark_new_opaque_shape_empty(ctx, &sh) == 0);
  CHECK(futhark_variant_opaque_shape(ctx, sh) == 1);
  CHECK(futhark_entry_grow(ctx, &sh2, sh) == 0 && futhark_variant_opaque_shape(ctx, sh2) == 0);
  futhark_free_opaque_shape(ctx, sh);
  futhark_free_opaque_shape(ctx, sh2);
  float ps[] = {1, 2};
  pa = futhark_new_f32_1d(ctx, ps, 2);
  CHECK(futhark_new_opaque_shape_poly(ctx, &sh, pa, 3) == 0);
  futhark_free_f32_1d(ctx, pa);
  CHECK(futhark_variant_opaque_shape(ctx, sh) == 2);
  CHECK(futhark_entry_area(ctx, &t, sh) == 0 && t == 9.0f);
  CHECK(futhark_entry_grow(ctx, &sh2, sh) == 0);
  CHECK(futhark_destruct_opaque_shape_poly(ctx, &pts2, &s, sh2) == 0 && s == 4);
  CHECK(futhark_values_f32_1d(ctx, pts2, ps) == 0 && ps[0] == 2.0f && ps[1] == 3.0f);
  futhark_free_f32_1d(ctx, pts2);
  futhark_free_opaque_shape(ctx, sh);
  futhark_free_opaque_shape(ctx, sh2);

  /* A failing assertion: an error code and a message, nothing stored. */
  int32_t z = 77;
  CHECK(futhark_entry_checked(ctx, &z, iin, 5) == FUTHARK_PROGRAM_ERROR);
  CHECK(z == 77);
  err = futhark_context_get_error(ctx);
  CHECK(err != NULL);
  printf("error: %s\n", err);
  free(err);
  CHECK(futhark_context_get_error(ctx) == NULL);
  /* The context goes on working. */
  CHECK(futhark_entry_checked(ctx, &z, iin, 1) == 0 && z == 18);
  /* A NULL value is refused, with a message. */
  CHECK(futhark_entry_checked(ctx, &z, NULL, 1) != 0);
  err = futhark_context_get_error(ctx);
  CHECK(err != NULL);
  printf("error: %s\n", err);
  free(err);
  CHECK(futhark_entry_checked(ctx, NULL, iin, 1) != 0);
  err = futhark_context_get_error(ctx);
  CHECK(err != NULL);
  printf("error: %s\n", err);
  free(err);
  futhark_free_i32_1d(ctx, iin);

  CHECK(futhark_context_clear_caches(ctx) == 0);
  char *report = futhark_context_report(ctx);
  CHECK(report != NULL);
  free(report);
  futhark_context_free(ctx);
  futhark_context_config_free(cfg);
  printf("OK\n");
  return 0;
}
