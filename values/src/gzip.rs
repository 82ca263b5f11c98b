//! Gzipped value files: `input @ data.in.gz` in a test block, or a
//! gzipped file on `futmlir dataset`'s stdin. [`crate::read_values`] sees
//! gzip's magic bytes and inflates the file before reading it, so every
//! reader of data files (test, bench, dataset) takes them alike.
//!
//! The container is RFC 1952's: a 10-byte header (magic `1f 8b`, method 8
//! = deflate, flags, time, extra flags, OS), the optional fields the flags
//! name (extra field, file name, comment, header CRC), the deflate stream,
//! then the CRC-32 and the length (mod 2^32) of the inflated bytes.
//! Concatenated members (`cat a.gz b.gz`) are read one after another.

use crate::ValueError;

/// Gzip's two magic bytes.
const MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Whether `bytes` start like a gzip file.
pub fn is_gzip(bytes: &[u8]) -> bool {
    bytes.starts_with(&MAGIC)
}

/// The inflated contents of the gzip file `bytes`; `Err`: a malformed
/// container or stream, at its byte offset.
pub fn gunzip(bytes: &[u8]) -> Result<Vec<u8>, ValueError> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        at = member(bytes, at, &mut out)?;
    }
    Ok(out)
}

/// Inflates the member starting at `start` onto `out`; the offset after it.
fn member(bytes: &[u8], start: usize, out: &mut Vec<u8>) -> Result<usize, ValueError> {
    let bad = |at: usize, what: &str| ValueError::at(bytes, at, format!("malformed gzip data: {what}"));
    let header = bytes
        .get(start..start + 10)
        .ok_or_else(|| bad(start, "truncated header"))?;
    if header[..2] != MAGIC {
        return Err(bad(start, "not a gzip member"));
    }
    if header[2] != 8 {
        return Err(bad(start + 2, "compression method is not deflate"));
    }
    let flags = header[3];
    let mut at = start + 10;
    if flags & 4 != 0 {
        let len = bytes.get(at..at + 2).ok_or_else(|| bad(at, "truncated extra field"))?;
        at += 2 + usize::from(u16::from_le_bytes([len[0], len[1]]));
    }
    for flag in [8, 16] {
        // The file name and the comment: zero-terminated.
        if flags & flag != 0 {
            let len = bytes
                .get(at..)
                .and_then(|rest| rest.iter().position(|&b| b == 0))
                .ok_or_else(|| bad(at, "unterminated name or comment"))?;
            at += len + 1;
        }
    }
    if flags & 2 != 0 {
        at += 2;
    }
    let stream = bytes.get(at..).ok_or_else(|| bad(at, "truncated header"))?;
    let (inflated, used) = inflate(stream).map_err(|why| bad(at, &why))?;
    at += used;
    let trailer = bytes.get(at..at + 8).ok_or_else(|| bad(at, "truncated trailer"))?;
    let crc = u32::from_le_bytes([trailer[0], trailer[1], trailer[2], trailer[3]]);
    let len = u32::from_le_bytes([trailer[4], trailer[5], trailer[6], trailer[7]]);
    if crc32(&inflated) != crc {
        return Err(bad(at, "CRC mismatch"));
    }
    if inflated.len() as u32 != len {
        return Err(bad(at + 4, "length mismatch"));
    }
    out.extend_from_slice(&inflated);
    Ok(at + 8)
}

/// A raw deflate stream at the start of `stream`: the bytes it inflates
/// to, and how many bytes of `stream` it took.
fn inflate(stream: &[u8]) -> Result<(Vec<u8>, usize), String> {
    use miniz_oxide::inflate::core::{decompress, inflate_flags, DecompressorOxide};
    use miniz_oxide::inflate::TINFLStatus;
    let mut state = DecompressorOxide::new();
    let mut out = vec![0u8; (stream.len() * 4).max(1 << 12)];
    let (mut read, mut written) = (0, 0);
    loop {
        // All the input is there: no TINFL_FLAG_HAS_MORE_INPUT.
        let flags = inflate_flags::TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF;
        let (status, r, w) = decompress(&mut state, &stream[read..], &mut out, written, flags);
        read += r;
        written += w;
        match status {
            TINFLStatus::Done => {
                out.truncate(written);
                return Ok((out, read));
            }
            TINFLStatus::HasMoreOutput => out.resize(out.len() * 2, 0),
            status => return Err(format!("bad deflate stream ({status:?})")),
        }
    }
}

/// The CRC-32 (IEEE, reflected, as gzip's trailer) of `bytes`.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = (crc >> 1) ^ (0xedb8_8320 & (crc & 1).wrapping_neg());
        }
    }
    !crc
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `printf '1i32 [2i32, 3i32]\n' > v.txt; gzip v.txt` (the file name
    /// kept in the header, the time zeroed).
    const GZIPPED: [u8; 41] = [
        0x1f, 0x8b, 0x08, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x76, 0x2e, 0x74, 0x78, 0x74, 0x00, 0x33, 0xcc,
        0x34, 0x36, 0x52, 0x88, 0x36, 0x02, 0x92, 0x3a, 0x0a, 0xc6, 0x40, 0x32, 0x96, 0x0b, 0x00, 0x49, 0x0c, 0xb8,
        0x7b, 0x12, 0x00, 0x00, 0x00,
    ];
    const TEXT: &[u8] = b"1i32 [2i32, 3i32]\n";

    #[test]
    fn gzip_members_inflate() {
        assert!(is_gzip(&GZIPPED) && !is_gzip(TEXT));
        assert_eq!(gunzip(&GZIPPED).unwrap(), TEXT);
        let two = [&GZIPPED[..], &GZIPPED[..]].concat();
        assert_eq!(gunzip(&two).unwrap(), [TEXT, TEXT].concat());
        let values = crate::read_values(&GZIPPED).unwrap();
        assert_eq!(crate::values_to_text(&values), "1i32\n[2i32, 3i32]\n");
    }

    /// `"0i32 " * 20000 + "\n"`, gzipped: it inflates to many times the
    /// first output buffer's size.
    const ZEROS: [u8; 190] = [
        0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0xed, 0xc4, 0x31, 0x11, 0x00, 0x00, 0x04, 0x00,
        0xc0, 0x5d, 0x0a, 0x11, 0x1c, 0xa9, 0xf4, 0x2f, 0xa0, 0x86, 0xe1, 0x7f, 0xf8, 0xda, 0xe9, 0x2c, 0x49, 0x92,
        0x24, 0x49, 0x92, 0x24, 0x49, 0x92, 0x24, 0x49, 0x92, 0x24, 0x49, 0x92, 0x24, 0x49, 0x92, 0x24, 0x49, 0x92,
        0x24, 0x49, 0x92, 0x24, 0x49, 0x92, 0x24, 0x49, 0x92, 0x24, 0x49, 0x92, 0x24, 0x49, 0x92, 0x24, 0x49, 0x92,
        0x24, 0x49, 0x92, 0x24, 0x49, 0x92, 0x24, 0x49, 0x92, 0x24, 0x49, 0x92, 0x24, 0x49, 0x92, 0x24, 0x49, 0x92,
        0x24, 0x49, 0x92, 0x24, 0x49, 0x92, 0x24, 0x49, 0x92, 0x24, 0x49, 0x92, 0x24, 0x49, 0x92, 0x24, 0x49, 0x92,
        0x24, 0x49, 0x92, 0x24, 0x49, 0x92, 0x24, 0x49, 0x92, 0x24, 0x49, 0x92, 0x24, 0x49, 0x92, 0x24, 0x49, 0x92,
        0x24, 0x49, 0x92, 0x24, 0x49, 0x92, 0x24, 0x49, 0x92, 0x24, 0x49, 0x92, 0x24, 0x49, 0x92, 0x24, 0x49, 0x92,
        0x24, 0x49, 0x92, 0x24, 0x49, 0x92, 0x24, 0x49, 0x92, 0x24, 0x49, 0x92, 0x24, 0x49, 0x92, 0x24, 0x49, 0x92,
        0x24, 0x49, 0x92, 0x24, 0x49, 0x92, 0x24, 0x49, 0x92, 0x24, 0x49, 0x92, 0x24, 0x49, 0x92, 0x24, 0x49, 0x1f,
        0x8b, 0x03, 0x2d, 0xe6, 0x19, 0xc1, 0xa1, 0x86, 0x01, 0x00,
    ];

    #[test]
    fn big_inflations_grow_the_output() {
        let text = gunzip(&ZEROS).unwrap();
        assert_eq!(text.len(), 100_001);
        assert_eq!(crate::read_values(&ZEROS).unwrap().len(), 20_000);
    }

    #[test]
    fn malformed_gzip_is_an_error() {
        let mut bad_crc = GZIPPED;
        bad_crc[33] ^= 1;
        assert!(gunzip(&bad_crc).unwrap_err().message.contains("CRC mismatch"));
        let e = gunzip(&GZIPPED[..30]).unwrap_err();
        assert!(e.message.contains("malformed gzip data"), "{e}");
        assert!(gunzip(&GZIPPED[..5]).unwrap_err().message.contains("truncated header"));
    }

    #[test]
    fn crc32_of_a_known_string() {
        assert_eq!(crc32(b"123456789"), 0xcbf4_3926);
    }
}
