//! `futmlir dataset`: random input values, like `futhark dataset`
//! (`futhark-docs/man/futhark-dataset.rst`).
//!
//! `futmlir dataset -g '[1000][3]f32' -g i64` prints one random value per
//! `-g`, one a line, in the text format. A `-g` may also give a value
//! literally (`-g 42i32`, `-g '[1,2,3]'`), printed as it is. Integers are
//! uniform over their type, floats over `[0, 1]`, unless a
//! `--<type>-bounds=lo:hi` option says otherwise; `-s` seeds the
//! generator. Options apply in order (Note [Dataset options in order]).
//! Without `-g`, the values on stdin (text, binary, mixed, or gzipped) are
//! printed in the chosen format instead: `futmlir dataset -b < in.txt >
//! in.bin`. `-t` prints the values' types instead of the values.

use std::io::{Read, Write};
use std::process::ExitCode;

use clap::ArgMatches;

use futmlir_frontend::types::PrimType;
use futmlir_frontend::values::{self, generate, Bounds, Rng, Value};

#[derive(clap::Args)]
pub struct DatasetArgs {
    /// Generate a random value of this type, e.g. `[1000][3]f32`, or give
    /// a value literally, e.g. `42i32` (repeatable).
    #[arg(short = 'g', long = "generate", value_name = "TYPE")]
    generate: Vec<String>,
    /// Print the following `-g`s' values in the binary format.
    #[arg(short = 'b', long, action = clap::ArgAction::Count)]
    binary: u8,
    /// Print the following `-g`s' values in the text format (the default).
    #[arg(long, action = clap::ArgAction::Count)]
    text: u8,
    /// Print the types of the values (one a line) instead of the values.
    #[arg(short = 't', long = "type")]
    types: bool,
    /// Seed of the random generator.
    #[arg(short = 's', long, value_name = "SEED", default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    bounds: BoundsArgs,
}

/// `--i8-bounds=lo:hi` ... `--f64-bounds=lo:hi`, each for the `-g`s after
/// it.
#[derive(clap::Args)]
struct BoundsArgs {
    /// Inclusive bounds of generated i8 values.
    #[arg(long = "i8-bounds", value_name = "LO:HI", allow_hyphen_values = true)]
    i8: Vec<String>,
    /// Inclusive bounds of generated i16 values.
    #[arg(long = "i16-bounds", value_name = "LO:HI", allow_hyphen_values = true)]
    i16: Vec<String>,
    /// Inclusive bounds of generated i32 values.
    #[arg(long = "i32-bounds", value_name = "LO:HI", allow_hyphen_values = true)]
    i32: Vec<String>,
    /// Inclusive bounds of generated i64 values.
    #[arg(long = "i64-bounds", value_name = "LO:HI", allow_hyphen_values = true)]
    i64: Vec<String>,
    /// Inclusive bounds of generated u8 values.
    #[arg(long = "u8-bounds", value_name = "LO:HI", allow_hyphen_values = true)]
    u8: Vec<String>,
    /// Inclusive bounds of generated u16 values.
    #[arg(long = "u16-bounds", value_name = "LO:HI", allow_hyphen_values = true)]
    u16: Vec<String>,
    /// Inclusive bounds of generated u32 values.
    #[arg(long = "u32-bounds", value_name = "LO:HI", allow_hyphen_values = true)]
    u32: Vec<String>,
    /// Inclusive bounds of generated u64 values.
    #[arg(long = "u64-bounds", value_name = "LO:HI", allow_hyphen_values = true)]
    u64: Vec<String>,
    /// Bounds of generated f16 values (default 0:1).
    #[arg(long = "f16-bounds", value_name = "LO:HI", allow_hyphen_values = true)]
    f16: Vec<String>,
    /// Bounds of generated f32 values (default 0:1).
    #[arg(long = "f32-bounds", value_name = "LO:HI", allow_hyphen_values = true)]
    f32: Vec<String>,
    /// Bounds of generated f64 values (default 0:1).
    #[arg(long = "f64-bounds", value_name = "LO:HI", allow_hyphen_values = true)]
    f64: Vec<String>,
}

// Note [Dataset options in order]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// `futhark dataset` reads its options left to right: `-b`/`--text` set the
// format of the `-g`s after them, and a `--T-bounds` the bounds of the
// `-g`s after it (`-g [10]f32 --i64-bounds=0:9 -g [100]i64`: the bounds
// apply to the second only). clap gathers each option's values apart; its
// matches keep where on the command line each occurrence was
// (`ArgMatches::indices_of`), so the options are put back in command-line
// order and applied one by one ([`steps`]). Without `-g`, the last format
// given is the format of the values read from stdin.

/// The bounds options' clap ids (their fields' names) and types.
const BOUND_IDS: [(&str, PrimType); 11] = [
    ("i8", PrimType::I8),
    ("i16", PrimType::I16),
    ("i32", PrimType::I32),
    ("i64", PrimType::I64),
    ("u8", PrimType::U8),
    ("u16", PrimType::U16),
    ("u32", PrimType::U32),
    ("u64", PrimType::U64),
    ("f16", PrimType::F16),
    ("f32", PrimType::F32),
    ("f64", PrimType::F64),
];

/// One option, in command-line order (Note [Dataset options in order]).
#[derive(Clone, Debug, PartialEq)]
enum Step {
    Generate(String),
    Binary(bool),
    Bounds(PrimType, String),
}

/// The order-sensitive options of `m`, in command-line order.
fn steps(m: &ArgMatches) -> Vec<Step> {
    // Only what the command line gave: a flag's default value has an
    // index too (after everything given).
    let given = |id: &str| m.value_source(id) == Some(clap::parser::ValueSource::CommandLine);
    let mut at: Vec<(usize, Step)> = Vec::new();
    let values = |id: &str| -> Vec<(usize, String)> {
        match (m.indices_of(id), m.get_many::<String>(id)) {
            (Some(i), Some(v)) if given(id) => i.zip(v.cloned()).collect(),
            _ => Vec::new(),
        }
    };
    at.extend(values("generate").into_iter().map(|(i, g)| (i, Step::Generate(g))));
    for (id, binary) in [("binary", true), ("text", false)] {
        let indices = m.indices_of(id).filter(|_| given(id));
        at.extend(indices.into_iter().flatten().map(|i| (i, Step::Binary(binary))));
    }
    for (id, t) in BOUND_IDS {
        at.extend(values(id).into_iter().map(|(i, b)| (i, Step::Bounds(t, b))));
    }
    at.sort_by_key(|(i, _)| *i);
    at.into_iter().map(|(_, s)| s).collect()
}

/// A `-g` value: a random value of a type, else a literal value.
fn generated(spec: &str, rng: &mut Rng, bounds: &Bounds) -> Result<Value, String> {
    let type_error = match generate(spec, rng, bounds) {
        Ok(v) => return Ok(v),
        Err(e) => e.message,
    };
    match values::parse_values(spec) {
        Ok(mut vs) if vs.len() == 1 => Ok(vs.remove(0)),
        Ok(vs) => Err(format!("-g {spec}: {} values; give one a -g", vs.len())),
        Err(_) => Err(format!("-g {spec}: neither a type ({type_error}) nor a value")),
    }
}

/// The values to print, each with whether it is printed in binary.
fn values_of(steps: &[Step], seed: u64) -> Result<Vec<(Value, bool)>, String> {
    let mut binary = false;
    let mut bounds = Bounds::default();
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for step in steps {
        match step {
            Step::Binary(b) => binary = *b,
            Step::Bounds(t, spec) => bounds
                .set(*t, spec)
                .map_err(|e| format!("--{t}-bounds={spec}: {}", e.message))?,
            Step::Generate(spec) => out.push((generated(spec, &mut rng, &bounds)?, binary)),
        }
    }
    if !steps.iter().any(|s| matches!(s, Step::Generate(_))) {
        let mut input = Vec::new();
        std::io::stdin()
            .read_to_end(&mut input)
            .map_err(|e| format!("reading stdin: {e}"))?;
        let read = values::read_values(&input).map_err(|e| format!("<stdin>:{e}"))?;
        out.extend(read.into_iter().map(|v| (v, binary)));
    }
    Ok(out)
}

pub fn main(a: DatasetArgs, m: &ArgMatches) -> ExitCode {
    let vs = match values_of(&steps(m), a.seed) {
        Ok(vs) => vs,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut out = Vec::new();
    for (v, binary) in &vs {
        if a.types {
            out.extend(format!("{}\n", v.type_name()).into_bytes());
        } else if *binary {
            out.extend(values::write_binary_values(std::slice::from_ref(v)));
        } else {
            out.extend(format!("{v}\n").into_bytes());
        }
    }
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout.write_all(&out).and_then(|()| stdout.flush()) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("error: writing stdout: {e}");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
