//! `futmlir dataset`: random input values, like `futhark dataset`.
//!
//! `futmlir dataset -g '[1000][3]f32' -g i64` prints one random value per
//! `-g`, one a line, in the text format (`-b`: the binary format). Integers
//! are uniform over their type, floats over `[0, 1]`, unless a
//! `--<type>-bounds=lo:hi` option says otherwise; `-s` seeds the generator.
//! Without `-g`, the values on stdin (text, binary or mixed) are printed in
//! the chosen format instead: `futmlir dataset -b < in.txt > in.bin`.

use std::io::{Read, Write};
use std::process::ExitCode;

use futmlir_frontend::types::PrimType;
use futmlir_frontend::values::{self, generate, Bounds, Rng, Value};

#[derive(clap::Args)]
pub struct DatasetArgs {
    /// Generate a random value of this type, e.g. `[1000][3]f32` (repeatable).
    #[arg(short = 'g', long = "generate", value_name = "TYPE")]
    generate: Vec<String>,
    /// Print in the binary format.
    #[arg(short = 'b', long, conflicts_with = "text")]
    binary: bool,
    /// Print in the text format (the default).
    #[arg(long)]
    text: bool,
    /// Seed of the random generator.
    #[arg(short = 's', long, value_name = "SEED", default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    bounds: BoundsArgs,
}

/// `--i8-bounds=lo:hi` ... `--f64-bounds=lo:hi`.
#[derive(clap::Args)]
struct BoundsArgs {
    /// Inclusive bounds of generated i8 values.
    #[arg(long = "i8-bounds", value_name = "LO:HI", allow_hyphen_values = true)]
    i8: Option<String>,
    /// Inclusive bounds of generated i16 values.
    #[arg(long = "i16-bounds", value_name = "LO:HI", allow_hyphen_values = true)]
    i16: Option<String>,
    /// Inclusive bounds of generated i32 values.
    #[arg(long = "i32-bounds", value_name = "LO:HI", allow_hyphen_values = true)]
    i32: Option<String>,
    /// Inclusive bounds of generated i64 values.
    #[arg(long = "i64-bounds", value_name = "LO:HI", allow_hyphen_values = true)]
    i64: Option<String>,
    /// Inclusive bounds of generated u8 values.
    #[arg(long = "u8-bounds", value_name = "LO:HI", allow_hyphen_values = true)]
    u8: Option<String>,
    /// Inclusive bounds of generated u16 values.
    #[arg(long = "u16-bounds", value_name = "LO:HI", allow_hyphen_values = true)]
    u16: Option<String>,
    /// Inclusive bounds of generated u32 values.
    #[arg(long = "u32-bounds", value_name = "LO:HI", allow_hyphen_values = true)]
    u32: Option<String>,
    /// Inclusive bounds of generated u64 values.
    #[arg(long = "u64-bounds", value_name = "LO:HI", allow_hyphen_values = true)]
    u64: Option<String>,
    /// Bounds of generated f16 values (default 0:1).
    #[arg(long = "f16-bounds", value_name = "LO:HI", allow_hyphen_values = true)]
    f16: Option<String>,
    /// Bounds of generated f32 values (default 0:1).
    #[arg(long = "f32-bounds", value_name = "LO:HI", allow_hyphen_values = true)]
    f32: Option<String>,
    /// Bounds of generated f64 values (default 0:1).
    #[arg(long = "f64-bounds", value_name = "LO:HI", allow_hyphen_values = true)]
    f64: Option<String>,
}

impl BoundsArgs {
    fn to_bounds(&self) -> Result<Bounds, String> {
        let given = [
            (PrimType::I8, &self.i8),
            (PrimType::I16, &self.i16),
            (PrimType::I32, &self.i32),
            (PrimType::I64, &self.i64),
            (PrimType::U8, &self.u8),
            (PrimType::U16, &self.u16),
            (PrimType::U32, &self.u32),
            (PrimType::U64, &self.u64),
            (PrimType::F16, &self.f16),
            (PrimType::F32, &self.f32),
            (PrimType::F64, &self.f64),
        ];
        let mut bounds = Bounds::default();
        for (t, spec) in given {
            if let Some(spec) = spec {
                bounds
                    .set(t, spec)
                    .map_err(|e| format!("--{t}-bounds={spec}: {}", e.message))?;
            }
        }
        Ok(bounds)
    }
}

fn values_of(a: &DatasetArgs) -> Result<Vec<Value>, String> {
    let bounds = a.bounds.to_bounds()?;
    if a.generate.is_empty() {
        let mut input = Vec::new();
        std::io::stdin()
            .read_to_end(&mut input)
            .map_err(|e| format!("reading stdin: {e}"))?;
        return values::read_values(&input).map_err(|e| format!("<stdin>:{e}"));
    }
    let mut rng = Rng::new(a.seed);
    a.generate
        .iter()
        .map(|spec| generate(spec, &mut rng, &bounds).map_err(|e| format!("-g {spec}: {}", e.message)))
        .collect()
}

pub fn main(a: DatasetArgs) -> ExitCode {
    let vs = match values_of(&a) {
        Ok(vs) => vs,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let out = if a.binary {
        values::write_binary_values(&vs)
    } else {
        values::values_to_text(&vs).into_bytes()
    };
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout.write_all(&out).and_then(|()| stdout.flush()) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("error: writing stdout: {e}");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
