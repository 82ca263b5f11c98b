//! Frontend throughput: parse + type-check + internalise (to the soac
//! dialect) a generated program of N lines (default 20,000) and report
//! lines per second.
//!
//!     cargo run --release -p futmlir-frontend --example frontend_bench -- 20000

use std::time::Instant;

use futmlir_frontend::span::SourceMap;
use futmlir_frontend::{check, internalise};

/// A program of roughly `lines` lines: functions with loops, SOACs,
/// records, tuples, slices and in-place updates, each using the previous.
fn generate(lines: usize) -> String {
    let mut s = String::new();
    let mut i = 0;
    while i * 10 < lines {
        let prev = if i == 0 {
            "xs".to_string()
        } else {
            format!("f{} xs", i - 1)
        };
        s.push_str(&format!(
            "def f{i} [n] (xs: [n]i32): [n]i32 =
  let ys = map (\\x -> x * {k} + 1) ({prev})
  let s = reduce (+) 0 ys
  let r = {{a = s, b = (s, {k}i64)}}
  let zs = loop acc = copy ys for j < n do
    if acc[j] > r.a then acc with [j] = r.b.0 else acc
  let (p, q) = (zs[0:n/2], zs[n/2:])
  let w = i32.sum p + i32.sum q
  in map2 (\\a b -> a + b - w) zs ys

",
            k = i % 7 + 1
        ));
        i += 1;
    }
    s.push_str(&format!("entry main [n] (xs: [n]i32): [n]i32 = f{} xs\n", i - 1));
    s
}

fn main() {
    let lines: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(20_000);
    let text = generate(lines);
    let nlines = text.lines().count();
    let (mut best_check, mut best_total) = (f64::MAX, f64::MAX);
    let mut ops = 0;
    for _ in 0..3 {
        let mut sm = SourceMap::default();
        let file = sm.add("bench.fut", text.clone());
        let t = Instant::now();
        let checked = match check::check_file(&mut sm, file) {
            Ok(c) => c,
            Err(ds) => {
                eprintln!("{}", ds[0].to_plain(&sm));
                std::process::exit(1);
            }
        };
        let t_check = t.elapsed().as_secs_f64();
        let mut ctx = futmlir_dialects::context();
        let module = match internalise::internalise(&checked, &sm, &mut ctx) {
            Ok(m) => m,
            Err(d) => {
                eprintln!("{}", d.to_plain(&sm));
                std::process::exit(1);
            }
        };
        let t_total = t.elapsed().as_secs_f64();
        ops = ctx.print_op(module, Default::default()).lines().count();
        best_check = best_check.min(t_check);
        best_total = best_total.min(t_total);
    }
    println!(
        "{nlines} lines: parse + check {:.1} ms ({:.0} lines/s); + internalise {:.1} ms = {:.0} lines/s; \
         {ops} lines of soac IR (best of 3)",
        best_check * 1e3,
        nlines as f64 / best_check,
        best_total * 1e3,
        nlines as f64 / best_total
    );
}
