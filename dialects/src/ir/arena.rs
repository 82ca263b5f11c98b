//! Storage helpers for the context: a chunked arena, a hash-consing
//! interner, and a fast hasher for the parser's and interner's tables.
//!
//! See Note [Arena chunks] and Note [Interner storage].

use std::borrow::Borrow;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::ops::{Index, IndexMut};

/// A multiply-rotate hasher for short keys (names, interned structures).
/// The keys come from one compilation, not from an adversary choosing
/// collisions, so SipHash's protection is not needed and its cost is.
#[derive(Default, Clone, Copy)]
pub struct FastHasher(u64);

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FastHasher {
    #[inline]
    fn add(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(SEED);
    }
}

impl Hasher for FastHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.add(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(w));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(i as u64);
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(i as u64);
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    /// Folds the high bits down: a product's low bits depend only on the
    /// factors' low bits, and tables index buckets by the low bits.
    #[inline]
    fn finish(&self) -> u64 {
        let h = self.0 ^ (self.0 >> 32);
        h.wrapping_mul(SEED) ^ (h >> 29)
    }
}

pub type FastBuild = BuildHasherDefault<FastHasher>;
pub type FastMap<K, V> = HashMap<K, V, FastBuild>;

fn hash_of<Q: Hash + ?Sized>(k: &Q) -> u64 {
    let mut h = FastHasher::default();
    k.hash(&mut h);
    h.finish()
}

/// Hashes a `u64` that is already a hash: identity.
#[derive(Default, Clone, Copy)]
pub struct PrehashedHasher(u64);

impl Hasher for PrehashedHasher {
    fn write(&mut self, _: &[u8]) {
        unreachable!("only u64 hashes are stored in a prehashed map")
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = i;
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

const NO_ITEM: u32 = u32::MAX;

// Note [Interner storage]
// ~~~~~~~~~~~~~~~~~~~~~~~
// An interned item is stored once, in `items`; the table maps the item's
// hash to its index, and `chain` links items whose hashes are equal (rare).
// A `HashMap<K, u32>` would store every key twice (once as the map key,
// once in `items`), doubling the memory of types with shapes, strings and
// attribute dictionaries.

/// A hash-consing table: each distinct key is stored once.
pub(crate) struct Interner<K> {
    heads: HashMap<u64, u32, BuildHasherDefault<PrehashedHasher>>,
    chain: Vec<u32>,
    items: Vec<K>,
}

impl<K: Eq + Hash> Interner<K> {
    pub(crate) fn new() -> Self {
        Interner {
            heads: HashMap::default(),
            chain: Vec::new(),
            items: Vec::new(),
        }
    }

    /// The index of an item equal to `k`, if interned.
    pub(crate) fn lookup<Q>(&self, k: &Q) -> Option<u32>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.find(hash_of(k), k)
    }

    fn find<Q>(&self, h: u64, k: &Q) -> Option<u32>
    where
        K: Borrow<Q>,
        Q: Eq + ?Sized,
    {
        let mut cur = *self.heads.get(&h)?;
        while cur != NO_ITEM {
            if self.items[cur as usize].borrow() == k {
                return Some(cur);
            }
            cur = self.chain[cur as usize];
        }
        None
    }

    pub(crate) fn intern(&mut self, k: K) -> u32 {
        let h = hash_of(&k);
        if let Some(i) = self.find(h, &k) {
            return i;
        }
        let i = self.items.len() as u32;
        let next = self.heads.insert(h, i).unwrap_or(NO_ITEM);
        self.chain.push(next);
        self.items.push(k);
        i
    }

    pub(crate) fn get(&self, i: u32) -> &K {
        &self.items[i as usize]
    }
}

// Note [Arena chunks]
// ~~~~~~~~~~~~~~~~~~~
// The IR arenas (ops, values, blocks, regions) only grow, and a handle is
// an index. One `Vec` per arena would, on growing, copy everything and
// leave up to half its capacity unused (a 200k-op module had 31% of its op
// arena empty). Fixed chunks of `CHUNK` entries never move, and waste at
// most one partly filled chunk. The first chunk grows like a `Vec`, so a
// small IR stays small.

const CHUNK_BITS: usize = 10;
const CHUNK: usize = 1 << CHUNK_BITS;

pub(crate) struct Arena<T> {
    chunks: Vec<Vec<T>>,
    len: usize,
}

impl<T> Arena<T> {
    pub(crate) fn new() -> Self {
        Arena {
            chunks: Vec::new(),
            len: 0,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    pub(crate) fn push(&mut self, x: T) {
        match self.chunks.last_mut() {
            Some(c) if c.len() < CHUNK => c.push(x),
            _ => {
                let mut c = if self.chunks.is_empty() {
                    Vec::new()
                } else {
                    Vec::with_capacity(CHUNK)
                };
                c.push(x);
                self.chunks.push(c);
            }
        }
        self.len += 1;
    }

    /// Bytes reserved for entries (not counting what entries own).
    pub(crate) fn bytes(&self) -> usize {
        self.chunks
            .iter()
            .map(|c| c.capacity() * std::mem::size_of::<T>())
            .sum::<usize>()
            + self.chunks.capacity() * std::mem::size_of::<Vec<T>>()
    }
}

impl<T> Index<usize> for Arena<T> {
    type Output = T;
    #[inline]
    fn index(&self, i: usize) -> &T {
        &self.chunks[i >> CHUNK_BITS][i & (CHUNK - 1)]
    }
}

impl<T> IndexMut<usize> for Arena<T> {
    #[inline]
    fn index_mut(&mut self, i: usize) -> &mut T {
        &mut self.chunks[i >> CHUNK_BITS][i & (CHUNK - 1)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arena_indexes_across_chunks() {
        let mut a = Arena::new();
        for i in 0..3 * CHUNK + 5 {
            a.push(i);
        }
        assert_eq!(a.len(), 3 * CHUNK + 5);
        for i in 0..a.len() {
            assert_eq!(a[i], i);
        }
        a[CHUNK] = 7;
        assert_eq!(a[CHUNK], 7);
    }

    #[test]
    fn interner_stores_each_key_once() {
        let mut t: Interner<Box<str>> = Interner::new();
        let a = t.intern("a".into());
        let b = t.intern("b".into());
        assert_ne!(a, b);
        assert_eq!(t.intern("a".into()), a);
        assert_eq!(t.lookup("b"), Some(b));
        assert_eq!(t.lookup("c"), None);
        assert_eq!(&**t.get(b), "b");
    }
}
