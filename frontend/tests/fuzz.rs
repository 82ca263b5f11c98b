//! Mutation fuzzing of the lexer, parser and type checker: mutated test
//! programs must give diagnostics, never panics.
//!
//! By default a quick deterministic run (a few thousand cases). For a long
//! run: `FUTMLIR_FUZZ_SECS=600 cargo test --release -p futmlir-frontend
//! --test fuzz -- --nocapture` (prints the number of executions).

use futmlir_frontend::values::generate::Rng;
use std::path::Path;
use std::time::{Duration, Instant};

use futmlir_frontend::check;
use futmlir_frontend::span::SourceMap;

fn seeds() -> Vec<String> {
    let mut out = vec![check::PRELUDE.to_string()];
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/programs");
    let mut stack = vec![root];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else { continue };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "fut") {
                if let Ok(t) = std::fs::read_to_string(&p) {
                    out.push(t);
                }
            }
        }
    }
    out.sort();
    out
}

const FRAGMENTS: &[&str] = &[
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "let",
    "in",
    "if",
    "then",
    "else",
    "loop",
    "for",
    "do",
    "while",
    "\\",
    "->",
    "=",
    ",",
    ".",
    "..",
    "...",
    ":",
    ":>",
    "*",
    "+",
    "-",
    "|>",
    "with",
    "def",
    "entry",
    "type",
    "'a",
    "[n]",
    "i32",
    "f32",
    "0",
    "1i64",
    "2.5f32",
    "0x",
    "\"",
    "'",
    "#[",
    "`",
    "_",
    "!",
    "==",
    "&&",
    "map",
    "reduce",
    "x",
    "xs",
    "\n",
    " ",
    "match",
    "case",
    "#some",
    "#none",
    "|",
    "-1",
    "module",
    "module type",
    "val",
    "open",
    "local",
    "include",
    "import \"x\"",
    "M.",
    ".(",
    "with t = i32",
    "{ type t }",
    "module M = { def x = 1 }",
    "F(M)",
    "(P: S)",
    "(P: S) -> T",
    "\\(P: S) -> ",
    "x M.+ y",
];

fn mutate(rng: &mut Rng, text: &str) -> String {
    let mut b: Vec<u8> = text.as_bytes().to_vec();
    for _ in 0..1 + rng.index(4) {
        let pos = rng.index(b.len() + 1);
        match rng.index(5) {
            0 if !b.is_empty() => {
                let end = (pos + 1 + rng.index(12)).min(b.len());
                b.drain(pos.min(b.len())..end);
            }
            1 => {
                let f = FRAGMENTS[rng.index(FRAGMENTS.len())];
                b.splice(pos..pos, f.bytes());
            }
            2 if !b.is_empty() => {
                let p = pos.min(b.len() - 1);
                b[p] = (rng.next_u64() & 0x7f) as u8;
            }
            3 if b.len() > 2 => {
                // Duplicate a chunk somewhere else.
                let s = rng.index(b.len() - 1);
                let e = (s + 1 + rng.index(40)).min(b.len());
                let chunk = b[s..e].to_vec();
                let at = rng.index(b.len());
                b.splice(at..at, chunk);
            }
            _ => {
                let f = FRAGMENTS[rng.index(FRAGMENTS.len())];
                b.splice(pos..pos, f.bytes());
            }
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

#[test]
fn mutated_programs_never_panic() {
    let secs: u64 = std::env::var("FUTMLIR_FUZZ_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let budget = if secs > 0 {
        Duration::from_secs(secs)
    } else {
        Duration::from_secs(4)
    };
    let max_cases = if secs > 0 { usize::MAX } else { 3000 };
    let seeds = seeds();
    let mut rng = Rng::new(
        std::env::var("FUTMLIR_FUZZ_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(1),
    );
    let start = Instant::now();
    let mut n = 0usize;
    while n < max_cases && start.elapsed() < budget {
        let seed = &seeds[rng.index(seeds.len())];
        let text = mutate(&mut rng, seed);
        let t2 = text.clone();
        let r = std::panic::catch_unwind(move || {
            let mut sm = SourceMap::default();
            let f = sm.add("fuzz.fut", t2);
            let _ = check::check_file(&mut sm, f);
        });
        if r.is_err() {
            panic!("the frontend panicked on this input:\n{text}");
        }
        n += 1;
    }
    println!(
        "fuzz: {n} executions in {:.1} s, no panics",
        start.elapsed().as_secs_f64()
    );
}
