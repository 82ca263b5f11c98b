//! IR core benchmark: parse, verify and print a large generated module, with
//! memory per op, compared with `mlir-opt` on the same file.
//!
//! ```text
//! cargo run --release -p futmlir-dialects --example ir_bench -- [N] [--mlir-opt PATH]
//! ```
//!
//! The module holds about `N` ops of the unregistered dialect `bench`:
//! functions whose bodies nest ops with one or two regions (with block
//! arguments) up to three deep, ops with 0, 1 and 2 results, attributes of
//! every kind, and arrays whose sizes are SSA values (`!fut.array<[%n][4]f32>`).

use std::alloc::{GlobalAlloc, Layout, System};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use futmlir_dialects::ir::{Context, PrintOptions};

// ----- a counting allocator -------------------------------------------------

/// Wraps the system allocator, tracking live and peak heap bytes.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(n: usize) {
    let now = LIVE.fetch_add(n, Ordering::Relaxed) + n;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let p = System.alloc(l);
        if !p.is_null() {
            grew(l.size());
        }
        p
    }
    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(l);
        if !p.is_null() {
            grew(l.size());
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        System.dealloc(p, l);
        LIVE.fetch_sub(l.size(), Ordering::Relaxed);
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        let q = System.realloc(p, l, new);
        if !q.is_null() {
            if new >= l.size() {
                grew(new - l.size());
            } else {
                LIVE.fetch_sub(l.size() - new, Ordering::Relaxed);
            }
        }
        q
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

fn live() -> usize {
    LIVE.load(Ordering::Relaxed)
}

// ----- the generator ----------------------------------------------------------

/// xorshift64: deterministic, so every run benchmarks the same text.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Names in scope, by type. Arrays carry their size's name.
#[derive(Clone, Default)]
struct Scope {
    ints: Vec<String>,
    floats: Vec<String>,
    arrays: Vec<(String, String)>,
}

fn pick<T: Clone>(rng: &mut Rng, xs: &[T]) -> T {
    // Prefer recent values, as real code does.
    let k = xs.len().min(6);
    xs[xs.len() - 1 - rng.below(k)].clone()
}

fn push_recent<T>(xs: &mut Vec<T>, x: T) {
    xs.push(x);
    if xs.len() > 12 {
        xs.remove(0);
    }
}

fn array_ty(n: &str) -> String {
    format!("!fut.array<[{n}][4]f32>")
}

struct Gen {
    out: String,
    rng: Rng,
    next: u32,
    ops: usize,
    funcs: usize,
}

impl Gen {
    fn fresh(&mut self) -> String {
        self.next += 1;
        format!("%{}", self.next - 1)
    }

    fn indent(&mut self, depth: usize) {
        for _ in 0..depth {
            self.out.push_str("  ");
        }
    }

    fn func(&mut self) {
        let i = self.funcs;
        self.funcs += 1;
        self.ops += 2; // the function and its return
        self.out.push_str("  \"bench.func\"() ({\n");
        let (n, x, a) = (self.fresh(), self.fresh(), self.fresh());
        let aty = array_ty(&n);
        let _ = writeln!(self.out, "  ^bb0({n}: i64, {x}: f32, {a}: {aty}):");
        let mut scope = Scope {
            ints: vec![n.clone()],
            floats: vec![x],
            arrays: vec![(a.clone(), n)],
        };
        let body = 40 + self.rng.below(40);
        self.block(&mut scope, 0, 2, body);
        let (ra, rn) = pick(&mut self.rng, &scope.arrays);
        let rty = array_ty(&rn);
        let _ = writeln!(self.out, "    \"bench.return\"({ra}) : ({rty}) -> ()");
        let _ = writeln!(
            self.out,
            "  }}) {{sym_name = \"f{i}\", function_type = (i64, f32) -> tuple<i64, f32>, \
             inline = false}} : () -> ()"
        );
    }

    /// `count` ops at nesting level `level`, printed at `depth` indentation.
    fn block(&mut self, scope: &mut Scope, level: usize, depth: usize, count: usize) {
        for _ in 0..count {
            self.op(scope, level, depth);
        }
    }

    fn op(&mut self, s: &mut Scope, level: usize, depth: usize) {
        self.ops += 1;
        self.indent(depth);
        let nested = level < 3 && self.rng.below(100) < if level == 0 { 12 } else { 20 };
        let kind = if nested {
            8 + self.rng.below(2)
        } else {
            self.rng.below(8)
        };
        match kind {
            0 => {
                let r = self.fresh();
                let v = self.rng.below(1000);
                let _ = writeln!(self.out, "{r} = \"bench.const\"() {{value = {v} : i64}} : () -> i64");
                push_recent(&mut s.ints, r);
            }
            1 => {
                let r = self.fresh();
                let v = self.rng.below(1000) as f64 / 8.0;
                let _ = writeln!(
                    self.out,
                    "{r} = \"bench.fconst\"() {{value = {v:?} : f32, tag = \"c\"}} : () -> f32"
                );
                push_recent(&mut s.floats, r);
            }
            2 => {
                let (a, b) = (pick(&mut self.rng, &s.ints), pick(&mut self.rng, &s.ints));
                let r = self.fresh();
                let _ = writeln!(self.out, "{r} = \"bench.add\"({a}, {b}) {{nsw}} : (i64, i64) -> i64");
                push_recent(&mut s.ints, r);
            }
            3 => {
                let (a, b) = (pick(&mut self.rng, &s.floats), pick(&mut self.rng, &s.floats));
                let r = self.fresh();
                let _ = writeln!(
                    self.out,
                    "{r} = \"bench.fmul\"({a}, {b}) {{fastmath = #bench.fastmath<fast>}} : (f32, f32) -> f32"
                );
                push_recent(&mut s.floats, r);
            }
            4 => {
                let (a, b) = (pick(&mut self.rng, &s.ints), pick(&mut self.rng, &s.ints));
                let r = self.fresh();
                let _ = writeln!(
                    self.out,
                    "{r}:2 = \"bench.divmod\"({a}, {b}) : (i64, i64) -> (i64, i64)"
                );
                push_recent(&mut s.ints, format!("{r}#0"));
                push_recent(&mut s.ints, format!("{r}#1"));
            }
            5 => {
                let n = pick(&mut self.rng, &s.ints);
                let r = self.fresh();
                let ty = array_ty(&n);
                let _ = writeln!(
                    self.out,
                    "{r} = \"bench.alloc\"({n}) {{align = 64 : i64, space = \"device\", elem = f32}} : (i64) -> {ty}"
                );
                push_recent(&mut s.arrays, (r, n));
            }
            6 => {
                let (a, n) = pick(&mut self.rng, &s.arrays);
                let (x, i) = (pick(&mut self.rng, &s.floats), pick(&mut self.rng, &s.ints));
                let ty = array_ty(&n);
                let _ = writeln!(
                    self.out,
                    "\"bench.store\"({a}, {x}, {i}) {{dims = [0 : i64, 1 : i32], meta = {{checked = true, callee = @f0}}}} : ({ty}, f32, i64) -> ()"
                );
            }
            7 => {
                let (a, n) = pick(&mut self.rng, &s.arrays);
                let i = pick(&mut self.rng, &s.ints);
                let (r, q) = (self.fresh(), self.fresh());
                let ty = array_ty(&n);
                let _ = writeln!(self.out, "{r} = \"bench.load\"({a}, {i}) : ({ty}, i64) -> f32");
                push_recent(&mut s.floats, r);
                self.ops += 1;
                self.indent(depth);
                let _ = writeln!(self.out, "{q} = \"bench.size\"({a}) {{dim = 0 : i64}} : ({ty}) -> i64");
                push_recent(&mut s.ints, q);
            }
            8 => {
                // A map: one region whose block takes an element and an index.
                let (a, n) = pick(&mut self.rng, &s.arrays);
                let ty = array_ty(&n);
                let r = self.fresh();
                let _ = writeln!(self.out, "{r} = \"bench.map\"({a}) ({{");
                let (e, i) = (self.fresh(), self.fresh());
                self.indent(depth);
                let _ = writeln!(self.out, "^bb0({e}: f32, {i}: i64):");
                let mut inner = s.clone();
                push_recent(&mut inner.floats, e);
                push_recent(&mut inner.ints, i);
                let k = 2 + self.rng.below(5);
                self.block(&mut inner, level + 1, depth + 1, k);
                self.yield_float(&mut inner, depth + 1);
                self.indent(depth);
                let _ = writeln!(
                    self.out,
                    "}}) {{kernel = \"map\", tile = [32 : i64, 8 : i64]}} : ({ty}) -> {ty}"
                );
                push_recent(&mut s.arrays, (r, n));
            }
            _ => {
                // An if: two regions, the second with a block argument.
                let c = pick(&mut self.rng, &s.ints);
                let x = pick(&mut self.rng, &s.floats);
                let r = self.fresh();
                let _ = writeln!(self.out, "{r} = \"bench.if\"({c}, {x}) ({{");
                let mut then = s.clone();
                let k = 1 + self.rng.below(4);
                self.block(&mut then, level + 1, depth + 1, k);
                self.yield_float(&mut then, depth + 1);
                self.indent(depth);
                let p = self.fresh();
                let _ = writeln!(self.out, "}}, {{\n{}^bb0({p}: f32):", "  ".repeat(depth));
                let mut els = s.clone();
                push_recent(&mut els.floats, p);
                let k = 1 + self.rng.below(4);
                self.block(&mut els, level + 1, depth + 1, k);
                self.yield_float(&mut els, depth + 1);
                self.indent(depth);
                let _ = writeln!(
                    self.out,
                    "}}) {{weights = [0.25 : f64, 7.5e-01 : f32], hint = @f0}} : (i64, f32) -> f32"
                );
                push_recent(&mut s.floats, r);
            }
        }
    }

    fn yield_float(&mut self, s: &mut Scope, depth: usize) {
        self.ops += 1;
        self.indent(depth);
        let y = pick(&mut self.rng, &s.floats);
        let _ = writeln!(self.out, "\"bench.yield\"({y}) : (f32) -> ()");
    }
}

/// A generic-form module of about `n` ops (the module included).
fn generate(n: usize) -> (String, usize) {
    let mut g = Gen {
        out: String::with_capacity(n * 110),
        rng: Rng(0x9E37_79B9_7F4A_7C15),
        next: 0,
        ops: 1,
        funcs: 0,
    };
    g.out.push_str("\"builtin.module\"() ({\n");
    while g.ops < n {
        g.func();
    }
    g.out.push_str("}) : () -> ()\n");
    (g.out, g.ops)
}

// ----- measuring --------------------------------------------------------------

fn fresh_ctx() -> Context {
    let mut ctx = futmlir_dialects::context();
    ctx.allow_unregistered = true;
    ctx
}

struct Run {
    parse: Duration,
    verify: Duration,
    print: Duration,
    ops: usize,
    bytes_per_op: f64,
    arena_per_op: f64,
    peak: usize,
    printed_len: usize,
}

fn run_once(text: &str) -> Run {
    let mut ctx = fresh_ctx();
    let before = live();
    PEAK.store(before, Ordering::Relaxed);
    let t = Instant::now();
    let m = ctx
        .parse_str("bench.mlir", text)
        .unwrap_or_else(|d| panic!("generated text does not parse: {}", d.to_plain(&ctx)));
    let parse = t.elapsed();
    // The context keeps a copy of the source text (for diagnostics); that is
    // the input, not the IR.
    let after = live();
    let peak = PEAK.load(Ordering::Relaxed) - before;
    let ops = ctx.count_ops(m);
    let t = Instant::now();
    if let Err(es) = ctx.verify(m) {
        panic!("generated module does not verify: {}", es[0].to_plain(&ctx));
    }
    let verify = t.elapsed();
    let t = Instant::now();
    let printed = ctx.print_op(m, PrintOptions::generic());
    let print = t.elapsed();
    Run {
        parse,
        verify,
        print,
        ops,
        bytes_per_op: (after - before).saturating_sub(text.len()) as f64 / ops as f64,
        arena_per_op: ctx.arena_bytes() as f64 / ops as f64,
        peak,
        printed_len: printed.len(),
    }
}

struct External {
    wall: Duration,
    ok: bool,
    max_rss_kb: Option<u64>,
    stderr: String,
}

fn run_mlir_opt(path: &PathBuf, file: &PathBuf) -> Option<External> {
    if !path.exists() {
        return None;
    }
    let time = PathBuf::from("/usr/bin/time");
    let mut cmd = if time.exists() {
        let mut c = Command::new(time);
        c.arg("-v").arg(path);
        c
    } else {
        Command::new(path)
    };
    cmd.arg("--allow-unregistered-dialect")
        .arg(file)
        .arg("-o")
        .arg("/dev/null");
    let t = Instant::now();
    let out = cmd.output().ok()?;
    let wall = t.elapsed();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let max_rss_kb = stderr
        .lines()
        .find_map(|l| l.trim().strip_prefix("Maximum resident set size (kbytes):"))
        .and_then(|v| v.trim().parse().ok());
    Some(External {
        wall,
        ok: out.status.success(),
        max_rss_kb,
        stderr,
    })
}

fn rate(ops: usize, d: Duration) -> String {
    let r = ops as f64 / d.as_secs_f64();
    if r >= 1e6 {
        format!("{:.2} M ops/s", r / 1e6)
    } else {
        format!("{:.0} k ops/s", r / 1e3)
    }
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1e3)
}

fn main() {
    let mut n = 200_000usize;
    let mut mlir_opt = PathBuf::from("/usr/lib/llvm-22/bin/mlir-opt");
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--mlir-opt" {
            mlir_opt = PathBuf::from(args.next().expect("--mlir-opt needs a path"));
        } else {
            n = a.parse().expect("usage: ir_bench [N] [--mlir-opt PATH]");
        }
    }

    let (text, generated) = generate(n);
    let file = std::env::temp_dir().join(format!("futmlir_ir_bench_{}.mlir", std::process::id()));
    std::fs::write(&file, &text).expect("cannot write the benchmark file");
    println!(
        "input: {} ({} ops generated, {:.1} MiB, {:.0} bytes/op of text)",
        file.display(),
        generated,
        text.len() as f64 / (1 << 20) as f64,
        text.len() as f64 / generated as f64
    );

    let runs: Vec<Run> = (0..3).map(|_| run_once(&text)).collect();
    let ops = runs[0].ops;
    let best = |f: fn(&Run) -> Duration| runs.iter().map(f).min().expect("three runs");
    let (parse, verify, print) = (best(|r| r.parse), best(|r| r.verify), best(|r| r.print));
    let r0 = &runs[0];

    println!(
        "ops (count_ops): {ops}; printed generic text: {:.1} MiB",
        r0.printed_len as f64 / (1 << 20) as f64
    );
    println!();
    println!("| phase (best of 3) | time | rate | target |");
    println!("|---|---|---|---|");
    let ok = |d: Duration| {
        if ops as f64 / d.as_secs_f64() >= 1e6 {
            "met"
        } else {
            "MISSED"
        }
    };
    println!(
        "| parse  | {} | {} | >= 1 M ops/s: {} |",
        ms(parse),
        rate(ops, parse),
        ok(parse)
    );
    println!("| verify | {} | {} | |", ms(verify), rate(ops, verify));
    println!(
        "| print (generic) | {} | {} | >= 1 M ops/s: {} |",
        ms(print),
        rate(ops, print),
        ok(print)
    );
    let mem_ok = if r0.bytes_per_op <= 200.0 { "met" } else { "MISSED" };
    println!(
        "| memory after parse | {:.0} bytes/op | arena {:.0} bytes/op | <= 200 bytes/op: {mem_ok} |",
        r0.bytes_per_op, r0.arena_per_op
    );
    println!(
        "| peak heap during parse | {:.1} MiB | {:.0} bytes/op | |",
        r0.peak as f64 / (1 << 20) as f64,
        r0.peak as f64 / ops as f64
    );
    match run_mlir_opt(&mlir_opt, &file) {
        None => println!("| mlir-opt | not found at {} | | |", mlir_opt.display()),
        Some(e) => {
            let rss = e
                .max_rss_kb
                .map_or("?".to_string(), |k| format!("{:.1} MiB", k as f64 / 1024.0));
            println!(
                "| mlir-opt parse+verify+print | {} | {} | peak RSS {rss}{} |",
                ms(e.wall),
                rate(ops, e.wall),
                if e.ok { "" } else { ", REJECTED the file" }
            );
            if !e.ok {
                let tail: String = e.stderr.lines().take(10).collect::<Vec<_>>().join("\n");
                println!("mlir-opt failed:\n{tail}");
            }
        }
    }
    let _ = std::fs::remove_file(&file);
}
