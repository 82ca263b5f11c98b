//! Frontend throughput: parse + type-check a generated program of N lines
//! (default 20,000) and report lines per second.
//!
//!     cargo run --release -p futmlir-frontend --example frontend_bench -- 20000

use std::time::Instant;

use futmlir_frontend::check;
use futmlir_frontend::span::SourceMap;

/// A program of roughly `lines` lines: functions with loops, SOACs,
/// records, tuples, slices and in-place updates, each using the previous.
fn generate(lines: usize) -> String {
    let mut s = String::new();
    let mut i = 0;
    while s.lines().count() < lines {
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
    s
}

fn main() {
    let lines: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(20_000);
    let text = generate(lines);
    let nlines = text.lines().count();
    let mut best = f64::MAX;
    for _ in 0..3 {
        let mut sm = SourceMap::default();
        let file = sm.add("bench.fut", text.clone());
        let t = Instant::now();
        let r = check::check_file(&mut sm, file);
        let el = t.elapsed().as_secs_f64();
        if let Err(ds) = r {
            eprintln!("{}", ds[0].to_plain(&sm));
            std::process::exit(1);
        }
        best = best.min(el);
    }
    println!(
        "{nlines} lines: parse + check {:.1} ms = {:.0} lines/s (best of 3)",
        best * 1e3,
        nlines as f64 / best
    );
}
