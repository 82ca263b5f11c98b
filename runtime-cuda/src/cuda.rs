//! The CUDA back end, on the driver API of `cudarc` with the library loaded
//! at run time (so executables build and start without CUDA; a missing
//! driver is an error message, not a link failure).
//!
//! Set-up: load `libcuda`, `cuInit`, device 0, its primary context made
//! current, the program's PTX loaded once as a module (with the JIT's error
//! log in the message when that fails), each kernel of `kernel_names`
//! resolved, and the error buffer (`int64_t[8]`, zeroed) allocated. All
//! work goes to the legacy default stream, so copies are ordered after the
//! kernels before them. Every driver call is checked, and its error names
//! the call: `cuModuleLoadDataEx failed: CUDA_ERROR_INVALID_PTX (...)`.

use std::ffi::{c_char, c_void, CStr, CString};
use std::fmt::Display;
use std::ptr::{null, null_mut};

use cudarc::driver::sys::{self, CUdevice, CUdeviceptr, CUfunction, CUjit_option, CUmodule, CUresult};

use crate::pool::{RawError, RawMemory};

/// The size of the error buffer: `int64_t[8]`.
const ERROR_BUF_BYTES: usize = 64;

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
        Ok(cuda)
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
    pub fn sync(&mut self) -> Result<Option<[i64; 8]>, String> {
        if !self.pending {
            return Ok(None);
        }
        self.pending = false;
        // SAFETY: the context is current.
        check("cuCtxSynchronize", unsafe { sys::cuCtxSynchronize() })?;
        let mut buf = [0i64; 8];
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
