//! The context behind `struct futrt_ctx *`: the back end (CPU or CUDA),
//! the memory pool, the program's error messages and the error recorded
//! by `futrt_fail`, `futrt_launch` or `futrt_sync`, the log (`-L`) and
//! the profiler (`-P`; Note [Logging and profiling] in `profile`).

use std::ffi::{c_void, CString};
use std::io::Write;
use std::time::Instant;

use crate::cpu::Cpu;
use crate::cuda::Cuda;
use crate::pool::Pool;
use crate::profile::Profiler;
use crate::program::Program;
use crate::settings::Settings;

enum Backend {
    Cpu(Cpu),
    Cuda(Cuda),
}

pub struct Ctx {
    // `pool` is released into `backend` by `drop` before the back end goes.
    pool: Pool,
    backend: Backend,
    messages: Vec<String>,
    error: Option<String>,
    /// The tuning parameters' values (`crate::params`).
    params: Vec<i64>,
    /// In the server, an error inside an entry point ends the call, not
    /// the process. See Note [Entry point failures in the server].
    recover: bool,
    /// `-L`.
    log: bool,
    /// `-D`: wait for every kernel after its launch.
    debug: bool,
    profiler: Profiler,
}

/// Writes one line of the log (`-L`) to stderr. See Note [Logging and
/// profiling].
pub fn log_line(line: std::fmt::Arguments) {
    eprintln!("[futmlir] {line}");
}

/// The payload that [`Ctx::fail`] unwinds with in the server: the error
/// message of a failed entry point.
pub struct EntryFailure(pub String);

// Note [Entry point failures in the server]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Generated host code never looks at what `futrt_fail`, `futrt_sync` or
// `futrt_alloc` return: after a failed bounds check or assertion it has
// no way to unwind (ABI.md), so the plain executable ends the process
// there. The server must answer `%%% FAILURE` and go on. It does so by
// unwinding: `Ctx::fail` with `recover` set calls `resume_unwind` with an
// `EntryFailure` (no panic hook runs, nothing is printed), the ABI's
// functions are `extern "C-unwind"`, and the server's call of the entry
// point catches it (`invoke::invoke`). The generated code's frames in
// between have unwind tables (LLVM emits them for every function that
// may throw, and nothing marks ours `nounwind`) and no cleanups, so
// unwinding merely pops them. The blocks the entry point allocated
// before it failed are found by comparing the pool's live blocks with
// those of before the call, and freed. Outside the server (`recover`
// unset) an error still ends the process with `Error: ...` and status 1,
// as ABI.md says.

/// Prints `Error: MESSAGE` on stderr and ends the process with status 1:
/// for the ABI's functions that have no way to report an error.
pub fn fatal(message: &str) -> ! {
    let _ = std::io::stdout().flush();
    eprintln!("Error: {message}");
    std::process::exit(1)
}

pub use futmlir_values::format_template as format_message;

impl Ctx {
    /// The context for `program`: CUDA when it has PTX, else the CPU.
    pub fn new(program: &Program, settings: &Settings) -> Result<Ctx, String> {
        let profiler = Profiler::new(settings.profile);
        if settings.log {
            let values: Vec<String> = crate::params::PARAMS
                .iter()
                .zip(&settings.params)
                .map(|(p, v)| format!("{}={v}", p.name))
                .collect();
            log_line(format_args!("tuning parameters: {}", values.join(", ")));
        }
        let backend = match (&program.ptx, &settings.load_ptx) {
            (None, Some(_)) => {
                return Err("--load-ptx: this program was compiled for the CPU, which runs no PTX".into())
            }
            (None, None) => {
                if settings.log {
                    log_line(format_args!("context on the CPU"));
                    if settings.device.is_some() {
                        log_line(format_args!("-d is ignored: the CPU target has one device, the host"));
                    }
                    if settings.cache_file.is_some() {
                        log_line(format_args!(
                            "--cache-file is unused: the CPU target compiles nothing at start-up"
                        ));
                    }
                }
                Backend::Cpu(Cpu::new())
            }
            (Some(ptx), None) => Backend::Cuda(Cuda::new(ptx, &program.kernel_names, settings, &profiler)?),
            (Some(_), Some(path)) => {
                let text =
                    std::fs::read(path).map_err(|e| format!("--load-ptx: cannot read {}: {e}", path.display()))?;
                let ptx = CString::new(text)
                    .map_err(|_| format!("--load-ptx: {} holds a NUL byte, so it is not PTX", path.display()))?;
                if settings.log {
                    log_line(format_args!("using the PTX of {}", path.display()));
                }
                Backend::Cuda(Cuda::new(&ptx, &program.kernel_names, settings, &profiler)?)
            }
        };
        Ok(Ctx {
            pool: Pool::default(),
            backend,
            messages: program.messages.clone(),
            error: None,
            params: settings.params.clone(),
            recover: false,
            log: settings.log,
            debug: settings.debug,
            profiler,
        })
    }

    /// Logging is on (`-L`).
    pub fn logging(&self) -> bool {
        self.log
    }

    /// The profiler, for events timed on the host (an entry point call).
    pub fn profiler(&mut self) -> &mut Profiler {
        &mut self.profiler
    }

    /// `pause_profiling` (true) and `unpause_profiling` (false).
    pub fn set_profiling_paused(&mut self, paused: bool) {
        self.profiler.set_paused(paused);
        if let Backend::Cuda(b) = &mut self.backend {
            b.set_profiling(self.profiler.recording());
        }
    }

    /// Reads the device's timed launches and copies into the profiler.
    fn drain_events(&mut self) -> Result<(), String> {
        match &mut self.backend {
            Backend::Cpu(_) => Ok(()),
            Backend::Cuda(b) => b.drain_events(&mut self.profiler),
        }
    }

    /// The JSON of `futhark_context_report` and the server's `report`:
    /// the peak memory and the profiling events.
    pub fn report(&mut self) -> Result<String, String> {
        self.drain_events()?;
        Ok(self.profiler.report(self.pool.peak()))
    }

    /// The `-P` table of the events so far.
    pub fn profile_summary(&mut self) -> Result<String, String> {
        self.drain_events()?;
        Ok(self.profiler.summary())
    }

    /// Records a copy of `bytes` on the CPU that began at `start`.
    fn cpu_copy_event(&mut self, name: &str, bytes: usize, start: Option<Instant>) {
        if let Some(start) = start {
            self.profiler.host_event(name, format!("{bytes} bytes"), start);
        }
    }

    /// Makes errors inside entry points end the call instead of the
    /// process. See Note [Entry point failures in the server].
    pub fn set_recover(&mut self, recover: bool) {
        self.recover = recover;
    }

    pub fn recovers(&self) -> bool {
        self.recover
    }

    /// The end of an entry point that cannot go on: the process's end
    /// (`fatal`), or in the server an unwind to the runtime's call of the
    /// entry point. See Note [Entry point failures in the server].
    pub fn fail(&self, message: &str) -> ! {
        if self.recover {
            std::panic::resume_unwind(Box::new(EntryFailure(message.to_string())))
        }
        fatal(message)
    }

    /// Sets tuning parameter `NAME=VALUE` for the calls that follow.
    pub fn set_param(&mut self, setting: &str) -> Result<(), String> {
        crate::params::set(&mut self.params, setting)
    }

    /// The blocks handed out and not freed.
    pub fn live_blocks(&self) -> std::collections::HashSet<usize> {
        self.pool.live_blocks()
    }

    /// Gives the free lists' blocks back to the back end and starts the
    /// peak memory count again from what is held now (Futhark's
    /// `futhark_context_clear_caches`).
    pub fn clear_caches(&mut self) {
        match &mut self.backend {
            Backend::Cpu(b) => self.pool.trim(b),
            Backend::Cuda(b) => self.pool.trim(b),
        }
        self.pool.reset_peak();
    }

    /// Tuning parameter number `k` (`crate::params::PARAMS`).
    pub fn param(&self, k: i32) -> Option<i64> {
        usize::try_from(k).ok().and_then(|k| self.params.get(k).copied())
    }

    /// Records `message` unless an error is recorded already (the first is
    /// the cause); returns 1, the ABI's failure code.
    pub fn record(&mut self, message: String) -> i32 {
        self.error.get_or_insert(message);
        1
    }

    /// The recorded error, which is cleared.
    pub fn take_error(&mut self) -> Option<String> {
        self.error.take()
    }

    /// Message number `msg` with its arguments.
    pub fn message(&self, msg: i32, args: &[i64]) -> String {
        match usize::try_from(msg).ok().and_then(|m| self.messages.get(m)) {
            Some(template) => format_message(template, args),
            None => format!("error message number {msg}, which the program does not have (arguments {args:?})"),
        }
    }

    pub fn alloc(&mut self, bytes: usize) -> Result<usize, String> {
        let taken = self.pool.taken();
        let addr = match &mut self.backend {
            Backend::Cpu(b) => self.pool.alloc(b, bytes),
            Backend::Cuda(b) => self.pool.alloc(b, bytes),
        }?;
        if self.log && self.pool.taken() != taken {
            log_line(format_args!(
                "memory pool: {bytes} bytes asked for, {} taken from the {}, {} held in all",
                self.pool.block_size(addr).unwrap_or(bytes),
                match self.backend {
                    Backend::Cpu(_) => "host",
                    Backend::Cuda(_) => "device",
                },
                self.pool.taken()
            ));
        }
        Ok(addr)
    }

    /// The most memory held at once so far, in bytes.
    pub fn peak_memory(&self) -> usize {
        self.pool.peak()
    }

    pub fn free(&mut self, addr: usize) -> Result<(), String> {
        self.pool.free(addr)
    }

    /// The size of `addr`, memory from [`Ctx::alloc`] not freed yet.
    pub fn block_size(&self, addr: usize) -> Option<usize> {
        self.pool.block_size(addr)
    }

    /// Copies within the target's memory.
    ///
    /// # Safety
    ///
    /// Both ranges must be valid target memory for `bytes` bytes.
    pub unsafe fn copy(&mut self, dst: usize, src: usize, bytes: usize) -> Result<(), String> {
        let start = self.profiler.recording().then(Instant::now);
        match &mut self.backend {
            // SAFETY: by this function's contract.
            Backend::Cpu(b) => {
                unsafe { b.copy(dst, src, bytes) };
                self.cpu_copy_event("copy_dev_to_dev", bytes, start);
                Ok(())
            }
            // SAFETY: by this function's contract.
            Backend::Cuda(b) => unsafe { b.copy(dst, src, bytes) },
        }
    }

    /// Copies from the target's memory at `src` to the host at `dst`.
    ///
    /// # Safety
    ///
    /// `dst` must be valid host memory and `src` target memory for `bytes`.
    pub unsafe fn read(&mut self, dst: *mut u8, src: usize, bytes: usize) -> Result<(), String> {
        let start = self.profiler.recording().then(Instant::now);
        match &mut self.backend {
            // SAFETY: by this function's contract.
            Backend::Cpu(b) => {
                unsafe { b.copy(dst as usize, src, bytes) };
                self.cpu_copy_event("copy_dev_to_host", bytes, start);
                Ok(())
            }
            // SAFETY: by this function's contract.
            Backend::Cuda(b) => unsafe { b.read(dst, src, bytes) },
        }
    }

    /// Copies from the host at `src` to the target's memory at `dst`.
    ///
    /// # Safety
    ///
    /// `src` must be valid host memory and `dst` target memory for `bytes`.
    pub unsafe fn write(&mut self, dst: usize, src: *const u8, bytes: usize) -> Result<(), String> {
        let start = self.profiler.recording().then(Instant::now);
        match &mut self.backend {
            // SAFETY: by this function's contract.
            Backend::Cpu(b) => {
                unsafe { b.copy(dst, src as usize, bytes) };
                self.cpu_copy_event("copy_host_to_dev", bytes, start);
                Ok(())
            }
            // SAFETY: by this function's contract.
            Backend::Cuda(b) => unsafe { b.write(dst, src, bytes) },
        }
    }

    /// Launches a kernel (CUDA only).
    ///
    /// # Safety
    ///
    /// As [`Cuda::launch`].
    pub unsafe fn launch(
        &mut self,
        kernel: i32,
        grid: [i64; 3],
        block: [i64; 3],
        shared_bytes: i64,
        args: *mut *mut c_void,
    ) -> Result<(), String> {
        match &mut self.backend {
            Backend::Cpu(_) => Err(format!("kernel launch on the CPU target (kernel number {kernel})")),
            // SAFETY: by this function's contract.
            Backend::Cuda(b) => unsafe { b.launch(kernel, grid, block, shared_bytes, args) },
        }?;
        if self.debug {
            // `-D`: an error of the kernel surfaces here, not at a later
            // wait, so it is the kernel's.
            let name = match &self.backend {
                Backend::Cuda(b) => b.kernel_name(kernel).to_string(),
                Backend::Cpu(_) => kernel.to_string(),
            };
            self.sync()
                .map_err(|e| format!("kernel {name} (grid {grid:?}, block {block:?}) failed: {e}"))?;
        }
        Ok(())
    }

    /// Waits for the device; the formatted message when a kernel (or, on
    /// the CPU, host code) reported an error in the error buffer.
    pub fn sync(&mut self) -> Result<(), String> {
        let buf = match &mut self.backend {
            Backend::Cpu(b) => b.take_error(),
            Backend::Cuda(b) => b.sync()?,
        };
        self.drain_events()?;
        match buf {
            None => Ok(()),
            Some(buf) => Err(self.message(buf[0].wrapping_sub(1).try_into().unwrap_or(-1), &buf[1..])),
        }
    }

    /// The error buffer's address in the target's memory.
    pub fn error_buffer(&self) -> usize {
        match &self.backend {
            Backend::Cpu(b) => b.error_buffer(),
            Backend::Cuda(b) => b.error_buffer(),
        }
    }
}

impl Drop for Ctx {
    fn drop(&mut self) {
        match &mut self.backend {
            Backend::Cpu(b) => self.pool.release_all(b),
            Backend::Cuda(b) => self.pool.release_all(b),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_messages() {
        assert_eq!(
            format_message("Index [{0}] out of bounds for array of shape [{1}].", &[7, -3]),
            "Index [7] out of bounds for array of shape [-3]."
        );
        assert_eq!(format_message("{1}{0}{1}", &[1, 2]), "212");
        assert_eq!(format_message("{2} {x} {} {0", &[5]), "{2} {x} {} {0");
        assert_eq!(format_message("{{0}}", &[5]), "{0}");
        assert_eq!(format_message("{{{0}}}", &[5]), "{5}");
        assert_eq!(format_message("{99999999999999999999}", &[5]), "{99999999999999999999}");
        assert_eq!(format_message("é{0}ü", &[i64::MIN]), "é-9223372036854775808ü");
    }

    fn cpu_program() -> Program {
        Program {
            entries: vec![],
            opaques: vec![],
            ptx: None,
            kernel_names: vec![],
            messages: vec!["bad {0} and {1}".into()],
        }
    }

    #[test]
    fn cpu_context() {
        let mut ctx = Ctx::new(&cpu_program(), &Settings::default()).unwrap();
        let a = ctx.alloc(10).unwrap();
        assert_eq!(a % 256, 0);
        let data = [1u8, 2, 3, 4];
        let mut back = [0u8; 4];
        // SAFETY: the block holds 256 bytes; the host buffers 4.
        unsafe {
            ctx.write(a, data.as_ptr(), 4).unwrap();
            ctx.copy(a + 4, a, 4).unwrap();
            ctx.read(back.as_mut_ptr(), a + 4, 4).unwrap();
        }
        assert_eq!(back, data);
        ctx.free(a).unwrap();
        // SAFETY: no arguments are read on the CPU.
        let e = unsafe { ctx.launch(0, [1; 3], [1; 3], 0, std::ptr::null_mut()) }.unwrap_err();
        assert!(e.starts_with("kernel launch on the CPU target"), "{e}");
        assert_eq!(ctx.record("first".into()), 1);
        ctx.record("second".into());
        assert_eq!(ctx.take_error().as_deref(), Some("first"));
        assert_eq!(ctx.message(0, &[4, 5]), "bad 4 and 5");
        assert!(ctx.message(3, &[]).contains("number 3"));
        ctx.sync().unwrap();
        let buf = ctx.error_buffer() as *mut i64;
        // SAFETY: the CPU's error buffer holds ERROR_WORDS values.
        unsafe {
            *buf = 1;
            *buf.add(1) = 10;
            *buf.add(2) = 20;
        }
        assert_eq!(ctx.sync().unwrap_err(), "bad 10 and 20");
        ctx.sync().unwrap();
    }

    #[test]
    fn cuda_without_a_driver_is_an_error() {
        let mut p = cpu_program();
        p.ptx = Some(c".version 8.0".into());
        // On a machine with a GPU this may succeed; without one it must be
        // a clear error, not a panic.
        if let Err(e) = Ctx::new(&p, &Settings::default()) {
            assert!(
                e.contains("CUDA") || e.contains("cu"),
                "unexpected error without a driver: {e}"
            );
        }
    }
}
