//! Parser robustness: random mutations of valid IR text must give a
//! diagnostic or IR, never a panic; IR that parses must verify or not
//! without panicking, print in both forms, parse back, and print the same.
//!
//! `FUTMLIR_FUZZ_SEED` (default fixed) and `FUTMLIR_FUZZ_ITERS` (default
//! 20,000) set the run; a failure prints the seed, the iteration and the
//! offending input.

use std::panic::{catch_unwind, AssertUnwindSafe};

use futmlir_dialects::ir::{Context, PrintOptions};

const SEEDS: &[&str] = &[
    // Generic form: regions with block arguments, every attribute kind,
    // multi-result ops, sizes in types, opaque dialect types.
    r#"
"builtin.module"() ({
  %0 = "test.const"() {value = 10 : i64} : () -> i64
  %1:2 = "test.pair"(%0) {flags = [1 : i32, "s\n\"q\"", @f, unit, {a = true}], f = 1.5 : f32, nan = 0x7FC00000 : f32, u = 18446744073709551615 : ui64, h = 0x3C00 : f16, n = -128 : i8} : (i64) -> (!fut.array<[%0][3]f32>, ui8)
  "test.region"(%1#0) ({
  ^bb0(%2: f32, %3: i1):
    %4 = "test.use"(%2, %0) : (f32, i64) -> !fut.array<[?]tuple<i32, f16>>
    "test.yield"(%4) : (!fut.array<[?]tuple<i32, f16>>) -> ()
  }, {
  ^bb0:
  }) {ty = (i32, (i32) -> i32) -> ((f32) -> f32), o = #mem.lmad<offset = 0, dims = [(n : 1)]>} : (!fut.array<[%0][3]f32>) -> ()
  %5 = "test.mem"() : () -> !mem.block<device>
  %6 = "test.fwd"(%5) : (!mem.block<device>) -> !source.record<{x: i32, y: !source.sum<#a | #b>}>
}) : () -> ()
"#,
    // Pretty form, forward references, locations, no module wrapper.
    r#"
%3 = test.size() : () -> i64 loc(unknown)
%0 = test.a(%1, %2#1) {k = "v", "quoted key" = 2.5e-3 : f64} : (i32, u8) -> [%3][4]f32 loc("x.fut":3:7)
%1 = test.b() : () -> i32
%2:2 = test.c() : () -> (bool, u8)
test.map(%0) ({
^bb0(%4: f32 loc("y.fut":1:1), %5: i64):
  %6 = test.add(%4, %4) : (f32, f32) -> f32
  test.yield(%6) : (f32) -> ()
}) {sym = @"odd name", d = {}, e = [], t = !fut.array<[%3]f32>} : ([%3][4]f32) -> ()
"#,
    // Nested regions several levels deep, an empty region, dialect types.
    r#"
"builtin.module"() ({
  "test.func"() ({
  ^bb0(%0: i64, %1: !fut.array<[%0][4]f32>):
    %2 = "test.loop"(%0) ({
    ^bb0(%3: i64):
      %4 = "test.if"(%3) ({
        %5 = "test.c"() {v = -1.0 : f32} : () -> f32
        "test.yield"(%5) : (f32) -> ()
      }, {
      ^bb0(%6: f32):
        "test.yield"(%6) : (f32) -> ()
      }) : (i64) -> f32
      "test.yield"(%4) : (f32) -> ()
    }, {
    }) : (i64) -> f32
    "test.return"(%1) : (!fut.array<[%0][4]f32>) -> ()
  }) {sym_name = "f", function_type = (i64) -> f32} : () -> ()
}) : () -> ()
"#,
];

/// Fragments that tend to reach unusual parser paths.
const TOKENS: &[&str] = &[
    "%",
    "%0",
    "%1#7",
    "%x#",
    "%0:",
    "%0:2",
    "^bb0",
    "^",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    "<",
    ">",
    "!fut.array<",
    "!fut.array<[",
    "!mem.block<",
    "!source.record<{",
    "!a.b<",
    "!",
    "#",
    "#a.b<",
    "@",
    "@\"",
    "\"",
    "\"\\",
    "\"\\q\"",
    "\\FF",
    ":",
    "->",
    ",",
    "=",
    "?",
    "*",
    "0x",
    "0x1",
    "0xFFFFFFFFFFFFFFFFFFFFFFFF",
    "-",
    "--",
    "loc(",
    "loc(unknown)",
    "loc(\"f\":1:2)",
    "0",
    "1",
    "-1",
    "4294967296",
    "18446744073709551616",
    "340282366920938463463374607431768211456",
    "99999999999999999999999999999999999999999999",
    "1.0e999",
    "1e5",
    "1.",
    ".5",
    " : i64",
    " : f16",
    " : i1",
    " : ui64",
    " : f32",
    " : bool",
    "tuple<",
    "unit",
    "true",
    "i0",
    "é",
    "∀",
    "\u{0}",
    "\n",
    "//",
    "\"t.x\"() : () -> ()",
    "({\n})",
    "test.x",
];

/// xorshift64: small, deterministic, good enough for choosing mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
    /// A range of at most `max` bytes inside `0..len`.
    fn range(&mut self, len: usize, max: usize) -> (usize, usize) {
        let a = self.below(len + 1);
        let b = (a + 1 + self.below(max)).min(len);
        (a, b)
    }
}

fn mutate(rng: &mut Rng, text: &mut Vec<u8>) {
    let len = text.len();
    match rng.below(8) {
        0 => {
            let (a, b) = rng.range(len, 16);
            text.drain(a..b);
        }
        1 => {
            let (a, b) = rng.range(len, 32);
            let piece = text[a..b].to_vec();
            let at = rng.below(len + 1);
            text.splice(at..at, piece);
        }
        2 => {
            // Swap two non-overlapping ranges.
            let (a, b) = rng.range(len, 16);
            let (c, d) = rng.range(len, 16);
            let ((a, b), (c, d)) = if a <= c { ((a, b), (c, d)) } else { ((c, d), (a, b)) };
            if b <= c {
                let second = text[c..d].to_vec();
                let first = text[a..b].to_vec();
                text.splice(c..d, first);
                text.splice(a..b, second);
            }
        }
        3 | 4 => {
            let tok = TOKENS[rng.below(TOKENS.len())].as_bytes();
            let at = rng.below(len + 1);
            text.splice(at..at, tok.iter().copied());
        }
        5 => {
            let at = rng.below(len + 1);
            text.truncate(at);
        }
        6 => {
            if len > 0 {
                let at = rng.below(len);
                const BYTES: &[u8] = b" %^!#@\"(){}[]<>:,=-?*0123456789abcxyz.\\\xC3";
                text[at] = BYTES[rng.below(BYTES.len())];
            }
        }
        _ => {
            // Replace a range with a token.
            let (a, b) = rng.range(len, 8);
            let tok = TOKENS[rng.below(TOKENS.len())].as_bytes();
            text.splice(a..b, tok.iter().copied());
        }
    }
}

fn fresh() -> Context {
    let mut ctx = futmlir_dialects::context();
    ctx.allow_unregistered = true;
    ctx
}

/// Checks one input; `Err` describes a property that failed.
fn check(text: &str) -> Result<bool, String> {
    let mut ctx = fresh();
    let Ok(m) = ctx.parse_str("fuzz.mlir", text) else {
        return Ok(false);
    };
    let _ = ctx.verify(m);
    for opts in [
        PrintOptions::generic(),
        PrintOptions::default(),
        PrintOptions {
            generic: true,
            locations: true,
        },
    ] {
        let printed = ctx.print_op(m, opts);
        let mut ctx2 = fresh();
        let m2 = ctx2.parse_str("printed.mlir", &printed).map_err(|d| {
            format!(
                "printed text ({opts:?}) does not parse: {}\n--- printed ---\n{printed}",
                d.to_plain(&ctx2)
            )
        })?;
        if opts.locations {
            continue; // the locations now name the printed file
        }
        let again = ctx2.print_op(m2, opts);
        if again != printed {
            return Err(format!(
                "print -> parse -> print differs ({opts:?})\n--- first ---\n{printed}\n--- second ---\n{again}"
            ));
        }
    }
    Ok(true)
}

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|s| s.parse().ok()).unwrap_or(default)
}

#[test]
fn seeds_round_trip() {
    for s in SEEDS {
        let mut ctx = fresh();
        if let Err(d) = ctx.parse_str("seed.mlir", s) {
            panic!("seed does not parse: {}\n{s}", d.to_plain(&ctx));
        }
        assert_eq!(check(s), Ok(true));
    }
}

#[test]
fn mutated_text_never_panics() {
    let seed = env_u64("FUTMLIR_FUZZ_SEED", 0x2545_F491_4F6C_DD1D).max(1);
    let iters = env_u64("FUTMLIR_FUZZ_ITERS", 20_000);
    let mut rng = Rng(seed);
    let start = std::time::Instant::now();
    let mut parsed = 0u64;
    for i in 0..iters {
        let mut bytes = SEEDS[rng.below(SEEDS.len())].as_bytes().to_vec();
        for _ in 0..1 + rng.below(4) {
            mutate(&mut rng, &mut bytes);
        }
        let text = String::from_utf8_lossy(&bytes).into_owned();
        match catch_unwind(AssertUnwindSafe(|| check(&text))) {
            Ok(Ok(p)) => parsed += u64::from(p),
            Ok(Err(msg)) => panic!(
                "seed {seed}, iteration {i}: {msg}\n--- input ---\n{text}\n--- input (escaped) ---\n{text:?}"
            ),
            Err(_) => panic!(
                "seed {seed}, iteration {i}: panicked (message above) on\n--- input ---\n{text}\n--- input (escaped) ---\n{text:?}"
            ),
        }
    }
    eprintln!(
        "parser fuzz: {iters} mutants, {parsed} parsed, {:.1}s (seed {seed})",
        start.elapsed().as_secs_f64()
    );
}

// ----- bugs the fuzzer found ------------------------------------------------

fn parse_print_parse(text: &str, opts: PrintOptions) -> String {
    let mut ctx = fresh();
    let m = ctx
        .parse_str("in.mlir", text)
        .unwrap_or_else(|d| panic!("{}", d.to_plain(&ctx)));
    let printed = ctx.print_op(m, opts);
    let mut ctx2 = fresh();
    let m2 = ctx2
        .parse_str("out.mlir", &printed)
        .unwrap_or_else(|d| panic!("{}\n{printed}", d.to_plain(&ctx2)));
    assert_eq!(ctx2.print_op(m2, opts), printed);
    printed
}

#[test]
fn pretty_form_quotes_op_names_that_are_not_identifiers() {
    let printed = parse_print_parse(
        "\"t.]x\"() : () -> ()\n\"t.a b\\22\"() : () -> ()\n",
        PrintOptions::default(),
    );
    assert!(printed.contains("\"t.]x\"()"), "{printed}");
    assert!(printed.contains("\"t.a b\\\"\"()"), "{printed}");
}

#[test]
fn generic_form_escapes_op_names() {
    let printed = parse_print_parse("\"t.q\\22\\\\\"() : () -> ()\n", PrintOptions::generic());
    assert!(printed.contains("\"t.q\\\"\\\\\"()"), "{printed}");
}

#[test]
fn float_overflowing_its_type_prints_as_bits() {
    let printed = parse_print_parse(
        "\"t.c\"() {a = 1.0e39 : f32, b = -1.0e39 : f32} : () -> ()\n",
        PrintOptions::generic(),
    );
    assert!(printed.contains("a = 0x7F800000 : f32"), "{printed}");
    assert!(printed.contains("b = 0xFF800000 : f32"), "{printed}");
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    for open in ["(", "[", "tuple<", "!fut.array<[1]"] {
        let text = format!("\"t.c\"() {{a = {}i32}} : () -> ()\n", open.repeat(100_000));
        let mut ctx = fresh();
        assert!(ctx.parse_str("deep.mlir", &text).is_err());
    }
    let mut text = String::new();
    for _ in 0..100_000 {
        text.push_str("\"t.r\"() ({\n");
    }
    let mut ctx = fresh();
    let d = ctx.parse_str("deep.mlir", &text).unwrap_err();
    assert!(d.message.starts_with("nesting deeper than"), "{}", d.message);
    // Nesting well within the bound still parses.
    let mut ok = String::new();
    for _ in 0..40 {
        ok.push_str("\"t.r\"() ({\n");
    }
    for _ in 0..40 {
        ok.push_str("}) : () -> ()\n");
    }
    let mut ctx = fresh();
    assert!(ctx.parse_str("ok.mlir", &ok).is_ok());
}
