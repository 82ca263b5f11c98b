//! `futrt_main`: the command line, the arguments from stdin, the runs of
//! the entry point with their timing, and the results on stdout.

use std::ffi::{c_char, c_int, CStr};
use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::panic::AssertUnwindSafe;

use futmlir_values::{read_values_partial, write_binary, Value};

use crate::abi::futrt_program;
use crate::cli::{self, Command, Output};
use crate::context::Ctx;
use crate::invoke::{invoke, read_array, Arg, CtxBox, Returned};
use crate::marshal::{from_bytes, to_bytes};
use crate::program::{Entry, Program};

/// The whole executable; returns its exit status.
///
/// # Safety
///
/// As `futrt_main`: `argv` holds `argc` C strings and `program` is a valid
/// descriptor.
pub unsafe fn main(argc: c_int, argv: *const *const c_char, program: *const futrt_program) -> c_int {
    // SAFETY: forwarded from this function's contract.
    let args = unsafe { arguments(argc, argv) };
    // A panic is a bug of the runtime; it must not unwind into C.
    // SAFETY: forwarded from this function's contract.
    let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| unsafe { run(&args, program) }));
    let _ = std::io::stdout().flush();
    match outcome {
        Ok(Ok(())) => 0,
        Ok(Err(message)) => {
            eprintln!("Error: {message}");
            1
        }
        Err(_) => {
            eprintln!("Error: internal error in the runtime (it panicked)");
            1
        }
    }
}

/// `argv` as strings (invalid UTF-8 replaced).
///
/// # Safety
///
/// `argv` must be NULL or hold `argc` pointers, each NULL or a C string.
unsafe fn arguments(argc: c_int, argv: *const *const c_char) -> Vec<String> {
    let n = usize::try_from(argc).unwrap_or(0);
    if argv.is_null() {
        return Vec::new();
    }
    (0..n)
        .filter_map(|i| {
            // SAFETY: `argv` holds `argc` pointers.
            let p = unsafe { *argv.add(i) };
            // SAFETY: each non-NULL one is a C string.
            (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
        })
        .collect()
}

/// An argument, as its bytes in the target's layout.
struct Input {
    bytes: Vec<u8>,
    /// `None` for a scalar.
    shape: Option<Vec<i64>>,
}

fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// Reads the arguments of `entry` from stdin and checks them.
fn read_inputs(entry: &Entry) -> Result<Vec<Input>, String> {
    let mut stdin = Vec::new();
    std::io::stdin()
        .read_to_end(&mut stdin)
        .map_err(|e| format!("cannot read stdin: {e}"))?;
    let (values, error) = read_values_partial(&stdin);
    let (name, n) = (&entry.name, entry.ins.len());
    if let Some(e) = error {
        let k = values.len() + 1;
        let which = if k <= n {
            format!("argument {k}")
        } else {
            format!("value {k} on stdin (of {})", plural(n, "argument"))
        };
        return Err(format!(
            "entry point {name}: {which} is malformed: line {}, column {}: {}",
            e.line, e.col, e.message
        ));
    }
    if values.len() != n {
        return Err(format!(
            "entry point {name} takes {}, but {} given on stdin",
            plural(n, "argument"),
            if values.len() == 1 {
                "1 value was".to_string()
            } else {
                format!("{} values were", values.len())
            }
        ));
    }
    let mut inputs = Vec::with_capacity(n);
    for (i, (v, t)) in values.iter().zip(&entry.ins).enumerate() {
        if v.elem_type() != t.elem || v.rank() != t.rank {
            return Err(format!(
                "entry point {name}: argument {} has type {}, but a value of type {} was given",
                i + 1,
                t.name(),
                v.type_name()
            ));
        }
        let shape = match v {
            Value::Prim(_) => None,
            Value::Array(a) => Some(a.shape.iter().map(|&d| d as i64).collect()),
        };
        inputs.push(Input {
            bytes: to_bytes(v),
            shape,
        });
    }
    Ok(inputs)
}

/// The array arguments copied to the target once, before the runs: each
/// run takes a copy within the target's memory (the entry may write into
/// its arguments), so that no run waits for the host (as Futhark's
/// executables keep their inputs on the device).
fn upload(ctx: &mut CtxBox, inputs: &[Input]) -> Result<Vec<Option<usize>>, String> {
    let c = ctx.get();
    inputs
        .iter()
        .map(|input| match input.shape {
            None => Ok(None),
            Some(_) => {
                let mem = c.alloc(input.bytes.len())?;
                // SAFETY: `mem` holds at least `bytes.len()` bytes.
                unsafe { c.write(mem, input.bytes.as_ptr(), input.bytes.len()) }?;
                Ok(Some(mem))
            }
        })
        .collect()
}

/// One run: fresh copies of the arguments (from `uploaded`), the timed
/// call (with the wait for the device), then the results read back
/// (`read_back`) or dropped. Returns the time in microseconds and the
/// results.
fn run_once(
    ctx: &mut CtxBox,
    entry: &Entry,
    inputs: &[Input],
    uploaded: &[Option<usize>],
    read_back: bool,
) -> Result<(u128, Vec<Value>), String> {
    let mut args = Vec::with_capacity(inputs.len());
    for (input, &pristine) in inputs.iter().zip(uploaded) {
        match (&input.shape, pristine) {
            (Some(shape), Some(pristine)) => {
                let c = ctx.get();
                let mem = c.alloc(input.bytes.len())?;
                // SAFETY: both blocks hold at least `bytes.len()` bytes.
                unsafe { c.copy(mem, pristine, input.bytes.len()) }?;
                args.push(Arg::Array {
                    mem,
                    shape: shape.clone(),
                });
            }
            _ => args.push(Arg::Scalar(input.bytes.clone())),
        }
    }
    let (micros, results) = invoke(ctx, entry, &args)?;
    let c = ctx.get();
    let mut values = Vec::new();
    for (i, (t, result)) in entry.outs.iter().zip(results).enumerate() {
        match result {
            Returned::Scalar(bytes) => {
                if read_back {
                    values.push(from_bytes(t.elem, Vec::new(), &bytes)?);
                }
            }
            Returned::Array { mem, shape, bytes } => {
                if read_back {
                    let what = format!("entry point {}: result {}", entry.name, i + 1);
                    let buf = read_array(c, mem, bytes, &what)?;
                    values.push(from_bytes(t.elem, shape, &buf).map_err(|e| format!("{what}: {e}"))?);
                }
                c.free(mem)?;
            }
        }
    }
    for arg in args {
        if let Arg::Array { mem, .. } = arg {
            c.free(mem)?;
        }
    }
    Ok((micros, values))
}

/// Whether `t` is a tuple of primitive values, arrays of them and such
/// tuples: a value whose components, in order, a user can write.
fn is_tuple(program: &Program, t: &crate::program::OpaqueType) -> bool {
    t.kind == crate::program::OpaqueKind::Record
        && t.fields
            .iter()
            .enumerate()
            .all(|(k, f)| f.name == k.to_string() && program.opaque(&f.ty).is_none_or(|inner| is_tuple(program, inner)))
}

/// Everything `futrt_main` does; the error is the message to print.
///
/// # Safety
///
/// `program` must be a valid descriptor (see `Program::from_raw`).
unsafe fn run(args: &[String], program: *const futrt_program) -> Result<(), String> {
    // SAFETY: forwarded from this function's contract.
    let program = unsafe { Program::from_raw(program) }.map_err(|e| format!("invalid program descriptor: {e}"))?;
    let opts = match cli::parse(args.get(1..).unwrap_or(&[]))? {
        Command::Help => {
            let prog = args.first().map_or("prog", String::as_str);
            print!("{}", cli::usage(prog, &program.entry_names()));
            return Ok(());
        }
        Command::PrintParams => {
            print!("{}", crate::params::listing());
            return Ok(());
        }
        Command::Server(settings) => return crate::server::serve(&program, &settings),
        Command::DumpPtx(path) => {
            let ptx = program.ptx.as_ref().ok_or(
                "--dump-ptx: this program was compiled for the CPU (futmlir build --target=cpu), so it has no PTX",
            )?;
            return std::fs::write(&path, ptx.to_bytes())
                .map_err(|e| format!("--dump-ptx: cannot write {}: {e}", path.display()));
        }
        Command::Run(opts) => opts,
    };
    let entry = program.entry(&opts.entry).ok_or_else(|| {
        format!(
            "unknown entry point `{}`; the entry points are: {}",
            opts.entry,
            program.entry_names().join(", ")
        )
    })?;
    if let Some(why) = &entry.uncallable {
        return Err(format!("entry point {} cannot be called: {why}", entry.name));
    }
    // Values of opaque types cannot be read, and are printed as Futhark's
    // executables print them, `#<opaque TYPE>`: only in the text format.
    // A tuple is read as its components, as the interpreter reads it (Note
    // [Tuple parameters of entry points] in the frontend's interpreter):
    // what a `script input` gives for it.
    let (_, opaque_result) = entry.opaque(&program);
    let unreadable = entry
        .params
        .iter()
        .find(|p| program.opaque(&p.ty).is_some_and(|t| !is_tuple(&program, t)));
    if let Some(p) = unreadable {
        return Err(format!(
            "entry point {}: a parameter is of the opaque type `{}`, whose values cannot be read from stdin; call it from another entry point, or through the server (--server)",
            entry.name, p.ty
        ));
    }
    if let (Some(ty), true) = (&opaque_result, matches!(opts.output, Output::Binary)) {
        return Err(format!(
            "entry point {}: a result is of the opaque type `{ty}`, which has no binary form (-b)",
            entry.name
        ));
    }
    let inputs = read_inputs(entry)?;
    let mut timing = match &opts.timing_file {
        Some(path) => Some(File::create(path).map_err(|e| format!("cannot create {}: {e}", path.display()))?),
        None => None,
    };

    let mut ctx = CtxBox::new(Ctx::new(&program, &opts.settings)?);
    let mut times = Vec::new();
    let mut results = Vec::new();
    let uploaded = upload(&mut ctx, &inputs)?;
    for run in 1..=opts.runs {
        let (micros, values) = run_once(&mut ctx, entry, &inputs, &uploaded, run == opts.runs)?;
        times.push(micros);
        results = values;
    }
    if opts.memory_report {
        // The arguments' blocks count: they are the pool's too.
        eprintln!("Peak memory usage: {} bytes", ctx.get().peak_memory());
    }
    if opts.settings.profile {
        eprint!("{}", ctx.get().profile_summary()?);
    }
    drop(ctx);

    if let (Some(file), Some(path)) = (&mut timing, &opts.timing_file) {
        let text: String = times.iter().map(|t| format!("{t}\n")).collect();
        file.write_all(text.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let written = match opts.output {
        Output::Nothing => Ok(()),
        Output::Text => entry.results.iter().try_for_each(|r| match program.opaque(&r.ty) {
            Some(t) => writeln!(out, "#<opaque {}>", t.name),
            None => writeln!(out, "{}", results[r.parts.start]),
        }),
        Output::Binary => {
            let mut bytes = Vec::new();
            for v in &results {
                write_binary(v, &mut bytes);
            }
            out.write_all(&bytes)
        }
    };
    written
        .and_then(|()| out.flush())
        .map_err(|e| format!("cannot write the results: {e}"))
}
