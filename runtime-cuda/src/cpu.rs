//! The CPU back end: the target's memory is host memory, there are no
//! kernels. Its error buffer is a host array, checked by `futrt_sync` like
//! the device's, so host code may report errors the same way.

use std::alloc::{alloc, dealloc, Layout};

use crate::pool::{RawError, RawMemory, ALIGN};

#[derive(Debug)]
pub struct Cpu {
    /// `int64_t[ERROR_WORDS]`, owned (from `Box::into_raw`); code outside the runtime
    /// writes it through the address `error_buffer` gives, so the runtime
    /// only accesses it through this raw pointer.
    error_buf: *mut [i64; crate::ERROR_WORDS],
}

impl Cpu {
    pub fn new() -> Cpu {
        Cpu {
            error_buf: Box::into_raw(Box::new([0; crate::ERROR_WORDS])),
        }
    }

    /// Copies `bytes` from `src` to `dst`; the ranges may overlap.
    ///
    /// # Safety
    ///
    /// Both ranges must be valid host memory for `bytes` bytes.
    pub unsafe fn copy(&mut self, dst: usize, src: usize, bytes: usize) {
        if bytes > 0 {
            // SAFETY: by this function's contract.
            unsafe { std::ptr::copy(src as *const u8, dst as *mut u8, bytes) };
        }
    }

    /// The error buffer's address.
    pub fn error_buffer(&self) -> usize {
        self.error_buf as usize
    }

    /// The error buffer's contents, cleared, when it holds an error.
    pub fn take_error(&mut self) -> Option<[i64; crate::ERROR_WORDS]> {
        // SAFETY: the buffer is live until `drop`, and nothing else runs
        // while the runtime reads it.
        let buf = unsafe { self.error_buf.read() };
        if buf[0] == 0 {
            return None;
        }
        // SAFETY: as above.
        unsafe { self.error_buf.write([0; crate::ERROR_WORDS]) };
        Some(buf)
    }
}

impl Drop for Cpu {
    fn drop(&mut self) {
        // SAFETY: `error_buf` came from `Box::into_raw` and is dropped once.
        drop(unsafe { Box::from_raw(self.error_buf) });
    }
}

fn layout(bytes: usize) -> Result<Layout, RawError> {
    Layout::from_size_align(bytes, ALIGN).map_err(|_| RawError::OutOfMemory)
}

impl RawMemory for Cpu {
    fn raw_alloc(&mut self, bytes: usize) -> Result<usize, RawError> {
        let layout = layout(bytes.max(1))?;
        // SAFETY: the layout's size is not zero.
        let p = unsafe { alloc(layout) };
        if p.is_null() {
            Err(RawError::OutOfMemory)
        } else {
            Ok(p as usize)
        }
    }

    unsafe fn raw_free(&mut self, addr: usize, bytes: usize) {
        if let Ok(layout) = layout(bytes.max(1)) {
            // SAFETY: `addr` came from `raw_alloc(bytes)`, so from `alloc`
            // with this layout (the trait's contract).
            unsafe { dealloc(addr as *mut u8, layout) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alloc_copy_free() {
        let mut cpu = Cpu::new();
        let a = cpu.raw_alloc(512).unwrap();
        assert_eq!(a % ALIGN, 0);
        let b = cpu.raw_alloc(512).unwrap();
        let src: Vec<u8> = (0..=255).collect();
        // SAFETY: both blocks hold 512 bytes.
        unsafe {
            cpu.copy(a, src.as_ptr() as usize, 256);
            cpu.copy(b + 10, a, 256);
            assert_eq!(std::slice::from_raw_parts((b + 10) as *const u8, 256), &src[..]);
            cpu.raw_free(a, 512);
            cpu.raw_free(b, 512);
        }
        assert_eq!(cpu.take_error(), None);
        let buf = cpu.error_buffer() as *mut i64;
        // SAFETY: the buffer holds ERROR_WORDS values.
        unsafe { *buf.add(0) = 3 };
        // SAFETY: as above; the last word, which only a message of 15
        // arguments reaches.
        unsafe { *buf.add(crate::ERROR_WORDS - 1) = -7 };
        let mut want = [0; crate::ERROR_WORDS];
        want[0] = 3;
        want[crate::ERROR_WORDS - 1] = -7;
        assert_eq!(cpu.take_error(), Some(want));
        assert_eq!(cpu.take_error(), None);
    }
}
