//! A free-list memory pool, the same for both back ends.
//!
//! Requests are rounded up to a size class; a freed block goes on the free
//! list of its class and serves the next request of that class. Blocks go
//! back to the back end only when an allocation runs out of memory (then
//! every free block is released and the allocation tried once more) and at
//! the end, when the context is dropped.

use std::collections::HashMap;

/// The alignment of every block (`ABI.md`).
pub const ALIGN: usize = 256;

/// Why a back end could not allocate.
#[derive(Debug, PartialEq, Eq)]
pub enum RawError {
    OutOfMemory,
    /// Any other failure, with its message.
    Failed(String),
}

/// A back end's own allocator. Addresses are integers: host pointers on
/// the CPU, device pointers on CUDA.
pub trait RawMemory {
    /// A fresh block of `bytes` (a size class, so at least [`ALIGN`]),
    /// aligned to [`ALIGN`].
    fn raw_alloc(&mut self, bytes: usize) -> Result<usize, RawError>;

    /// Releases a block.
    ///
    /// # Safety
    ///
    /// `addr` must come from `raw_alloc(bytes)` of this allocator and not
    /// have been released yet, and nothing may use it afterwards.
    unsafe fn raw_free(&mut self, addr: usize, bytes: usize);
}

/// The size class of a request: a multiple of [`ALIGN`] up to 4 KiB, above
/// that one of eight steps between consecutive powers of two (so at most an
/// eighth is wasted). `None` when rounding overflows.
pub fn size_class(bytes: usize) -> Option<usize> {
    if bytes <= 4096 {
        return Some(bytes.max(1).div_ceil(ALIGN) * ALIGN);
    }
    // bytes is in (2^(bits-1), 2^bits].
    let bits = usize::BITS - (bytes - 1).leading_zeros();
    bytes.checked_next_multiple_of(1usize << (bits - 4))
}

/// The blocks handed out and the free lists.
#[derive(Default, Debug)]
pub struct Pool {
    /// Free blocks by size class.
    free: HashMap<usize, Vec<usize>>,
    /// Blocks handed out, with their size class.
    live: HashMap<usize, usize>,
    /// The bytes of the blocks handed out, now and at most so far.
    in_use: usize,
    peak: usize,
    /// The bytes taken from the back end and not given back.
    taken: usize,
}

fn out_of_memory(bytes: usize) -> String {
    format!("out of memory allocating {bytes} bytes")
}

impl Pool {
    /// A block of at least `bytes`, from a free list or from `raw`. The
    /// error is the message to print.
    pub fn alloc<R: RawMemory>(&mut self, raw: &mut R, bytes: usize) -> Result<usize, String> {
        let class = size_class(bytes).ok_or_else(|| out_of_memory(bytes))?;
        if let Some(addr) = self.free.get_mut(&class).and_then(Vec::pop) {
            self.hand_out(addr, class);
            return Ok(addr);
        }
        let addr = match raw.raw_alloc(class) {
            Ok(addr) => addr,
            Err(RawError::OutOfMemory) => {
                self.trim(raw);
                match raw.raw_alloc(class) {
                    Ok(addr) => addr,
                    Err(RawError::OutOfMemory) => return Err(out_of_memory(bytes)),
                    Err(RawError::Failed(msg)) => return Err(msg),
                }
            }
            Err(RawError::Failed(msg)) => return Err(msg),
        };
        self.taken += class;
        self.hand_out(addr, class);
        Ok(addr)
    }

    fn hand_out(&mut self, addr: usize, class: usize) {
        self.live.insert(addr, class);
        self.in_use += class;
        self.peak = self.peak.max(self.in_use);
    }

    /// The most bytes handed out at once (in size classes) so far.
    pub fn peak(&self) -> usize {
        self.peak
    }

    /// Starts the peak count again from the bytes handed out now.
    pub fn reset_peak(&mut self) {
        self.peak = self.in_use;
    }

    /// The addresses of the blocks handed out and not freed.
    pub fn live_blocks(&self) -> std::collections::HashSet<usize> {
        self.live.keys().copied().collect()
    }

    /// Puts a block handed out by [`Pool::alloc`] on its free list; 0 (NULL)
    /// is ignored. Anything else is an error.
    pub fn free(&mut self, addr: usize) -> Result<(), String> {
        if addr == 0 {
            return Ok(());
        }
        match self.live.remove(&addr) {
            Some(class) => {
                self.in_use -= class;
                self.free.entry(class).or_default().push(addr);
                Ok(())
            }
            None => Err(format!(
                "futrt_free: {addr:#x} is not memory from futrt_alloc, or it was freed already"
            )),
        }
    }

    /// The usable size of `addr`, a block handed out and not freed.
    pub fn block_size(&self, addr: usize) -> Option<usize> {
        self.live.get(&addr).copied()
    }

    /// Gives every free block back to `raw`.
    pub fn trim<R: RawMemory>(&mut self, raw: &mut R) {
        for (class, addrs) in self.free.drain() {
            for addr in addrs {
                // SAFETY: free blocks came from `raw_alloc(class)` of the
                // back end that owns this pool, and leave the pool here.
                unsafe { raw.raw_free(addr, class) };
                self.taken -= class;
            }
        }
    }

    /// The bytes taken from the back end and not given back: the blocks
    /// handed out and those on the free lists.
    pub fn taken(&self) -> usize {
        self.taken
    }

    /// Gives every block back to `raw`, free or not: the end of the context.
    pub fn release_all<R: RawMemory>(&mut self, raw: &mut R) {
        self.trim(raw);
        self.in_use = 0;
        self.taken = 0;
        for (addr, class) in self.live.drain() {
            // SAFETY: as in `trim`; nothing runs after the context ends.
            unsafe { raw.raw_free(addr, class) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hands out fake addresses and fails past a byte budget.
    #[derive(Default)]
    struct Fake {
        next: usize,
        in_use: usize,
        budget: usize,
        freed: Vec<(usize, usize)>,
    }

    impl RawMemory for Fake {
        fn raw_alloc(&mut self, bytes: usize) -> Result<usize, RawError> {
            if self.in_use + bytes > self.budget {
                return Err(RawError::OutOfMemory);
            }
            self.in_use += bytes;
            self.next += ALIGN * 1000;
            Ok(self.next)
        }
        unsafe fn raw_free(&mut self, addr: usize, bytes: usize) {
            self.in_use -= bytes;
            self.freed.push((addr, bytes));
        }
    }

    #[test]
    fn size_classes() {
        assert_eq!(size_class(0), Some(256));
        assert_eq!(size_class(1), Some(256));
        assert_eq!(size_class(256), Some(256));
        assert_eq!(size_class(257), Some(512));
        assert_eq!(size_class(4096), Some(4096));
        assert_eq!(size_class(4097), Some(4608));
        assert_eq!(size_class(1 << 20), Some(1 << 20));
        assert_eq!(size_class((1 << 20) + 1), Some((1 << 20) + (1 << 17)));
        assert_eq!(size_class(usize::MAX), None);
        for n in [5000, 10_000, 123_457, 1 << 30, (1 << 40) + 3] {
            let c = size_class(n).unwrap();
            assert!(c >= n && c - n <= n / 8 && c.is_multiple_of(ALIGN), "{n} -> {c}");
        }
    }

    #[test]
    fn reuse_and_errors() {
        let mut raw = Fake {
            budget: 10_500,
            ..Fake::default()
        };
        let mut pool = Pool::default();
        let a = pool.alloc(&mut raw, 0).unwrap();
        let b = pool.alloc(&mut raw, 0).unwrap();
        assert_ne!(a, b);
        assert_eq!(pool.taken(), 512);
        assert_eq!(pool.block_size(a), Some(256));
        pool.free(a).unwrap();
        assert_eq!(pool.block_size(a), None);
        assert!(pool.free(a).unwrap_err().contains("freed already"));
        assert!(pool.free(12345).is_err());
        pool.free(0).unwrap();
        // Same class: the freed block comes back.
        assert_eq!(pool.alloc(&mut raw, 200).unwrap(), a);
        // A bigger block than the budget left: the free lists are trimmed.
        pool.free(a).unwrap();
        pool.free(b).unwrap();
        let c = pool.alloc(&mut raw, 9_900).unwrap();
        assert_eq!(raw.freed.len(), 2);
        assert_eq!(pool.taken(), raw.in_use);
        assert_eq!(
            pool.alloc(&mut raw, 9_000).unwrap_err(),
            "out of memory allocating 9000 bytes"
        );
        pool.free(c).unwrap();
        let _d = pool.alloc(&mut raw, 100).unwrap();
        pool.release_all(&mut raw);
        assert_eq!(raw.in_use, 0);
    }

    #[test]
    fn peak() {
        let mut raw = Fake {
            budget: 1 << 20,
            ..Fake::default()
        };
        let mut pool = Pool::default();
        let a = pool.alloc(&mut raw, 300).unwrap();
        let b = pool.alloc(&mut raw, 100).unwrap();
        assert_eq!(pool.peak(), 512 + 256);
        pool.free(a).unwrap();
        pool.free(b).unwrap();
        // Reusing freed blocks does not raise the peak.
        let c = pool.alloc(&mut raw, 500).unwrap();
        assert_eq!(pool.peak(), 768);
        pool.free(c).unwrap();
        let _ = pool.alloc(&mut raw, 4096).unwrap();
        assert_eq!(pool.peak(), 4096);
    }
}
