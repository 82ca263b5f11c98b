//! Code generation: MLIR text (from `imp_to_mlir`) → MLIR's conversions
//! to the LLVM dialect (melior) → LLVM IR → an object file (inkwell) →
//! an executable linked with the runtime (`runtime-cuda`).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};

use inkwell::context::Context as LlvmContext;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{CodeModel, FileType, InitializationConfig, RelocMode, Target, TargetMachine};
use inkwell::OptimizationLevel;
use melior::dialect::DialectRegistry;
use melior::ir::operation::OperationLike;
use melior::ir::Module;
use melior::pass::PassManager;
use melior::utility::{
    parse_pass_pipeline, register_all_dialects, register_all_llvm_translations, register_all_passes,
};

/// MLIR's conversions for host code, in order: expand the `arith` ops
/// LLVM has no instruction for (`floordivsi`), `math` to LLVM intrinsics and what is left to libm, then
/// structured control flow to branches and everything to the LLVM
/// dialect.
pub const HOST_PIPELINE: &str = "builtin.module(arith-expand,convert-math-to-llvm,convert-math-to-libm,convert-scf-to-cf,convert-arith-to-llvm,convert-cf-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts)";

/// MLIR's conversions for the kernels (inside the `gpu.module`), then
/// NVPTX code generation into a `gpu.binary` holding PTX for `chip`.
/// With `libdevice`, `math` ops become calls of its functions, linked in
/// (only those used); without it they become LLVM intrinsics, which
/// NVPTX selects for the functions of `imp_to_mlir`'s `KERNEL_MATH`.
pub fn device_pipeline(chip: &str, libdevice: Option<&Path>) -> String {
    let (link, math) = match libdevice {
        Some(p) => (format!(" l={}", p.display()), ""),
        None => (String::new(), "convert-math-to-llvm,"),
    };
    format!(
        "builtin.module(nvvm-attach-target{{chip={chip} O=3{link}}},gpu.module(arith-expand,convert-scf-to-cf,{math}convert-gpu-to-nvvm,reconcile-unrealized-casts),gpu-module-to-binary{{format=isa}})"
    )
}

/// The PTX of a device module (`imp_to_mlir`'s `device`) for `chip`,
/// linked with `libdevice` if given.
pub fn device_ptx(text: &str, chip: &str, libdevice: Option<&Path>) -> Result<String, String> {
    let printed = run_mlir(text, &device_pipeline(chip, libdevice), |_, m, _| {
        Ok(m.as_operation().to_string())
    })?;
    // `gpu.binary @futmlir_kernels [#gpu.object<..., assembly = "...">]`
    let key = "assembly = \"";
    let start = printed.find(key).ok_or("MLIR made no PTX for the kernels")? + key.len();
    let end = printed[start..].find('"').ok_or("MLIR's PTX has no end")? + start;
    Ok(unescape_mlir(&printed[start..end]))
}

/// CUDA's libdevice (`libdevice.10.bc`), for the maths functions of
/// kernels: `FUTMLIR_LIBDEVICE` if set (an error if it does not exist),
/// else `nvvm/libdevice/` under `CUDA_HOME`, `CUDA_PATH`, `CUDA_ROOT` or
/// `/usr/local/cuda`, Debian's `/usr/lib/nvidia-cuda-toolkit/libdevice/`,
/// or the copy `scripts/fetch-ptxas.sh` unpacks into `target/ptxas/`
/// (found from the `futmlir` executable in `target/<profile>/`).
pub fn find_libdevice() -> Result<Option<PathBuf>, String> {
    const FILE: &str = "libdevice.10.bc";
    if let Some(p) = std::env::var_os("FUTMLIR_LIBDEVICE") {
        let p = PathBuf::from(p);
        return if p.is_file() {
            Ok(Some(p))
        } else {
            Err(format!("FUTMLIR_LIBDEVICE names {}, which is not a file", p.display()))
        };
    }
    let mut candidates: Vec<PathBuf> = ["CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"]
        .iter()
        .filter_map(std::env::var_os)
        .map(PathBuf::from)
        .chain([PathBuf::from("/usr/local/cuda")])
        .map(|d| d.join("nvvm/libdevice").join(FILE))
        .collect();
    candidates.push(Path::new("/usr/lib/nvidia-cuda-toolkit/libdevice").join(FILE));
    if let Ok(exe) = std::env::current_exe() {
        for d in exe.ancestors().skip(1).take(3) {
            candidates.push(d.join("ptxas/nvidia/cuda_nvcc/nvvm/libdevice").join(FILE));
        }
    }
    Ok(candidates.into_iter().find(|p| p.is_file()))
}

/// Undoes MLIR's string escapes (`\XX` hex bytes).
fn unescape_mlir(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' {
            if let Some(x) = s.get(i + 1..i + 3).and_then(|h| u8::from_str_radix(h, 16).ok()) {
                out.push(x);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Runs `pipeline` on the MLIR module `text`, adds `after` (LLVM-dialect
/// ops that refer to the converted functions, such as the program
/// descriptor) to it, and translates the result to LLVM IR text.
pub fn mlir_to_llvm_ir(text: &str, pipeline: &str, after: &str) -> Result<String, String> {
    run_mlir(text, pipeline, |context, module, collected| {
        let joined;
        let module = if after.is_empty() {
            module
        } else {
            let converted = module.as_operation().to_string();
            let end = converted.rfind('}').ok_or("the converted module has no end")?;
            joined = Module::parse(context, &format!("{}{after}}}\n", &converted[..end]))
                .ok_or_else(|| collected("MLIR did not parse the descriptor"))?;
            &joined
        };
        // SAFETY: the module is a verified LLVM-dialect module; the
        // returned C string is ours, released with `free`.
        unsafe {
            let raw = mlir_sys::mlirTranslateModuleToLLVMIRToString(module.as_operation().to_raw());
            if raw.is_null() {
                return Err(collected("the translation to LLVM IR failed"));
            }
            let s = std::ffi::CStr::from_ptr(raw).to_string_lossy().into_owned();
            libc_free(raw as *mut std::ffi::c_void);
            Ok(s)
        }
    })
}

/// Parses `text`, runs `pipeline` on it and gives the result to `then`
/// (with a function that renders MLIR's diagnostics under a heading).
fn run_mlir<T>(
    text: &str,
    pipeline: &str,
    then: impl FnOnce(&melior::Context, &Module, &dyn Fn(&str) -> String) -> Result<T, String>,
) -> Result<T, String> {
    let registry = DialectRegistry::new();
    register_all_dialects(&registry);
    register_all_passes();
    let context = melior::Context::new();
    context.append_dialect_registry(&registry);
    context.load_all_available_dialects();
    register_all_llvm_translations(&context);
    let messages = Arc::new(Mutex::new(Vec::<String>::new()));
    let sink = messages.clone();
    context.attach_diagnostic_handler(move |d| {
        if let Ok(mut m) = sink.lock() {
            m.push(format!("{}: {d}", d.location()));
        }
        true
    });
    let collected = |what: &str| {
        let m = messages.lock().map(|m| m.join("\n")).unwrap_or_default();
        format!("{what}:\n{m}")
    };
    let mut module = Module::parse(&context, text).ok_or_else(|| collected("MLIR did not parse the module"))?;
    if !module.as_operation().verify() {
        return Err(collected("the MLIR module does not verify"));
    }
    let pm = PassManager::new(&context);
    parse_pass_pipeline(pm.as_operation_pass_manager(), pipeline)
        .map_err(|e| format!("bad MLIR pipeline `{pipeline}`: {e}"))?;
    pm.run(&mut module).map_err(|_| collected("MLIR's conversion failed"))?;
    then(&context, &module, &collected)
}

extern "C" {
    #[link_name = "free"]
    fn libc_free(p: *mut std::ffi::c_void);
}

/// Optimises LLVM IR for the host and writes an object file.
pub fn host_object(ir: &str, path: &Path) -> Result<(), String> {
    Target::initialize_native(&InitializationConfig::default()).map_err(|e| format!("LLVM: {e}"))?;
    let llvm = LlvmContext::create();
    let buf = MemoryBuffer::create_from_memory_range_copy(ir.as_bytes(), "futmlir");
    let module = llvm
        .create_module_from_ir(buf)
        .map_err(|e| format!("LLVM did not read the translated module: {e}"))?;
    let triple = TargetMachine::get_default_triple();
    let target = Target::from_triple(&triple).map_err(|e| format!("LLVM: {e}"))?;
    let cpu = TargetMachine::get_host_cpu_name();
    let features = TargetMachine::get_host_cpu_features();
    let tm = target
        .create_target_machine(
            &triple,
            cpu.to_str().unwrap_or("generic"),
            features.to_str().unwrap_or(""),
            OptimizationLevel::Aggressive,
            RelocMode::PIC,
            CodeModel::Default,
        )
        .ok_or("LLVM could not make a target machine for the host")?;
    module.set_triple(&triple);
    module.set_data_layout(&tm.get_target_data().get_data_layout());
    module
        .run_passes("default<O3>", &tm, PassBuilderOptions::create())
        .map_err(|e| format!("LLVM's optimisation failed: {e}"))?;
    tm.write_to_file(&module, FileType::Object, path)
        .map_err(|e| format!("LLVM could not write {}: {e}", path.display()))
}

/// The static library of the runtime: `FUTMLIR_RUNTIME` if set, else
/// the newest of `libfutmlir_runtime_cuda.a` beside the `futmlir`
/// executable (cargo puts both in `target/<profile>/`) or one folder up
/// (test binaries run from `target/<profile>/deps/`) and the
/// `libfutmlir_runtime_cuda-<hash>.a` that cargo leaves in
/// `target/<profile>/deps/`.
pub fn find_runtime() -> Result<PathBuf, String> {
    if let Some(p) = std::env::var_os("FUTMLIR_RUNTIME") {
        return Ok(PathBuf::from(p));
    }
    find_artifact("libfutmlir_runtime_cuda", ".a")
}

/// The runtime as a shared library (`libfutmlir_runtime_cuda.so`, which
/// cargo puts beside the static one; `FUTMLIR_RUNTIME_SO` overrides).
pub fn find_runtime_shared() -> Result<PathBuf, String> {
    if let Some(p) = std::env::var_os("FUTMLIR_RUNTIME_SO") {
        return Ok(PathBuf::from(p));
    }
    find_artifact("libfutmlir_runtime_cuda", ".so")
}

/// The newest of `<stem><ext>` beside the `futmlir` executable or one
/// folder up and the `<stem>*<ext>` in their `deps/` folders (where cargo
/// leaves hashed copies). The newest, because cargo updates the copy
/// beside the executable only when it builds the runtime's package
/// itself: `cargo test -p futmlir` rebuilds only the hashed one, and the
/// other would be stale.
fn find_artifact(stem: &str, ext: &str) -> Result<PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot locate futmlir: {e}"))?;
    let name = format!("{stem}{ext}");
    let dirs: Vec<PathBuf> = exe.ancestors().skip(1).take(2).map(Path::to_path_buf).collect();
    let beside = dirs.iter().map(|d| d.join(&name)).filter(|p| p.exists());
    let hashed = dirs
        .iter()
        .filter_map(|d| std::fs::read_dir(d.join("deps")).ok())
        .flatten()
        .filter_map(Result::ok)
        .filter(|e| {
            let n = e.file_name().to_string_lossy().into_owned();
            n.starts_with(stem) && n.ends_with(ext)
        })
        .map(|e| e.path());
    let newest = beside
        .chain(hashed)
        .filter_map(|p| Some((std::fs::metadata(&p).ok()?.modified().ok()?, p)))
        .max();
    newest.map(|(_, p)| p).ok_or_else(|| {
        format!(
            "cannot find the runtime library {name} beside {}; build it with `cargo build --release` or set FUTMLIR_RUNTIME",
            exe.display()
        )
    })
}

/// Links an object with the runtime into an executable: statically, or
/// (`dynamic`) against the shared runtime, looked for beside the
/// executable when it runs.
pub fn link(object: &Path, out: &Path, dynamic: bool) -> Result<(), String> {
    let runtime = if dynamic {
        find_runtime_shared()?
    } else {
        find_runtime()?
    };
    let linker = c_compiler()?;
    let mut cmd = Command::new(linker);
    cmd.arg(object);
    if dynamic {
        let dir = runtime.parent().unwrap_or(Path::new("."));
        cmd.arg("-L")
            .arg(dir)
            .arg("-l:libfutmlir_runtime_cuda.so")
            .arg("-Wl,-rpath,$ORIGIN")
            .arg("-lm");
    } else {
        cmd.arg(&runtime)
            .args(["-lpthread", "-ldl", "-lm", "-lgcc_s", "-lutil", "-lrt", "-lc"]);
    }
    let output = cmd
        .arg("-o")
        .arg(out)
        .output()
        .map_err(|e| format!("cannot run {linker}: {e}"))?;
    if !output.status.success() {
        return Err(format!("linking failed:\n{}", String::from_utf8_lossy(&output.stderr)));
    }
    Ok(())
}

/// The C compiler driver that links: clang-22, clang or cc.
fn c_compiler() -> Result<&'static str, String> {
    ["clang-22", "clang", "cc"]
        .into_iter()
        .find(|c| Command::new(c).arg("--version").output().is_ok())
        .ok_or_else(|| "no C compiler driver to link with (clang-22, clang or cc)".to_string())
}

/// Runs `cmd`; its stderr is the error when it fails.
fn run_tool(mut cmd: Command, what: &str) -> Result<(), String> {
    let output = cmd.output().map_err(|e| format!("cannot run {what}: {e}"))?;
    if !output.status.success() {
        return Err(format!("{what} failed:\n{}", String::from_utf8_lossy(&output.stderr)));
    }
    Ok(())
}

/// Links a program's C library (Note [The C library] in the runtime):
/// the host object, the generated C `source` of the `futhark_*` functions
/// (compiled here) and the runtime's static library, into the shared
/// library `shared` and the static library `archive`, each exporting only
/// `exports`, so that it needs nothing beside it (but, for the archive,
/// the system libraries of [`LIBRARY_LINK_ARGS`]) and two such libraries
/// can live in one process.
pub fn link_library(
    object: &Path,
    source: &str,
    exports: &[String],
    shared: &Path,
    archive: &Path,
) -> Result<(), String> {
    let runtime = find_runtime()?;
    let cc = c_compiler()?;
    let dir = tempfile::tempdir().map_err(|e| format!("cannot make a temporary folder: {e}"))?;
    let c_file = dir.path().join("api.c");
    let api = dir.path().join("api.o");
    let script = dir.path().join("exports.map");
    let list = dir.path().join("exports.txt");
    std::fs::write(&c_file, source).map_err(|e| format!("cannot write {}: {e}", c_file.display()))?;
    let globals: String = exports.iter().map(|e| format!("    {e};\n")).collect();
    std::fs::write(&script, format!("{{\n  global:\n{globals}  local: *;\n}};\n"))
        .map_err(|e| format!("cannot write {}: {e}", script.display()))?;
    std::fs::write(&list, exports.join("\n") + "\n").map_err(|e| format!("cannot write {}: {e}", list.display()))?;
    let mut compile = Command::new(cc);
    compile
        .args(["-c", "-fPIC", "-O2", "-std=c99"])
        .arg(&c_file)
        .arg("-o")
        .arg(&api);
    run_tool(compile, "compiling the library's C functions")?;

    let mut link = Command::new(cc);
    link.arg("-shared")
        .arg(&api)
        .arg(object)
        .arg(&runtime)
        .arg(format!("-Wl,--version-script={}", script.display()))
        .args(LIBRARY_LINK_ARGS)
        .arg("-o")
        .arg(shared);
    run_tool(link, "linking the shared library")?;

    // The archive: one relocatable object with what it needs of the
    // runtime pulled in (`ld -r`), every symbol but the API's made local.
    let combined = dir.path().join("combined.o");
    let mut partial = Command::new("ld");
    partial
        .arg("-r")
        .arg(&api)
        .arg(object)
        .arg(&runtime)
        .arg("-o")
        .arg(&combined);
    run_tool(partial, "ld -r (the static library)")?;
    let mut hide = Command::new("objcopy");
    hide.arg(format!("--keep-global-symbols={}", list.display()))
        .arg(&combined);
    run_tool(hide, "objcopy (the static library)")?;
    let _ = std::fs::remove_file(archive);
    // LLVM's archiver: GNU ar's plugin aborts on the Rust objects' LLVM
    // sections ("Invalid encoding").
    let archiver = ["llvm-ar-22", "llvm-ar"]
        .into_iter()
        .find(|c| Command::new(c).arg("--version").output().is_ok())
        .ok_or("no llvm-ar-22 or llvm-ar to make the static library with")?;
    let mut ar = Command::new(archiver);
    ar.arg("rcs").arg(archive).arg(&combined);
    run_tool(ar, archiver)
}

/// The system libraries that a program's C library needs: a program
/// linking the static one passes them too.
pub const LIBRARY_LINK_ARGS: &[&str] = &["-lpthread", "-ldl", "-lm", "-lgcc_s", "-lutil", "-lrt", "-lc"];
