//! The file of `--cache-file` on CUDA: the module that the driver's JIT
//! compiled from the program's PTX, kept for the next start. See Note
//! [The module cache].
//!
//! **Note [The module cache].**
//! Loading PTX makes the driver compile it for the device, which takes
//! long for a big program. With `--cache-file FILE` (or
//! `futhark_context_config_set_cache_file`) the CUDA back end compiles
//! the PTX with the driver's linker (`cuLinkCreate`, `cuLinkAddData`,
//! `cuLinkComplete`), which gives the compiled image (a cubin), loads
//! that, and writes it to FILE with a header: a magic line, the key (a
//! hash of the PTX and the device's compute capability), the image's
//! length and a hash of the image. The next start with the same file
//! reads it, and when the key matches and the image is whole and its
//! hash right, loads the image and skips the compilation. Anything
//! else — no file, another program's or device's image, a truncated or
//! corrupt file, an image the driver refuses — is a miss: logged with
//! `-L`, then the PTX is compiled as without a cache and the file
//! rewritten. A cache can therefore cost a start nothing but the read
//! of a file, and can never give a wrong answer that the PTX would not.
//! The file is written to a temporary name beside it and renamed, so a
//! concurrent start reads the old image or the new one, never half.
//! A file that cannot be written is logged, not an error.

use std::path::Path;

const MAGIC: &[u8] = b"futmlir module cache 1\n";

/// FNV-1a, 64 bits: stable across runs and builds (the standard
/// library's hasher is not), and enough to tell programs apart; the
/// image's own hash only guards against a damaged file.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The key of the image compiled from `ptx` for a device of compute
/// capability `major.minor`.
pub fn key(ptx: &[u8], capability: (i32, i32)) -> String {
    format!("ptx {:016x} sm_{}{}", fnv1a(ptx), capability.0, capability.1)
}

/// The bytes of a cache file holding `image` under `key`.
pub fn encode(key: &str, image: &[u8]) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(key.as_bytes());
    out.push(b'\n');
    out.extend_from_slice(&(image.len() as u64).to_le_bytes());
    out.extend_from_slice(&fnv1a(image).to_le_bytes());
    out.extend_from_slice(image);
    out
}

/// The image in cache file `bytes` when it is whole and its key is
/// `key`; else why not, for the log.
pub fn decode<'a>(bytes: &'a [u8], key: &str) -> Result<&'a [u8], String> {
    let rest = bytes.strip_prefix(MAGIC).ok_or("it is not a futmlir module cache")?;
    let newline = rest.iter().position(|&b| b == b'\n').ok_or("its header is cut short")?;
    let found = String::from_utf8_lossy(&rest[..newline]);
    if found != key {
        return Err(format!(
            "it holds another module ({found}, not {key}): another program, version or device"
        ));
    }
    let rest = &rest[newline + 1..];
    let word = |k: usize| -> Option<u64> { Some(u64::from_le_bytes(rest.get(8 * k..8 * k + 8)?.try_into().ok()?)) };
    let (len, hash) = word(0).zip(word(1)).ok_or("its header is cut short")?;
    let image = &rest[16..];
    if image.len() as u64 != len {
        return Err(format!("it should hold {len} bytes of image but holds {}", image.len()));
    }
    if fnv1a(image) != hash {
        return Err("its image is damaged (the hash does not match)".into());
    }
    Ok(image)
}

/// Writes `bytes` to `path` through a temporary file renamed over it.
pub fn write(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".tmp{}", std::process::id()));
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_misses() {
        let k = key(b".version 8.0\n", (9, 0));
        assert!(k.ends_with(" sm_90"), "{k}");
        assert_ne!(k, key(b".version 8.0\n", (8, 6)));
        assert_ne!(k, key(b".version 8.1\n", (9, 0)));
        let image = b"\x7fELF and some code".to_vec();
        let file = encode(&k, &image);
        assert_eq!(decode(&file, &k).unwrap(), &image[..]);
        // Another key: a stale cache.
        let other = key(b"other", (9, 0));
        assert!(decode(&file, &other).unwrap_err().contains("another module"));
        // Cut short anywhere: never an image.
        for n in 0..file.len() {
            assert!(decode(&file[..n], &k).is_err(), "cut at {n}");
        }
        // A flipped byte of the image: damaged.
        let mut bad = file.clone();
        *bad.last_mut().unwrap() ^= 1;
        assert!(decode(&bad, &k).unwrap_err().contains("damaged"));
        assert!(decode(b"garbage", &k)
            .unwrap_err()
            .contains("not a futmlir module cache"));
        let mut longer = file.clone();
        longer.push(0);
        assert!(decode(&longer, &k).is_err());
    }

    #[test]
    fn writes_by_rename() {
        let dir = std::env::temp_dir().join(format!("futmlir-cache-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("prog.cache");
        write(&path, b"one").unwrap();
        write(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        assert!(write(&dir.join("no/such/dir/x"), b"x").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
