//! The CUDA back end, on the driver API of `cudarc` with the library loaded
//! at run time (so executables build and start without CUDA; a missing
//! driver is an error message, not a link failure).
//!
//! Set-up: load `libcuda`, `cuInit`, the device (number 0, or the one
//! `-d` picks, [`pick_device`]), its primary context made current, the
//! program's PTX loaded once as a module (with the JIT's error log in the
//! message when that fails; from `--cache-file` when it holds the module,
//! Note [The module cache] in `module_cache`), each kernel of `kernel_names`
//! resolved, and the error buffer (`int64_t[ERROR_WORDS]`, zeroed) allocated. All
//! work goes to the legacy default stream, so copies are ordered after the
//! kernels before them. Every driver call is checked, and its error names
//! the call: `cuModuleLoadDataEx failed: CUDA_ERROR_INVALID_PTX (...)`.
//! A program whose threads allocate gets a device heap of its own size
//! before any launch (Note [The device heap]). With profiling on, each
//! launch and copy is timed by a pair of CUDA events (Note [Logging and
//! profiling] in `profile`).
//!
//! **Note [The device heap].** Where memory expansion is impossible, GPU
//! threads allocate with CUDA's device `malloc` (Note [Thread
//! allocations] in the lowering crate's `segop_to_imp`), from a heap of
//! fixed size (`CU_LIMIT_MALLOC_HEAP_SIZE`, 8 MiB by default in CUDA,
//! too small for arrays in many threads) that must be set before the
//! first launch of a kernel that allocates. Such a program's PTX defines
//! the global `futrt_heap_bytes` (ABI.md); when the module has it, the
//! runtime sets the heap to `FUTMLIR_DEVICE_HEAP` bytes if set, else to a
//! quarter of the device's free memory, at most 4 GiB and at least
//! CUDA's 8 MiB, and stores the size the driver took in the global, for
//! the message of a thread whose allocation fails. The heap is device
//! memory the pool cannot use. Likewise a program with recursive device
//! functions defines `futrt_recursive`: each call takes a frame of the
//! thread's stack (1 KiB by default in CUDA, which a few levels exhaust),
//! so the runtime sets the stack (`CU_LIMIT_STACK_SIZE`) to
//! `FUTMLIR_DEVICE_STACK` bytes if set, else to [`RECURSIVE_STACK`]. The
//! driver reserves the stack for every thread that can be resident at
//! once, so it is not made larger for every program.

use std::ffi::{c_char, c_void, CStr, CString};
use std::fmt::Display;
use std::path::Path;
use std::ptr::{null, null_mut};
use std::time::Instant;

use cudarc::driver::sys::{
    self, CUdevice, CUdeviceptr, CUevent, CUfunction, CUjitInputType, CUjit_option, CUmodule, CUresult,
};

use crate::context::log_line;
use crate::module_cache;
use crate::pool::{RawError, RawMemory};
use crate::profile::{Event, Profiler};
use crate::settings::Settings;

/// The size of the error buffer: `int64_t[ERROR_WORDS]`.
const ERROR_BUF_BYTES: usize = 8 * crate::ERROR_WORDS;

/// The global a program whose threads allocate defines (Note [The
/// device heap]).
const HEAP_GLOBAL: &CStr = c"futrt_heap_bytes";
/// The global a program with recursive device functions defines.
const RECURSIVE_GLOBAL: &CStr = c"futrt_recursive";
/// The device heap's default bounds, in bytes.
const MIN_HEAP: usize = 8 << 20;
const MAX_HEAP: usize = 4 << 30;
/// The per-thread stack of a program with recursive device functions,
/// in bytes, unless `FUTMLIR_DEVICE_STACK` says otherwise.
pub const RECURSIVE_STACK: usize = 8 << 10;

/// A byte size from the environment variable `name`: digits with an
/// optional binary suffix `K`, `M` or `G`; `None` when unset.
pub fn bytes_from_env(name: &str) -> Result<Option<usize>, String> {
    match std::env::var(name) {
        Err(std::env::VarError::NotPresent) => Ok(None),
        Err(_) => Err(format!("{name} is not valid text")),
        Ok(v) => parse_bytes(&v)
            .map(Some)
            .ok_or_else(|| format!("{name}={v:?} is not a byte size (digits, optionally followed by K, M or G)")),
    }
}

/// `1048576`, `64K`, `512M`, `2G` (binary units) as bytes.
fn parse_bytes(v: &str) -> Option<usize> {
    let v = v.trim();
    let (digits, shift) = match v.char_indices().last()? {
        (k, 'k' | 'K') => (&v[..k], 10),
        (k, 'm' | 'M') => (&v[..k], 20),
        (k, 'g' | 'G') => (&v[..k], 30),
        _ => (v, 0),
    };
    let n: usize = digits.parse().ok()?;
    n.checked_mul(1usize << shift)
}

/// A launch or copy being timed: its events, read at the next wait.
struct Timed {
    name: &'static str,
    /// The kernel's name for a launch (`name` is then "kernel").
    kernel: Option<usize>,
    details: String,
    start: CUevent,
    end: CUevent,
}

pub struct Cuda {
    device: CUdevice,
    /// `-L`.
    log: bool,
    /// Launches and copies are being timed (profiling on and not paused).
    profiling: bool,
    /// With profiling on: an event recorded when the context started,
    /// which the others' times are measured from, and the host's time
    /// then. NULL otherwise.
    base: CUevent,
    base_instant: Instant,
    timed: Vec<Timed>,
    /// NULL until loaded.
    module: CUmodule,
    /// Launch index → (name, function).
    kernels: Vec<(String, CUfunction)>,
    /// 0 until allocated.
    error_buf: CUdeviceptr,
    /// Work was queued on the device since the last [`Cuda::sync`]
    /// (launches, copies within the device), so the next one must wait.
    pending: bool,
}

/// `CALL failed: NAME (DESCRIPTION)` for a driver error.
fn describe(call: impl Display, r: CUresult) -> String {
    let mut s: *const c_char = null();
    // SAFETY: the driver is loaded (every caller runs after `load_driver`);
    // cuGetErrorString stores a pointer to a static string or fails.
    let ok = unsafe { sys::cuGetErrorString(r, &mut s) } == CUresult::CUDA_SUCCESS && !s.is_null();
    if ok {
        // SAFETY: a NUL-terminated static string of the driver.
        let text = unsafe { CStr::from_ptr(s) }.to_string_lossy();
        format!("{call} failed: {r:?} ({text})")
    } else {
        format!("{call} failed: {r:?}")
    }
}

/// `Ok` for success, else the error naming `call`.
fn check(call: impl Display, r: CUresult) -> Result<(), String> {
    if r == CUresult::CUDA_SUCCESS {
        Ok(())
    } else {
        Err(describe(call, r))
    }
}

/// Loads the driver library, or says why it cannot.
fn load_driver() -> Result<(), String> {
    // `cudarc` panics when a library it opens lacks one of the functions of
    // the API it is built for (a driver older than CUDA 12.8): catch that,
    // without the panic's message.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    // SAFETY: opens the library under its usual names and looks up its
    // functions; nothing is called yet.
    let loaded = std::panic::catch_unwind(|| unsafe {
        let present = sys::is_culib_present();
        if present {
            sys::culib();
        }
        present
    });
    std::panic::set_hook(hook);
    match loaded {
        Ok(true) => Ok(()),
        Ok(false) => Err(
            "no CUDA driver: cannot load libcuda.so (is the NVIDIA driver installed, and its folder \
                          on LD_LIBRARY_PATH?)"
                .into(),
        ),
        Err(_) => Err(
            "the CUDA driver is too old: libcuda.so lacks functions of the CUDA 12.8 driver API that \
                       this runtime is built for"
                .into(),
        ),
    }
}

/// Which of the devices named `names` (in the driver's order) `-d want`
/// picks: `#K` is number K, anything else the first whose name contains
/// it.
pub fn pick_device(want: &str, names: &[String]) -> Result<usize, String> {
    let listing = || {
        names
            .iter()
            .enumerate()
            .map(|(k, n)| format!("#{k} {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if let Some(k) = want.strip_prefix('#') {
        let k: usize = k
            .parse()
            .map_err(|_| format!("-d {want}: `#` must be followed by a device number"))?;
        return if k < names.len() {
            Ok(k)
        } else {
            Err(format!(
                "-d {want}: there is no CUDA device number {k} (the devices: {})",
                listing()
            ))
        };
    }
    names.iter().position(|n| n.contains(want)).ok_or_else(|| {
        format!(
            "-d {want}: no CUDA device's name contains `{want}` (the devices: {})",
            listing()
        )
    })
}

impl Cuda {
    /// Sets up the device `settings` picks (device 0 by default) for
    /// `ptx`, with `kernel_names` resolved in order.
    pub fn new(ptx: &CStr, kernel_names: &[String], settings: &Settings, profiler: &Profiler) -> Result<Cuda, String> {
        load_driver()?;
        // SAFETY (this block and the ones below): the driver is loaded,
        // and each call gets valid pointers to write its results to.
        match unsafe { sys::cuInit(0) } {
            CUresult::CUDA_SUCCESS => {}
            CUresult::CUDA_ERROR_NO_DEVICE => {
                return Err(format!(
                    "no CUDA device found ({})",
                    describe("cuInit", CUresult::CUDA_ERROR_NO_DEVICE)
                ))
            }
            r => return Err(describe("cuInit", r)),
        }
        let mut count = 0;
        check("cuDeviceGetCount", unsafe { sys::cuDeviceGetCount(&mut count) })?;
        if count == 0 {
            return Err("no CUDA device found (cuDeviceGetCount gave 0)".into());
        }
        let mut names = Vec::new();
        for k in 0..count {
            let mut d = 0;
            check("cuDeviceGet", unsafe { sys::cuDeviceGet(&mut d, k) })?;
            let mut name = [0 as c_char; 256];
            check("cuDeviceGetName", unsafe {
                sys::cuDeviceGetName(name.as_mut_ptr(), name.len() as i32, d)
            })?;
            // SAFETY: the driver wrote a NUL-terminated name.
            names.push(unsafe { CStr::from_ptr(name.as_ptr()) }.to_string_lossy().into_owned());
        }
        let number = match &settings.device {
            Some(want) => pick_device(want, &names)?,
            None => 0,
        };
        let mut device = 0;
        check("cuDeviceGet", unsafe { sys::cuDeviceGet(&mut device, number as i32) })?;
        if settings.log {
            log_line(format_args!("using CUDA device #{number}: {}", names[number]));
        }
        let mut context = null_mut();
        check("cuDevicePrimaryCtxRetain", unsafe {
            sys::cuDevicePrimaryCtxRetain(&mut context, device)
        })?;
        // From here on `drop` releases what was set up.
        let mut cuda = Cuda {
            device,
            log: settings.log,
            profiling: false,
            base: null_mut(),
            base_instant: profiler.epoch(),
            timed: Vec::new(),
            module: null_mut(),
            kernels: Vec::with_capacity(kernel_names.len()),
            error_buf: 0,
            pending: false,
        };
        check("cuCtxSetCurrent", unsafe { sys::cuCtxSetCurrent(context) })?;
        let started = Instant::now();
        cuda.module = match &settings.cache_file {
            Some(file) => cuda.load_module_cached(ptx, file)?,
            None => load_module(ptx)?,
        };
        if cuda.log {
            log_line(format_args!(
                "module of {} kernels loaded in {:.1} ms",
                kernel_names.len(),
                started.elapsed().as_secs_f64() * 1e3
            ));
        }
        for name in kernel_names {
            let cname = CString::new(name.as_str()).map_err(|_| format!("kernel name {name:?} contains NUL"))?;
            let mut f = null_mut();
            check(format_args!("cuModuleGetFunction of kernel {name}"), unsafe {
                sys::cuModuleGetFunction(&mut f, cuda.module, cname.as_ptr())
            })?;
            cuda.kernels.push((name.clone(), f));
        }
        check("cuMemAlloc (error buffer)", unsafe {
            sys::cuMemAlloc_v2(&mut cuda.error_buf, ERROR_BUF_BYTES)
        })?;
        check("cuMemsetD8 (error buffer)", unsafe {
            sys::cuMemsetD8_v2(cuda.error_buf, 0, ERROR_BUF_BYTES)
        })?;
        cuda.set_limits()?;
        if settings.profile {
            check("cuEventCreate", unsafe { sys::cuEventCreate(&mut cuda.base, 0) })?;
            cuda.base_instant = Instant::now();
            check("cuEventRecord", unsafe { sys::cuEventRecord(cuda.base, null_mut()) })?;
            cuda.profiling = profiler.recording();
        }
        Ok(cuda)
    }

    /// The module of `ptx` from cache file `file` when it holds it, else
    /// compiled and written there. See Note [The module cache].
    fn load_module_cached(&self, ptx: &CStr, file: &Path) -> Result<CUmodule, String> {
        let attribute = |a| {
            let mut v = 0;
            // SAFETY: the device is valid; `v` is valid to write.
            check("cuDeviceGetAttribute", unsafe {
                sys::cuDeviceGetAttribute(&mut v, a, self.device)
            })
            .map(|()| v)
        };
        use sys::CUdevice_attribute::{
            CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR as MAJOR,
            CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR as MINOR,
        };
        let key = module_cache::key(ptx.to_bytes(), (attribute(MAJOR)?, attribute(MINOR)?));
        let shown = file.display();
        let miss = match std::fs::read(file) {
            Ok(bytes) => match module_cache::decode(&bytes, &key) {
                Ok(image) => match load_image(image) {
                    Ok(module) => {
                        if self.log {
                            log_line(format_args!("module loaded from cache file {shown} ({key})"));
                        }
                        return Ok(module);
                    }
                    Err(e) => e,
                },
                Err(e) => e,
            },
            Err(e) => e.to_string(),
        };
        if self.log {
            log_line(format_args!("cache file {shown} not used: {miss}; compiling the PTX"));
        }
        let image = match link_ptx(ptx) {
            Ok(image) => image,
            // The JIT's own load gives the error with its log.
            Err(e) => {
                if self.log {
                    log_line(format_args!(
                        "the driver's linker failed ({e}); loading the PTX directly"
                    ));
                }
                return load_module(ptx);
            }
        };
        let module = load_image(&image)?;
        match module_cache::write(file, &module_cache::encode(&key, &image)) {
            Ok(()) if self.log => log_line(format_args!("module written to cache file {shown}")),
            Ok(()) => {}
            Err(e) if self.log => log_line(format_args!("cannot write cache file {shown}: {e}")),
            Err(_) => {}
        }
        Ok(module)
    }

    /// Starts or stops timing launches and copies (`Ctx` follows the
    /// profiler's pauses).
    pub fn set_profiling(&mut self, on: bool) {
        self.profiling = on && !self.base.is_null();
    }

    /// Records the start event of something timed, when profiling.
    fn begin(&mut self) -> Result<Option<CUevent>, String> {
        if !self.profiling {
            return Ok(None);
        }
        let mut e = null_mut();
        // SAFETY: the context is current; `e` is valid to write.
        check("cuEventCreate", unsafe { sys::cuEventCreate(&mut e, 0) })?;
        // SAFETY: `e` was just created; the legacy default stream.
        check("cuEventRecord", unsafe { sys::cuEventRecord(e, null_mut()) })?;
        Ok(Some(e))
    }

    /// Records the end event of what [`Cuda::begin`] started.
    fn end(
        &mut self,
        start: Option<CUevent>,
        name: &'static str,
        kernel: Option<usize>,
        details: impl FnOnce() -> String,
    ) -> Result<(), String> {
        let Some(start) = start else { return Ok(()) };
        let mut end = null_mut();
        // SAFETY: as in `begin`.
        check("cuEventCreate", unsafe { sys::cuEventCreate(&mut end, 0) })?;
        // SAFETY: as in `begin`.
        check("cuEventRecord", unsafe { sys::cuEventRecord(end, null_mut()) })?;
        self.timed.push(Timed {
            name,
            kernel,
            details: details(),
            start,
            end,
        });
        Ok(())
    }

    /// The timed launches and copies since the last time, as events of
    /// `profiler` (waiting for the last of them).
    pub fn drain_events(&mut self, profiler: &mut Profiler) -> Result<(), String> {
        if self.timed.is_empty() {
            return Ok(());
        }
        let base = profiler.micros(self.base_instant);
        let mut failure = None;
        for t in std::mem::take(&mut self.timed) {
            let at = |e: CUevent| -> Result<f64, String> {
                let mut ms = 0f32;
                // SAFETY: both events were created and recorded in this
                // context; waiting for `e` makes it complete.
                check("cuEventSynchronize", unsafe { sys::cuEventSynchronize(e) })?;
                // SAFETY: as above.
                check("cuEventElapsedTime", unsafe {
                    sys::cuEventElapsedTime(&mut ms, self.base, e)
                })?;
                Ok(base + f64::from(ms) * 1e3)
            };
            match (at(t.start), at(t.end)) {
                (Ok(start), Ok(end)) => profiler.push(Event {
                    name: match t.kernel {
                        Some(k) => self.kernels[k].0.clone(),
                        None => t.name.to_string(),
                    },
                    start,
                    end,
                    details: t.details,
                }),
                (Err(e), _) | (_, Err(e)) => failure = failure.or(Some(e)),
            }
            // SAFETY: each event is destroyed once, here.
            unsafe {
                sys::cuEventDestroy_v2(t.start);
                sys::cuEventDestroy_v2(t.end);
            }
        }
        failure.map_or(Ok(()), Err)
    }

    /// The device address of global `name` of the module, if it has one.
    fn global(&self, name: &CStr) -> Result<Option<CUdeviceptr>, String> {
        let mut p: CUdeviceptr = 0;
        let mut bytes = 0;
        // SAFETY: the module is loaded; `name` is NUL-terminated.
        match unsafe { sys::cuModuleGetGlobal_v2(&mut p, &mut bytes, self.module, name.as_ptr()) } {
            CUresult::CUDA_SUCCESS => Ok(Some(p)),
            CUresult::CUDA_ERROR_NOT_FOUND => Ok(None),
            r => Err(describe(format_args!("cuModuleGetGlobal of {name:?}"), r)),
        }
    }

    /// The device heap and stack that the program needs (Note [The
    /// device heap]), set before the first launch.
    fn set_limits(&mut self) -> Result<(), String> {
        use sys::CUlimit::{CU_LIMIT_MALLOC_HEAP_SIZE, CU_LIMIT_STACK_SIZE};
        if let Some(global) = self.global(HEAP_GLOBAL)? {
            let heap = match bytes_from_env("FUTMLIR_DEVICE_HEAP")? {
                Some(h) => h,
                None => {
                    let (mut free, mut total) = (0, 0);
                    // SAFETY: the context is current; both are valid to write.
                    check("cuMemGetInfo", unsafe { sys::cuMemGetInfo_v2(&mut free, &mut total) })?;
                    (free / 4).clamp(MIN_HEAP, MAX_HEAP)
                }
            };
            // SAFETY: the context is current, and nothing was launched yet.
            check(
                format_args!("cuCtxSetLimit of the device heap to {heap} bytes"),
                unsafe { sys::cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, heap) },
            )?;
            let mut taken = heap;
            // SAFETY: as above; `taken` is valid to write.
            check("cuCtxGetLimit of the device heap", unsafe {
                sys::cuCtxGetLimit(&mut taken, CU_LIMIT_MALLOC_HEAP_SIZE)
            })?;
            let value = taken as i64;
            // SAFETY: the global is an i64 of the module (ABI.md).
            check("cuMemcpyHtoD (futrt_heap_bytes)", unsafe {
                sys::cuMemcpyHtoD_v2(global, (&value as *const i64).cast(), 8)
            })?;
        }
        let stack = match bytes_from_env("FUTMLIR_DEVICE_STACK")? {
            Some(s) => Some(s),
            None => self.global(RECURSIVE_GLOBAL)?.map(|_| RECURSIVE_STACK),
        };
        if let Some(stack) = stack {
            // SAFETY: the context is current.
            check(
                format_args!("cuCtxSetLimit of the stack to {stack} bytes a thread"),
                unsafe { sys::cuCtxSetLimit(CU_LIMIT_STACK_SIZE, stack) },
            )?;
        }
        Ok(())
    }

    /// Copies `bytes` within device memory.
    ///
    /// # Safety
    ///
    /// Both ranges must be valid device memory for `bytes` bytes.
    pub unsafe fn copy(&mut self, dst: usize, src: usize, bytes: usize) -> Result<(), String> {
        if bytes == 0 {
            return Ok(());
        }
        self.pending = true;
        let timer = self.begin()?;
        // SAFETY: by this function's contract.
        check("cuMemcpyDtoD", unsafe {
            sys::cuMemcpyDtoD_v2(dst as CUdeviceptr, src as CUdeviceptr, bytes)
        })?;
        self.end(timer, "copy_dev_to_dev", None, || format!("{bytes} bytes"))
    }

    /// Copies `bytes` from the device at `src` to the host at `dst`, after
    /// the kernels launched before.
    ///
    /// # Safety
    ///
    /// `dst` must be valid host memory and `src` device memory for `bytes`.
    pub unsafe fn read(&mut self, dst: *mut u8, src: usize, bytes: usize) -> Result<(), String> {
        if bytes == 0 {
            return Ok(());
        }
        let timer = self.begin()?;
        // SAFETY: by this function's contract.
        check("cuMemcpyDtoH", unsafe {
            sys::cuMemcpyDtoH_v2(dst.cast(), src as CUdeviceptr, bytes)
        })?;
        self.end(timer, "copy_dev_to_host", None, || format!("{bytes} bytes"))
    }

    /// Copies `bytes` from the host at `src` to the device at `dst`.
    ///
    /// # Safety
    ///
    /// `src` must be valid host memory and `dst` device memory for `bytes`.
    pub unsafe fn write(&mut self, dst: usize, src: *const u8, bytes: usize) -> Result<(), String> {
        if bytes == 0 {
            return Ok(());
        }
        let timer = self.begin()?;
        // SAFETY: by this function's contract.
        check("cuMemcpyHtoD", unsafe {
            sys::cuMemcpyHtoD_v2(dst as CUdeviceptr, src.cast(), bytes)
        })?;
        self.end(timer, "copy_host_to_dev", None, || format!("{bytes} bytes"))
    }

    /// Launches kernel number `kernel`. A grid with no blocks launches
    /// nothing.
    ///
    /// # Safety
    ///
    /// `args` must hold a pointer to a value of each of the kernel's
    /// parameters, of its type.
    pub unsafe fn launch(
        &mut self,
        kernel: i32,
        grid: [i64; 3],
        block: [i64; 3],
        shared_bytes: i64,
        args: *mut *mut c_void,
    ) -> Result<(), String> {
        let n = self.kernels.len();
        let k = usize::try_from(kernel)
            .ok()
            .filter(|&k| k < n)
            .ok_or_else(|| format!("futrt_launch: no kernel number {kernel} (the program has {n})"))?;
        let (name, f) = &self.kernels[k];
        let f = *f;
        let dim = |d: i64, what: &str| {
            u32::try_from(d).map_err(|_| format!("futrt_launch of kernel {name}: {what} {d} is out of range"))
        };
        let [gx, gy, gz] = [
            dim(grid[0], "grid size")?,
            dim(grid[1], "grid size")?,
            dim(grid[2], "grid size")?,
        ];
        let [bx, by, bz] = [
            dim(block[0], "block size")?,
            dim(block[1], "block size")?,
            dim(block[2], "block size")?,
        ];
        let shared = dim(shared_bytes, "shared memory size")?;
        if self.log {
            log_line(format_args!(
                "launching kernel {name}: grid [{gx}, {gy}, {gz}], block [{bx}, {by}, {bz}], {shared} bytes of shared memory"
            ));
        }
        if gx == 0 || gy == 0 || gz == 0 {
            return Ok(());
        }
        let which = format!("cuLaunchKernel of kernel {name}");
        let timer = self.begin()?;
        // SAFETY: `f` is a function of the loaded module; `args` is valid by
        // this function's contract.
        let r = unsafe { sys::cuLaunchKernel(f, gx, gy, gz, bx, by, bz, shared, null_mut(), args, null_mut()) };
        self.pending = true;
        check(which, r)?;
        self.end(timer, "kernel", Some(k), || {
            format!("grid [{gx}, {gy}, {gz}], block [{bx}, {by}, {bz}]")
        })
    }

    /// Waits for the device; the error buffer's contents (cleared on the
    /// device) when a kernel reported an error. Nothing to do when nothing
    /// was queued since the last time (e.g. the runtime's wait after an
    /// entry point that read a result back, which waited already).
    pub fn sync(&mut self) -> Result<Option<[i64; crate::ERROR_WORDS]>, String> {
        if !self.pending {
            return Ok(None);
        }
        self.pending = false;
        // SAFETY: the context is current.
        check("cuCtxSynchronize", unsafe { sys::cuCtxSynchronize() })?;
        let mut buf = [0i64; crate::ERROR_WORDS];
        // SAFETY: the error buffer holds ERROR_BUF_BYTES, so does `buf`.
        check("cuMemcpyDtoH (error buffer)", unsafe {
            sys::cuMemcpyDtoH_v2(buf.as_mut_ptr().cast(), self.error_buf, ERROR_BUF_BYTES)
        })?;
        if buf[0] == 0 {
            return Ok(None);
        }
        // SAFETY: as above.
        check("cuMemsetD8 (error buffer)", unsafe {
            sys::cuMemsetD8_v2(self.error_buf, 0, ERROR_BUF_BYTES)
        })?;
        Ok(Some(buf))
    }

    /// The name of kernel number `kernel`, which was launched.
    pub fn kernel_name(&self, kernel: i32) -> &str {
        usize::try_from(kernel)
            .ok()
            .and_then(|k| self.kernels.get(k))
            .map_or("?", |(name, _)| name.as_str())
    }

    /// The error buffer's device address.
    pub fn error_buffer(&self) -> usize {
        self.error_buf as usize
    }
}

/// Loads `ptx` as a module, with the JIT's error log in the message when
/// that fails.
fn load_module(ptx: &CStr) -> Result<CUmodule, String> {
    let mut log = vec![0u8; 16 * 1024];
    let mut options = [
        CUjit_option::CU_JIT_ERROR_LOG_BUFFER,
        CUjit_option::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
    ];
    // The driver's convention: the size is passed as the pointer's value.
    let mut values = [log.as_mut_ptr().cast::<c_void>(), log.len() as *mut c_void];
    let mut module = null_mut();
    // SAFETY: `ptx` is NUL-terminated; the log buffer has the size given.
    let r = unsafe {
        sys::cuModuleLoadDataEx(
            &mut module,
            ptx.as_ptr().cast(),
            2,
            options.as_mut_ptr(),
            values.as_mut_ptr(),
        )
    };
    if r == CUresult::CUDA_SUCCESS {
        return Ok(module);
    }
    let mut msg = describe("cuModuleLoadDataEx", r);
    let text = CStr::from_bytes_until_nul(&log)
        .map(CStr::to_string_lossy)
        .unwrap_or_default();
    if !text.trim().is_empty() {
        msg.push_str(":\n");
        msg.push_str(text.trim_end());
    }
    Err(msg)
}

/// Loads a compiled image (a cubin) as a module.
fn load_image(image: &[u8]) -> Result<CUmodule, String> {
    // The driver reads the image as an ELF file: give it 8-byte aligned.
    let mut aligned = vec![0u64; image.len().div_ceil(8)];
    // SAFETY: `aligned` holds at least `image.len()` bytes.
    unsafe { std::ptr::copy_nonoverlapping(image.as_ptr(), aligned.as_mut_ptr().cast::<u8>(), image.len()) };
    let mut module = null_mut();
    // SAFETY: the context is current; the image stays alive for the call.
    check("cuModuleLoadData of the cached module", unsafe {
        sys::cuModuleLoadData(&mut module, aligned.as_ptr().cast())
    })?;
    Ok(module)
}

/// The image (cubin) that the driver's linker compiles from `ptx`, for
/// the module cache.
fn link_ptx(ptx: &CStr) -> Result<Vec<u8>, String> {
    let mut log = vec![0u8; 16 * 1024];
    let mut options = [
        CUjit_option::CU_JIT_ERROR_LOG_BUFFER,
        CUjit_option::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
    ];
    let mut values = [log.as_mut_ptr().cast::<c_void>(), log.len() as *mut c_void];
    let mut state = null_mut();
    // SAFETY: the context is current; the log buffer has the size given and
    // outlives the link state (destroyed below).
    check("cuLinkCreate", unsafe {
        sys::cuLinkCreate_v2(2, options.as_mut_ptr(), values.as_mut_ptr(), &mut state)
    })?;
    let bytes = ptx.to_bytes_with_nul();
    // SAFETY: `state` is live; the PTX is NUL-terminated and `bytes` long.
    let added = check("cuLinkAddData", unsafe {
        sys::cuLinkAddData_v2(
            state,
            CUjitInputType::CU_JIT_INPUT_PTX,
            bytes.as_ptr() as *mut c_void,
            bytes.len(),
            c"program.ptx".as_ptr(),
            0,
            null_mut(),
            null_mut(),
        )
    });
    let linked = added.and_then(|()| {
        let (mut cubin, mut size) = (null_mut(), 0usize);
        // SAFETY: `state` is live; the image it gives lives until
        // `cuLinkDestroy`, so it is copied out first.
        check("cuLinkComplete", unsafe {
            sys::cuLinkComplete(state, &mut cubin, &mut size)
        })?;
        // SAFETY: the driver's image of `size` bytes.
        Ok(unsafe { std::slice::from_raw_parts(cubin.cast::<u8>(), size) }.to_vec())
    });
    // SAFETY: destroyed once.
    unsafe { sys::cuLinkDestroy(state) };
    linked.map_err(|mut msg| {
        let text = CStr::from_bytes_until_nul(&log)
            .map(CStr::to_string_lossy)
            .unwrap_or_default();
        if !text.trim().is_empty() {
            msg.push_str(":\n");
            msg.push_str(text.trim_end());
        }
        msg
    })
}

impl RawMemory for Cuda {
    fn raw_alloc(&mut self, bytes: usize) -> Result<usize, RawError> {
        let mut p: CUdeviceptr = 0;
        // SAFETY: the context is current; `p` is valid to write.
        match unsafe { sys::cuMemAlloc_v2(&mut p, bytes) } {
            CUresult::CUDA_SUCCESS => Ok(p as usize),
            CUresult::CUDA_ERROR_OUT_OF_MEMORY => Err(RawError::OutOfMemory),
            r => Err(RawError::Failed(describe(
                format_args!("cuMemAlloc of {bytes} bytes"),
                r,
            ))),
        }
    }

    unsafe fn raw_free(&mut self, addr: usize, _bytes: usize) {
        // SAFETY: `addr` came from cuMemAlloc (the trait's contract). An
        // error (a device in a failed state) leaves nothing to do.
        unsafe { sys::cuMemFree_v2(addr as CUdeviceptr) };
    }
}

impl Drop for Cuda {
    fn drop(&mut self) {
        // SAFETY: each resource was set up by `new` and is released once;
        // errors at the end leave nothing to do.
        unsafe {
            for t in self.timed.drain(..) {
                sys::cuEventDestroy_v2(t.start);
                sys::cuEventDestroy_v2(t.end);
            }
            if !self.base.is_null() {
                sys::cuEventDestroy_v2(self.base);
            }
            if self.error_buf != 0 {
                sys::cuMemFree_v2(self.error_buf);
            }
            if !self.module.is_null() {
                sys::cuModuleUnload(self.module);
            }
            sys::cuDevicePrimaryCtxRelease_v2(self.device);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{parse_bytes, pick_device};

    #[test]
    fn picks_devices() {
        let names: Vec<String> = ["NVIDIA H100 80GB HBM3", "NVIDIA A100-SXM4-40GB"]
            .map(String::from)
            .to_vec();
        assert_eq!(pick_device("A100", &names), Ok(1));
        assert_eq!(pick_device("NVIDIA", &names), Ok(0));
        assert_eq!(pick_device("#1", &names), Ok(1));
        let e = pick_device("#2", &names).unwrap_err();
        assert!(
            e.contains("no CUDA device number 2") && e.contains("#1 NVIDIA A100"),
            "{e}"
        );
        let e = pick_device("V100", &names).unwrap_err();
        assert!(e.contains("no CUDA device's name contains `V100`"), "{e}");
        assert!(pick_device("#x", &names).unwrap_err().contains("device number"));
    }

    #[test]
    fn parses_byte_sizes() {
        assert_eq!(parse_bytes("1048576"), Some(1 << 20));
        assert_eq!(parse_bytes("64K"), Some(64 << 10));
        assert_eq!(parse_bytes(" 512m "), Some(512 << 20));
        assert_eq!(parse_bytes("2G"), Some(2 << 30));
        assert_eq!(parse_bytes("0"), Some(0));
        assert_eq!(parse_bytes(""), None);
        assert_eq!(parse_bytes("G"), None);
        assert_eq!(parse_bytes("12T"), None);
        assert_eq!(parse_bytes("-1"), None);
        assert_eq!(parse_bytes("99999999999999999999G"), None);
    }
}
