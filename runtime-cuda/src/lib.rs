//! The host runtime linked into every futmlir executable, built as the
//! static library `libfutmlir_runtime_cuda.a` (and as the shared library
//! `libfutmlir_runtime_cuda.so`, which the CUDA test bundles use to stay
//! small). `ABI.md` is its contract with the generated code.
//!
//! A tour:
//!
//! - [`abi`]: the `#[repr(C)]` program descriptor and the `extern "C"`
//!   functions (`futrt_main`, `futrt_alloc`, ..., `futrt_fail`); thin
//!   shells over the context.
//! - `run`: `futrt_main` itself: the command line (`cli`), the arguments
//!   read from stdin and checked against the entry point's types, copied to
//!   the target (`marshal`), the timed runs, the results read back and
//!   printed.
//! - `invoke`: one call of an entry point, shared by `run` and `server`:
//!   the arguments as the ABI lays them out, the timed call, the results
//!   checked; in the server, a failing entry point ends only its call.
//! - [`library`]: the C library of `futmlir build --library`: Futhark's
//!   C API over the context, and the generation of each program's header,
//!   wrappers and manifest (Note [The C library]).
//! - `var`: values held between calls (a scalar, an array in the target's
//!   memory, an opaque value's components) and one call of an entry point
//!   on them, shared by the server and the C library.
//! - `server`: `prog --server`, Futhark's server protocol on stdin and
//!   stdout, with a store of variables whose arrays stay in the target's
//!   memory between calls, and whose values of opaque types (records,
//!   sum types) are their components (Note [Values in the server]); its
//!   array commands in `server/array_commands.rs`.
//! - `arrays`: elements of arrays of primitive and of opaque types
//!   (`index`, `set`, `new_array`, `shape`), for the server and the C
//!   library.
//! - `program`: the descriptor read once into owned, checked Rust values,
//!   with each entry point's interface: how its components group into
//!   values of opaque types (`ABI.md`, "Entry point interfaces").
//! - `context`: the context behind `struct futrt_ctx *`: the back end,
//!   the memory pool, the error messages with their `{i}` placeholders, the
//!   recorded error.
//! - The back ends, chosen by whether the program has PTX: `cpu` (host
//!   memory, no kernels) and `cuda` (the CUDA driver through `cudarc`,
//!   loaded at run time, so no CUDA is needed to build or link; it sets
//!   the device heap and stack of programs whose GPU threads allocate or
//!   recurse, Note [The device heap]).
//! - `pool`: the free-list memory pool over either back end's allocator.
//! - `settings`: what a context starts with (tuning parameters, `-L`,
//!   `-D`, `-P`, `--cache-file`, `-d`, `--load-ptx`), the same for the
//!   executable, the server and the C library; `params`: the tuning
//!   parameters and tuning files.
//! - `profile`: the log and the profiling events, their `-P` table and
//!   their JSON report (Note [Logging and profiling]); `module_cache`:
//!   the CUDA module kept in `--cache-file` (Note [The module cache]).
//!
//! Beyond the letter of `ABI.md`: on the CPU target `futrt_error_buffer`
//! gives a host `int64_t[ERROR_WORDS]` that `futrt_sync` checks like the device's; a
//! CUDA launch whose grid has a zero dimension launches nothing; the
//! command line also takes Futhark's long spellings (`--entry-point=X`,
//! `--runs=N`, `--write-runtime-to=FILE`, `--binary-output`,
//! `--no-print-result`) and grouped short options (`-bn`, `-emain`).
//!
//! Linking: the static library needs the native libraries of
//! [`LINK_ARGS`] (what `cargo rustc -p futmlir-runtime-cuda --release --
//! --print native-static-libs` prints); `libcuda` is not among them, it is
//! opened with `dlopen` when a CUDA program starts:
//!
//! ```text
//! clang prog.o libfutmlir_runtime_cuda.a -ldl -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc
//! ```

pub mod abi;
mod arrays;
mod cli;
mod context;
mod cpu;
mod cuda;
mod invoke;
pub mod library;
mod marshal;
mod module_cache;
mod params;
mod pool;
mod profile;
mod program;
mod run;
mod server;
mod settings;
mod var;

pub use program::{EntryDescription, Type};

/// The native libraries that an executable linking the static library
/// needs, as linker arguments (from rustc's `native-static-libs`).
/// The words (`int64_t`) of the error buffer that kernels report a
/// failure in: the message's number (plus one), then up to
/// `ERROR_WORDS - 1` arguments (the limit of `imp.assert` in kernels).
pub const ERROR_WORDS: usize = 16;

pub const LINK_ARGS: &[&str] = &["-ldl", "-lgcc_s", "-lutil", "-lrt", "-lpthread", "-lm", "-ldl", "-lc"];
