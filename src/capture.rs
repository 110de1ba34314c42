//! Reading what a test printed in bounded memory: digests, tails and regular expressions over a stream.
//!
//! Main items: [`StreamRegex`] and [`scan`]. PROVISIONAL: reads the whole file; replaced by the
//! streaming version.

use regex::bytes::Regex;
use std::io::Read;
use std::path::Path;

/// A regular expression matched against a stream.
#[derive(Clone, Debug)]
pub struct StreamRegex {
    regex: Regex,
}

impl StreamRegex {
    /// Wraps a compiled regular expression.
    pub fn new(regex: Regex) -> StreamRegex {
        StreamRegex { regex }
    }
}

/// What one scan of a stream found.
#[derive(Clone, Debug, Default)]
pub struct Scan {
    /// Bytes read.
    pub len: u64,
    /// Hash of the masked content.
    pub digest: u128,
    /// Its last bytes.
    pub tail: Vec<u8>,
    /// Whether the regex matched, if one was given.
    pub matched: Option<bool>,
}

/// Reads `path` once: masks `mask` by `<dir>`, hashes, keeps the last `tail` bytes, and runs
/// `regex` over the masked content. A missing file reads as empty.
pub fn scan(
    path: &Path,
    mask: &[u8],
    regex: Option<&StreamRegex>,
    tail: usize,
) -> std::io::Result<Scan> {
    let mut buf = Vec::new();
    if let Ok(mut f) = std::fs::File::open(path) {
        f.read_to_end(&mut buf)?;
    }
    if !mask.is_empty() {
        buf = bstr::ByteSlice::replace(&buf[..], mask, b"<dir>");
    }
    Ok(Scan {
        len: buf.len() as u64,
        digest: xxhash_rust::xxh3::xxh3_128(&buf),
        tail: buf[buf.len().saturating_sub(tail)..].to_vec(),
        matched: regex.map(|r| r.regex.is_match(&buf)),
    })
}
