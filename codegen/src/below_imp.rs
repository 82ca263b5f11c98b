//! The passes below imp (Note [Passes below imp] in the passes crate):
//! the conversions from imp IR to an executable, as registered passes, so
//! that the whole compile is one pipeline (`pipelines::compile`).
//!
//! - `imp-to-mlir{target=cpu|cuda}` (imp -> mlir): [`imp_to_mlir`]'s
//!   upstream MLIR text: host module, kernels, program descriptor;
//! - `mlir-to-ptx{chip=sm_90}` (within mlir): the kernels compiled to PTX
//!   for the chip (with CUDA's libdevice when it is found);
//! - `mlir-to-llvm{pipeline=...}` (mlir -> llvm): MLIR's conversions of
//!   the host module (the option is MLIR pipeline text, default
//!   [`codegen::HOST_PIPELINE`]) and the translation to LLVM IR;
//! - `llvm-to-object` (llvm -> object): LLVM's optimisation and the host
//!   object;
//! - `object-to-exe{shared-runtime=false}` (object -> exe): the executable, linked
//!   with the runtime, statically or against its shared library;
//! - `object-to-library` (object -> exe): instead of an executable, the
//!   program's C library (`futmlir build --library`): `OUT.so`, `OUT.a`,
//!   `OUT.h` and the manifest `OUT.json` (Note [The C library] in the runtime).
//!
//! They pass on one [`Lowered`], which the driver may seed (with where
//! the executable goes) and reads at the end: the MLIR text for
//! `--emit=mlir`, the PTX for `--emit=ptx`, the LLVM IR for
//! `--emit=llvm`.

use std::path::PathBuf;

use futmlir_dialects::ir::{Context, Diagnostic, Location, OpId};
use futmlir_passes::{Artifact, Level, OptionKind, OptionSpec, Options, Pass, PassInfo};

use futmlir_lowering::imp_to_mlir;

use crate::codegen;

/// What the passes below imp make, each adding its part.
#[derive(Default)]
pub struct Lowered {
    /// Where `object-to-exe` writes the executable; `None`: into [`Lowered::dir`]
    /// (the caller takes it from [`Lowered::exe`] before the folder goes).
    pub out: Option<PathBuf>,
    /// `imp-to-mlir`'s output.
    pub mlir: Option<imp_to_mlir::Emitted>,
    /// CUDA's libdevice, if found when the MLIR was made: the kernels may
    /// then call its functions, and `mlir-to-ptx` links it.
    pub libdevice: Option<PathBuf>,
    /// `mlir-to-ptx`'s output: the kernels' PTX.
    pub ptx: Option<String>,
    /// `mlir-to-llvm`'s output.
    pub llvm: Option<String>,
    /// `llvm-to-object`'s output.
    pub object: Option<PathBuf>,
    /// `object-to-exe`'s output.
    pub exe: Option<PathBuf>,
    /// The temporary folder of the object (and of the executable when
    /// there is no `out`).
    pub dir: Option<tempfile::TempDir>,
}

impl Lowered {
    /// A seed for a pipeline that ends in `object-to-exe`: the executable goes to
    /// `out`.
    pub fn to(out: PathBuf) -> Artifact {
        Some(Box::new(Lowered {
            out: Some(out),
            ..Lowered::default()
        }))
    }

    /// The artifact the passes below imp left, if any.
    pub fn take(artifact: &mut Artifact) -> Option<Box<Lowered>> {
        artifact.take()?.downcast::<Lowered>().ok()
    }

    /// `imp-to-mlir`'s output, for the passes that read it.
    fn mlir(&self) -> Result<&imp_to_mlir::Emitted, Diagnostic> {
        self.mlir
            .as_ref()
            .ok_or_else(|| fail("there is no MLIR: run `imp-to-mlir` before this pass"))
    }

    fn temp_dir(&mut self) -> Result<PathBuf, String> {
        if self.dir.is_none() {
            self.dir = Some(tempfile::tempdir().map_err(|e| format!("cannot make a temporary folder: {e}"))?);
        }
        Ok(self.dir.as_ref().map(|d| d.path().to_path_buf()).unwrap_or_default())
    }
}

fn fail(message: impl Into<String>) -> Diagnostic {
    Diagnostic::error(Location::Unknown, message.into())
}

/// The [`Lowered`] that the passes before left (each pass then checks
/// for the part it reads, naming the pass that makes it).
fn lowered(artifact: &mut Artifact) -> Result<&mut Lowered, Diagnostic> {
    artifact
        .as_mut()
        .and_then(|a| a.downcast_mut::<Lowered>())
        .ok_or_else(|| fail("there is nothing below imp yet: run `imp-to-mlir` before this pass"))
}

/// Passes below imp refuse to run as IR passes (`futmlir opt` gives them
/// no artifact).
fn not_on_ir(name: &str) -> Diagnostic {
    fail(format!(
        "'{name}' works below the imp level, on what the conversions to an executable pass on; `futmlir build` runs it (`futmlir opt` prints IR)"
    ))
}

macro_rules! below_imp_pass {
    ($ty:ident, $name:literal) => {
        impl Pass for $ty {
            fn run(&mut self, _: &mut Context, _: OpId) -> Result<(), Diagnostic> {
                Err(not_on_ir($name))
            }
            fn run_with_artifact(
                &mut self,
                ctx: &mut Context,
                op: OpId,
                artifact: &mut Artifact,
            ) -> Result<(), Diagnostic> {
                self.lower(ctx, op, artifact)
            }
        }
    };
}

pub const IMP_TO_MLIR: PassInfo = PassInfo {
    name: "imp-to-mlir",
    description: "Emit imp IR as upstream MLIR text: host functions, the kernels' gpu.module, the runtime's descriptor (Note [Passes below imp])",
    options: &[OptionSpec {
        name: "target",
        kind: OptionKind::Enum(&["cpu", "cuda"]),
        default: "cpu",
        help: "cuda: kernels in a gpu.module, host access to device memory through the runtime",
    }],
    reads: &[Level::Imp],
    writes: Some(Level::Mlir),
    create: &|o: &Options, _| {
        Box::new(ImpToMlir {
            cuda: o.string("target") == "cuda",
        })
    },
};

struct ImpToMlir {
    cuda: bool,
}

impl ImpToMlir {
    fn lower(&mut self, ctx: &mut Context, module: OpId, artifact: &mut Artifact) -> Result<(), Diagnostic> {
        let l = artifact
            .get_or_insert_with(|| Box::new(Lowered::default()))
            .downcast_mut::<Lowered>()
            .ok_or_else(|| fail("the pipeline already made something else below imp"))?;
        l.libdevice = if self.cuda {
            codegen::find_libdevice().map_err(fail)?
        } else {
            None
        };
        l.mlir = Some(imp_to_mlir::emit_module(ctx, module, self.cuda, l.libdevice.is_some())?);
        Ok(())
    }
}
below_imp_pass!(ImpToMlir, "imp-to-mlir");

pub const MLIR_TO_PTX: PassInfo = PassInfo {
    name: "mlir-to-ptx",
    description: "Compile the kernels' gpu.module to PTX with MLIR's NVPTX pipeline (codegen::device_pipeline)",
    options: &[OptionSpec {
        name: "chip",
        kind: OptionKind::String,
        default: "sm_90",
        help: "the GPU to generate code for",
    }],
    reads: &[Level::Mlir],
    writes: None,
    create: &|o: &Options, _| {
        Box::new(MlirToPtx {
            chip: o.string("chip").to_string(),
        })
    },
};

struct MlirToPtx {
    chip: String,
}

impl MlirToPtx {
    fn lower(&mut self, _: &mut Context, _: OpId, artifact: &mut Artifact) -> Result<(), Diagnostic> {
        let l = lowered(artifact)?;
        let Some(device) = &l.mlir()?.device else {
            // No kernels (the CPU target, or a program without any).
            return Ok(());
        };
        l.ptx = Some(codegen::device_ptx(device, &self.chip, l.libdevice.as_deref()).map_err(fail)?);
        Ok(())
    }
}
below_imp_pass!(MlirToPtx, "mlir-to-ptx");

pub const MLIR_TO_LLVM: PassInfo = PassInfo {
    name: "mlir-to-llvm",
    description:
        "Convert the host module to the LLVM dialect with an upstream MLIR pipeline and translate it to LLVM IR",
    options: &[OptionSpec {
        name: "pipeline",
        kind: OptionKind::String,
        default: codegen::HOST_PIPELINE,
        help: "upstream MLIR pass pipeline text that takes the host module to the LLVM dialect",
    }],
    reads: &[Level::Mlir],
    writes: Some(Level::Llvm),
    create: &|o: &Options, _| {
        Box::new(MlirToLlvm {
            pipeline: o.string("pipeline").to_string(),
        })
    },
};

struct MlirToLlvm {
    pipeline: String,
}

impl MlirToLlvm {
    fn lower(&mut self, _: &mut Context, _: OpId, artifact: &mut Artifact) -> Result<(), Diagnostic> {
        let l = lowered(artifact)?;
        let mlir = l.mlir()?;
        let mut descriptor = mlir.descriptor.clone();
        if mlir.device.is_some() {
            // The runtime loads the kernels from `@futrt_ptx`.
            let ptx = l
                .ptx
                .as_ref()
                .ok_or_else(|| fail("the program has kernels but no PTX: run `mlir-to-ptx` before this pass"))?;
            descriptor.push_str(&imp_to_mlir::ptx_global(ptx));
        }
        l.llvm = Some(codegen::mlir_to_llvm_ir(&mlir.text, &self.pipeline, &descriptor).map_err(fail)?);
        Ok(())
    }
}
below_imp_pass!(MlirToLlvm, "mlir-to-llvm");

pub const LLVM_TO_OBJECT: PassInfo = PassInfo {
    name: "llvm-to-object",
    description: "Optimise the LLVM IR for the host and write the host object",
    options: &[],
    reads: &[Level::Llvm],
    writes: Some(Level::Object),
    create: &|_: &Options, _| Box::new(LlvmToObject),
};

struct LlvmToObject;

impl LlvmToObject {
    fn lower(&mut self, _: &mut Context, _: OpId, artifact: &mut Artifact) -> Result<(), Diagnostic> {
        let l = lowered(artifact)?;
        let obj = l.temp_dir().map_err(fail)?.join("program.o");
        let ir = l
            .llvm
            .as_ref()
            .ok_or_else(|| fail("there is no LLVM IR: run `mlir-to-llvm` before this pass"))?;
        codegen::host_object(ir, &obj).map_err(fail)?;
        l.object = Some(obj);
        Ok(())
    }
}
below_imp_pass!(LlvmToObject, "llvm-to-object");

pub const OBJECT_TO_EXE: PassInfo = PassInfo {
    name: "object-to-exe",
    description: "Link the host object with futmlir's runtime into an executable",
    options: &[OptionSpec {
        name: "shared-runtime",
        kind: OptionKind::Bool,
        default: "false",
        help:
            "link against libfutmlir_runtime_cuda.so, found beside the executable when it runs, instead of statically",
    }],
    reads: &[Level::Object],
    writes: Some(Level::Exe),
    create: &|o: &Options, _| {
        Box::new(ObjectToExe {
            shared: o.bool("shared-runtime"),
        })
    },
};

struct ObjectToExe {
    shared: bool,
}

impl ObjectToExe {
    fn lower(&mut self, _: &mut Context, _: OpId, artifact: &mut Artifact) -> Result<(), Diagnostic> {
        let l = lowered(artifact)?;
        let obj = l
            .object
            .clone()
            .ok_or_else(|| fail("there is no host object: run `llvm-to-object` before this pass"))?;
        let out = match &l.out {
            Some(out) => out.clone(),
            None => l.temp_dir().map_err(fail)?.join("program"),
        };
        codegen::link(&obj, &out, self.shared).map_err(fail)?;
        l.exe = Some(out);
        Ok(())
    }
}
below_imp_pass!(ObjectToExe, "object-to-exe");

pub const OBJECT_TO_LIBRARY: PassInfo = PassInfo {
    name: "object-to-library",
    description: "Link the host object with futmlir's runtime into the program's C library (OUT.so and OUT.a), with its header (OUT.h) and manifest (OUT.json)",
    options: &[],
    reads: &[Level::Object],
    writes: Some(Level::Exe),
    create: &|_: &Options, _| Box::new(ObjectToLibrary),
};

struct ObjectToLibrary;

impl ObjectToLibrary {
    fn lower(&mut self, _: &mut Context, _: OpId, artifact: &mut Artifact) -> Result<(), Diagnostic> {
        let l = lowered(artifact)?;
        let obj = l
            .object
            .clone()
            .ok_or_else(|| fail("there is no host object: run `llvm-to-object` before this pass"))?;
        let mlir = l.mlir()?;
        let backend = if mlir.device.is_some() { "cuda" } else { "c" };
        let entries = mlir
            .entries
            .iter()
            .map(|e| {
                let types = |codes: &[i64]| -> Result<Vec<futmlir_runtime_cuda::Type>, Diagnostic> {
                    codes
                        .chunks(2)
                        .map(|pair| {
                            let elem = usize::try_from(pair[0])
                                .ok()
                                .and_then(|k| futmlir_values::PrimType::ALL.get(k).copied())
                                .ok_or_else(|| {
                                    fail(format!("entry point {}: element type code {}", e.name, pair[0]))
                                })?;
                            Ok(futmlir_runtime_cuda::Type {
                                elem,
                                rank: pair.get(1).copied().unwrap_or(0) as usize,
                            })
                        })
                        .collect()
                };
                Ok(futmlir_runtime_cuda::EntryDescription {
                    name: e.name.clone(),
                    ins: types(&e.in_types)?,
                    outs: types(&e.out_types)?,
                    interface: e.interface.clone(),
                })
            })
            .collect::<Result<Vec<_>, Diagnostic>>()?;
        let generated = futmlir_runtime_cuda::library::generate(entries, backend).map_err(fail)?;
        let out = match &l.out {
            Some(out) => out.clone(),
            None => l.temp_dir().map_err(fail)?.join("program"),
        };
        let with = |ext: &str| {
            let mut p = out.clone().into_os_string();
            p.push(ext);
            PathBuf::from(p)
        };
        for (ext, text) in [(".h", &generated.header), (".json", &generated.manifest)] {
            std::fs::write(with(ext), text).map_err(|e| fail(format!("cannot write {}: {e}", with(ext).display())))?;
        }
        codegen::link_library(&obj, &generated.source, &generated.exports, &with(".so"), &with(".a")).map_err(fail)?;
        l.exe = Some(with(".so"));
        Ok(())
    }
}
below_imp_pass!(ObjectToLibrary, "object-to-library");
