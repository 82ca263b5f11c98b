//! The CUDA back end, on the driver API of `cudarc` with the library loaded
//! at run time (so executables build and start without CUDA; a missing
//! driver is an error message, not a link failure).
//!
//! Set-up: load `libcuda`, `cuInit`, device 0, its primary context made
//! current, the program's PTX loaded once as a module (with the JIT's error
//! log in the message when that fails), each kernel of `kernel_names`
//! resolved, and the error buffer (`int64_t[ERROR_WORDS]`, zeroed) allocated. All
//! work goes to the legacy default stream, so copies are ordered after the
//! kernels before them. Every driver call is checked, and its error names
//! the call: `cuModuleLoadDataEx failed: CUDA_ERROR_INVALID_PTX (...)`.
//! A program whose threads allocate gets a device heap of its own size
//! before any launch (Note [The device heap]).
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
use std::ptr::{null, null_mut};

use cudarc::driver::sys::{self, CUdevice, CUdeviceptr, CUfunction, CUjit_option, CUmodule, CUresult};

use crate::pool::{RawError, RawMemory};

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

pub struct Cuda {
    device: CUdevice,
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

impl Cuda {
    /// Sets up device 0 for `ptx`, with `kernel_names` resolved in order.
    pub fn new(ptx: &CStr, kernel_names: &[String]) -> Result<Cuda, String> {
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
        let mut device = 0;
        check("cuDeviceGet", unsafe { sys::cuDeviceGet(&mut device, 0) })?;
        let mut context = null_mut();
        check("cuDevicePrimaryCtxRetain", unsafe {
            sys::cuDevicePrimaryCtxRetain(&mut context, device)
        })?;
        // From here on `drop` releases what was set up.
        let mut cuda = Cuda {
            device,
            module: null_mut(),
            kernels: Vec::with_capacity(kernel_names.len()),
            error_buf: 0,
            pending: false,
        };
        check("cuCtxSetCurrent", unsafe { sys::cuCtxSetCurrent(context) })?;
        cuda.module = load_module(ptx)?;
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
        Ok(cuda)
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
        // SAFETY: by this function's contract.
        check("cuMemcpyDtoD", unsafe {
            sys::cuMemcpyDtoD_v2(dst as CUdeviceptr, src as CUdeviceptr, bytes)
        })
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
        // SAFETY: by this function's contract.
        check("cuMemcpyDtoH", unsafe {
            sys::cuMemcpyDtoH_v2(dst.cast(), src as CUdeviceptr, bytes)
        })
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
        // SAFETY: by this function's contract.
        check("cuMemcpyHtoD", unsafe {
            sys::cuMemcpyHtoD_v2(dst as CUdeviceptr, src.cast(), bytes)
        })
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
        let (name, f) = usize::try_from(kernel)
            .ok()
            .and_then(|k| self.kernels.get(k))
            .ok_or_else(|| format!("futrt_launch: no kernel number {kernel} (the program has {n})"))?;
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
        if gx == 0 || gy == 0 || gz == 0 {
            return Ok(());
        }
        // SAFETY: `f` is a function of the loaded module; `args` is valid by
        // this function's contract.
        let r = unsafe { sys::cuLaunchKernel(*f, gx, gy, gz, bx, by, bz, shared, null_mut(), args, null_mut()) };
        self.pending = true;
        check(format_args!("cuLaunchKernel of kernel {name}"), r)
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
    use super::parse_bytes;

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
