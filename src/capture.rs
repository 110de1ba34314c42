//! This module owns reading a test's captured stdout and stderr in bounded memory, in one pass
//! per file: regex matching, masked digests for `--same-output`, and the tail for diagnoses.
//!
//! # Main types
//!
//! - [`StreamRegex`] answers `Regex::is_match` for content read from an [`io::Read`], a chunk
//!   at a time; [`Matcher`] is the same search fed by hand.
//! - [`OutputDigest`] is the length and xxh3-128 of an output *after masking*: every
//!   occurrence of a byte string (the per-test temporary directory) is replaced by
//!   [`MASK_REPLACEMENT`]. Two digests are equal when the masked contents are (up to a hash
//!   collision).
//! - [`scan`] / [`scan_reader`] (or a [`Scanner`] fed by hand) read an output once and give a
//!   [`Scan`]: the digest, whether the regex matched the *masked* content, and its last bytes.
//!
//! # Example
//!
//! ```ignore
//! // An internal module: this example also runs as the unit test `the_module_example`.
//! use crate::capture::{OutputDigest, StreamRegex, scan_reader};
//!
//! let re = StreamRegex::new(r"error in <dir>/\w+\.c$")?;
//! let out = b"cc /tmp/run1/a.c\nerror in /tmp/run1/a.c";
//! let s = scan_reader(&out[..], b"/tmp/run1", Some(&re), 12)?;
//! assert_eq!(s.matched, Some(true));
//! assert_eq!(s.tail, b"in <dir>/a.c");
//! // Another run, in another directory, printed the same thing.
//! let again = b"cc /tmp/run22/a.c\nerror in /tmp/run22/a.c";
//! assert_eq!(s.digest, OutputDigest::of(again, b"/tmp/run22"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # How the regex is run
//!
//! The pattern is compiled as `regex::bytes::Regex::new` compiles it (same syntax options,
//! Unicode on, matching invalid UTF-8, same size limits) into a lazy DFA
//! (`regex_automata::hybrid`), stepped byte by byte through the chunks with one cache per
//! search. The search is unanchored (anchored when every match must start at the start, like
//! `^foo`, so it can stop at the first byte that rules a match out) and starts with no
//! look-behind: the stream's start, where `^` and `\A` hold. It stops at the first match state
//! (matches show one byte late, so `$`, `\z` and `\b` see the byte after) or at the dead
//! state, and at the end of input takes the end-of-input transition. The cache is cleared and
//! rebuilt when full, never given up, so the answer stays exact; a pattern that keeps making
//! new states is slow, as it is for the whole-buffer engine.
//!
//! While the lazy DFA is in a start state no match is under way, so when the pattern's
//! prefixes give a fast prefilter (literals like `error:` or `panicked|SIGSEGV`) it jumps to
//! the next place a match may start, restarting there with the byte before as look-behind;
//! the last `longest prefix - 1` bytes of each piece are stepped through, since a prefix may
//! straddle into the next piece.
//!
//! The lazy DFA cannot decide a Unicode word boundary (`\b`, `\B`, `\b{start}`... with Unicode
//! on, the default) next to a non-ASCII byte: it *quits* there. For such patterns the last
//! [`OVERLAP`] bytes are kept, and from a quit on, the rest of the stream is searched over a
//! sliding window with `regex_automata::meta` (the engine inside `regex`, at its speed for
//! the same content) on spans that overlap by [`OVERLAP`] bytes (or the longest match the
//! pattern allows, if shorter), with 4 bytes of context on each side so every look-around
//! sees what it would in the whole content. The same window search is used if the lazy DFA
//! cannot be built.
//!
//! # Limits
//!
//! - The window search is the only approximation: a match longer than [`OVERLAP`] (1 MiB)
//!   that straddles a window boundary may be missed. It never reports a match that is not
//!   there, and it is exact for patterns whose longest match is at most [`OVERLAP`] bytes (no
//!   unbounded repetition, like `\berror\b`). It only runs for patterns with a Unicode word
//!   boundary, and only once one meets a non-ASCII byte; `(?-u:\b)` never needs it.
//! - Only the pattern is used: a `Regex` built with `RegexBuilder` options (case
//!   insensitivity, size limits...) is taken as `Regex::new(re.as_str())` would build it.
//! - Memory, per scan, whatever the output's size: the 64 KiB read buffer, two buffers of
//!   about that size for masking (the masked one up to 5 times as large if the mask is
//!   shorter than `<dir>`), the tail (up to twice its length) and the
//!   lazy DFA's cache (2 MiB at most). Patterns with a Unicode word boundary add up to 2 MiB of
//!   history; once in the window search, the window (up to about 4 MiB) and the meta engine's
//!   caches (its lazy DFAs are capped at 2 MiB each). The compiled regex itself is as large as
//!   for `regex`, within the same 10 MiB NFA size limit. Measured: a 200 MB output scanned
//!   with a peak resident size under 5 MiB for the whole process.
//! - Digests hash the masked bytes; masking is leftmost-first and non-overlapping, exactly
//!   as `bstr::ByteSlice::replace` on the whole content.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use regex_automata::hybrid::LazyStateID;
use regex_automata::hybrid::dfa::{Cache as DfaCache, DFA};
use regex_automata::nfa::thompson::{self, WhichCaptures};
use regex_automata::util::prefilter::Prefilter;
use regex_automata::util::{start, syntax};
use regex_automata::{Anchored, Input, MatchKind, Span, meta};
use xxhash_rust::xxh3::Xxh3;

/// What every occurrence of the mask is replaced by before hashing and matching.
pub const MASK_REPLACEMENT: &[u8] = b"<dir>";

/// How many bytes consecutive windows share when the regex falls back to the window search:
/// matches up to this long are never missed.
pub const OVERLAP: usize = 1 << 20;

/// Bytes read at a time.
const CHUNK: usize = 64 * 1024;

/// Look-around context kept on each side of a window span: a Unicode word boundary decodes
/// at most one UTF-8 sequence (4 bytes) each way; the other assertions look at one byte.
const CONTEXT: usize = 4;

/// The limits `regex::bytes::Regex::new` uses.
const NFA_SIZE_LIMIT: usize = 10 << 20;
const CACHE_CAPACITY: usize = 2 << 20;

/// Sizes used by a scan; tests shrink them to exercise every boundary.
#[derive(Clone, Copy, Debug)]
struct Limits {
    /// Bytes read at a time.
    chunk: usize,
    /// Bytes shared by consecutive window spans (capped by the pattern's longest match).
    overlap: usize,
    /// New bytes a window span covers beyond the overlap.
    step: usize,
    /// Skip the lazy DFA (tests of the window search).
    window_only: bool,
}

impl Limits {
    const DEFAULT: Limits = Limits {
        chunk: CHUNK,
        overlap: OVERLAP,
        step: OVERLAP,
        window_only: false,
    };
}

/// A regular expression that can be matched against a stream; see the [module docs](self).
#[derive(Clone, Debug)]
pub struct StreamRegex {
    /// The whole-buffer engine, for the tests to compare with.
    #[cfg(test)]
    regex: regex::bytes::Regex,
    /// `None` when the lazy DFA could not be built: the window search does everything.
    dfa: Option<DFA>,
    /// The lazy DFA may quit (the pattern has a Unicode word boundary).
    dfa_can_quit: bool,
    /// The window search's engine: `regex`'s own, configured as `regex::bytes` does.
    window: meta::Regex,
    /// The longest possible match in bytes, if bounded.
    max_len: Option<usize>,
    /// The pattern matches nothing (like `[a&&b]`).
    never: bool,
    /// Every match starts at the content's start (like `\Afoo`): the lazy DFA search is
    /// anchored, so it dies at the first byte that cannot be part of a match.
    anchored: bool,
    /// Finds where a match may start, to skip ahead while the lazy DFA is in a start state.
    pre: Option<Prefilter>,
    /// The lazy DFA's start state does not depend on the byte before it.
    universal_start: bool,
}

impl StreamRegex {
    /// Compiles `pattern` as `regex::bytes::Regex::new` does.
    ///
    /// # Errors
    /// The error `Regex::new` gives for the pattern.
    pub fn new(pattern: &str) -> Result<StreamRegex, regex::Error> {
        // The same errors as the whole-buffer engine, whatever the stream engines accept.
        #[cfg_attr(not(test), allow(unused_variables))]
        let regex = regex::bytes::Regex::new(pattern)?;
        let syntax_config = syntax::Config::new().utf8(false);
        let hir = syntax::parse_with(pattern, &syntax_config)
            .map_err(|e| regex::Error::Syntax(e.to_string()))?;
        let window = meta::Builder::new()
            .configure(
                meta::Config::new()
                    .match_kind(MatchKind::LeftmostFirst)
                    .utf8_empty(false)
                    .nfa_size_limit(Some(NFA_SIZE_LIMIT))
                    .hybrid_cache_capacity(CACHE_CAPACITY),
            )
            .build_from_hir(&hir)
            .map_err(|e| match e.size_limit() {
                Some(limit) => regex::Error::CompiledTooBig(limit),
                None => regex::Error::Syntax(e.to_string()),
            })?;
        let nfa = thompson::Compiler::new()
            .configure(
                thompson::Config::new()
                    .utf8(false)
                    .nfa_size_limit(Some(NFA_SIZE_LIMIT))
                    .shrink(false)
                    .which_captures(WhichCaptures::None),
            )
            .build_from_hir(&hir);
        let anchored = nfa.as_ref().is_ok_and(|nfa| nfa.is_always_start_anchored());
        let universal_start = nfa
            .as_ref()
            .is_ok_and(|nfa| nfa.look_set_prefix_any().is_empty());
        let pre = Prefilter::from_hir_prefix(MatchKind::LeftmostFirst, &hir)
            .filter(|pre| pre.is_fast() && !anchored);
        let (dfa, dfa_can_quit) = match nfa.ok().and_then(|nfa| build_dfa(nfa, pre.is_some())) {
            Some((dfa, can_quit)) => (Some(dfa), can_quit),
            None => (None, false),
        };
        Ok(StreamRegex {
            #[cfg(test)]
            regex,
            dfa,
            dfa_can_quit,
            window,
            max_len: hir.properties().maximum_len(),
            never: hir.properties().minimum_len().is_none(),
            anchored,
            pre,
            universal_start,
        })
    }

    /// The stream version of `re`, compiled from its pattern with default options.
    ///
    /// # Errors
    /// Only if `re` needed non-default `RegexBuilder` limits to compile.
    #[cfg(test)]
    pub fn from_regex(re: &regex::bytes::Regex) -> Result<StreamRegex, regex::Error> {
        StreamRegex::new(re.as_str())
    }

    /// The pattern.
    #[cfg(test)]
    pub fn as_str(&self) -> &str {
        self.regex.as_str()
    }

    /// The same pattern as a whole-buffer `Regex`.
    #[cfg(test)]
    pub fn regex(&self) -> &regex::bytes::Regex {
        &self.regex
    }

    /// Whether the content `r` yields matches, as `Regex::is_match` on the whole content would
    /// say; stops reading at the first match. Reads 64 KiB at a time.
    ///
    /// # Errors
    /// The first read error, other than `Interrupted`.
    #[cfg(test)]
    pub fn is_match_reader(&self, r: impl Read) -> io::Result<bool> {
        self.is_match_reader_with(r, Limits::DEFAULT)
    }

    #[cfg(test)]
    fn is_match_reader_with(&self, mut r: impl Read, limits: Limits) -> io::Result<bool> {
        let mut matcher = Matcher::with_limits(self, limits);
        let mut buf = vec![0; limits.chunk];
        while matcher.decided().is_none() {
            match r.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => matcher.feed(&buf[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(matcher.finish())
    }

    /// A search to feed by hand, for content that does not come from a reader.
    #[cfg(test)]
    pub fn matcher(&self) -> Matcher<'_> {
        Matcher::with_limits(self, Limits::DEFAULT)
    }

    /// Bytes a window span must share with the previous one so no match is missed, capped
    /// at `limit`.
    fn overlap(&self, limit: usize) -> usize {
        self.max_len.map_or(limit, |m| m.min(limit))
    }
}

/// The lazy DFA for `nfa`, and whether it may quit; `None` if it cannot be built.
fn build_dfa(nfa: thompson::NFA, tag_starts: bool) -> Option<(DFA, bool)> {
    let can_quit = nfa.look_set_any().contains_word_unicode();
    let dfa = DFA::builder()
        .configure(
            DFA::config()
                .match_kind(MatchKind::LeftmostFirst)
                .unicode_word_boundary(true)
                .specialize_start_states(tag_starts)
                .cache_capacity(CACHE_CAPACITY)
                .minimum_cache_clear_count(None),
        )
        .build_from_nfa(nfa)
        .ok()?;
    Some((dfa, can_quit))
}

/// One search of a [`StreamRegex`] over content fed in pieces of any size.
#[derive(Debug)]
pub struct Matcher<'r> {
    re: &'r StreamRegex,
    limits: Limits,
    /// Bytes fed so far.
    pos: u64,
    state: State<'r>,
    /// In DFA mode, the recent bytes the window search would need after a quit (only when
    /// `keep`); in window mode, the window.
    window: Excerpt,
    keep: bool,
}

#[derive(Debug)]
enum State<'r> {
    Dfa {
        dfa: &'r DFA,
        cache: Box<DfaCache>,
        sid: LazyStateID,
    },
    Excerpt {
        /// Where the next span starts: matches starting earlier that fit in the overlap
        /// have been looked for.
        from: u64,
        cache: Box<meta::Cache>,
    },
    Done(bool),
}

/// Bytes `start..start + buf.len()` of the content.
#[derive(Debug, Default)]
struct Excerpt {
    start: u64,
    buf: Vec<u8>,
}

impl Excerpt {
    fn end(&self) -> u64 {
        self.start + self.buf.len() as u64
    }

    /// Appends `bytes`, keeping at least the last `keep` bytes.
    fn keep_recent(&mut self, bytes: &[u8], keep: usize) {
        if bytes.len() >= keep {
            self.start += (self.buf.len() + bytes.len() - keep) as u64;
            self.buf.clear();
            self.buf.extend_from_slice(&bytes[bytes.len() - keep..]);
        } else {
            self.buf.extend_from_slice(bytes);
            self.forget_before(self.end().saturating_sub(keep as u64), keep);
        }
    }

    /// Forgets the bytes before `at`, but only once more than `slack` of them have piled up
    /// (so that copying down is amortized).
    fn forget_before(&mut self, at: u64, slack: usize) {
        if at > self.start + slack as u64 {
            let n = ((at - self.start) as usize).min(self.buf.len());
            self.buf.drain(..n);
            self.start += n as u64;
        }
    }
}

/// What stepping the lazy DFA through some bytes came to.
enum Step {
    Going,
    Match,
    Dead,
    /// Quit (or gave up) on the byte at this index.
    Quit(usize),
}

/// Steps the lazy DFA from `sid` through `bytes`. In a start state (tagged only when `re` has
/// a prefilter), no match is under way, so it skips to the next place the prefilter says a
/// match may start, restarting with the byte before it as look-behind. When the prefilter
/// finds nothing, the last `max_needle_len - 1` bytes are still stepped through, as a prefix
/// may start there and end in the next piece.
fn step(
    re: &StreamRegex,
    dfa: &DFA,
    cache: &mut DfaCache,
    sid: &mut LazyStateID,
    bytes: &[u8],
) -> Step {
    let mut s = *sid;
    let mut i = 0;
    while i < bytes.len() {
        if s.is_start()
            && let Some(pre) = &re.pre
        {
            let to = match pre.find(bytes, Span::from(i..bytes.len())) {
                Some(span) => span.start,
                None => bytes.len() - (pre.max_needle_len().max(1) - 1).min(bytes.len() - i),
            };
            if to > i {
                if !re.universal_start {
                    let config = start::Config::new()
                        .anchored(Anchored::No)
                        .look_behind(Some(bytes[to - 1]));
                    match dfa.start_state(cache, &config) {
                        Ok(start) => s = start,
                        Err(_) => return Step::Quit(to),
                    }
                }
                i = to;
                if i == bytes.len() {
                    break;
                }
            }
        }
        s = match dfa.next_state(cache, s, bytes[i]) {
            Ok(next) => next,
            Err(_) => return Step::Quit(i),
        };
        if s.is_tagged() {
            if s.is_match() {
                return Step::Match;
            } else if s.is_dead() {
                return Step::Dead;
            } else if s.is_quit() {
                return Step::Quit(i);
            }
        }
        i += 1;
    }
    *sid = s;
    Step::Going
}

impl<'r> Matcher<'r> {
    fn with_limits(re: &'r StreamRegex, limits: Limits) -> Matcher<'r> {
        let mut m = Matcher {
            re,
            limits,
            pos: 0,
            state: State::Done(false),
            window: Excerpt::default(),
            keep: false,
        };
        if re.never {
            return m;
        }
        match re.dfa.as_ref().filter(|_| !limits.window_only) {
            Some(dfa) => {
                let mut cache = Box::new(dfa.create_cache());
                let anchored = match re.anchored {
                    true => Anchored::Yes,
                    false => Anchored::No,
                };
                let config = start::Config::new().anchored(anchored);
                match dfa.start_state(&mut cache, &config) {
                    Ok(sid) if sid.is_dead() => m.state = State::Done(false),
                    Ok(sid) => {
                        m.state = State::Dfa { dfa, cache, sid };
                        m.keep = re.dfa_can_quit;
                    }
                    Err(_) => m.enter_window(0),
                }
            }
            None => m.enter_window(0),
        }
        m
    }

    /// Whether the content matches, if that is already known whatever follows.
    pub fn decided(&self) -> Option<bool> {
        match self.state {
            State::Done(matched) => Some(matched),
            _ => None,
        }
    }

    /// Feeds the next bytes of the content. Pieces of any size work, within the memory bounds
    /// given in the [module docs](self).
    pub fn feed(&mut self, bytes: &[u8]) {
        if bytes.is_empty() || self.decided().is_some() {
            return;
        }
        let base = self.pos;
        self.pos += bytes.len() as u64;
        let keep_len = self.re.overlap(self.limits.overlap) + CONTEXT;
        match &mut self.state {
            State::Done(_) => {}
            State::Dfa { dfa, cache, sid } => match step(self.re, dfa, cache, sid, bytes) {
                Step::Going => {
                    if self.keep {
                        self.window.keep_recent(bytes, keep_len);
                    }
                }
                Step::Match => self.done(true),
                Step::Dead => self.done(false),
                Step::Quit(i) => {
                    if !self.keep {
                        // Only if the cache gives up, which it is configured never to do.
                        self.window = Excerpt {
                            start: base,
                            buf: Vec::new(),
                        };
                    }
                    debug_assert_eq!(self.window.end(), base);
                    self.window.buf.extend_from_slice(&bytes[..i]);
                    self.enter_window(base + i as u64);
                    self.feed_window(&bytes[i..]);
                }
            },
            State::Excerpt { .. } => self.feed_window(bytes),
        }
    }

    /// In window mode, adds `bytes` to the window a span's worth at a time, searching each
    /// full span.
    fn feed_window(&mut self, bytes: &[u8]) {
        for part in bytes.chunks(self.limits.step.max(1)) {
            if self.decided().is_some() {
                return;
            }
            self.window.buf.extend_from_slice(part);
            self.search_window(false);
        }
    }

    /// Whether the content fed matches.
    pub fn finish(mut self) -> bool {
        if let State::Dfa { dfa, cache, sid } = &mut self.state {
            match dfa.next_eoi_state(cache, *sid) {
                Ok(s) => self.done(s.is_match()),
                Err(_) => self.enter_window(self.pos),
            }
        }
        self.search_window(true);
        self.decided().unwrap_or(false)
    }

    fn done(&mut self, matched: bool) {
        self.state = State::Done(matched);
        self.window = Excerpt::default();
    }

    /// Switches to the window search, for matches ending at `at` or later.
    fn enter_window(&mut self, at: u64) {
        let overlap = self.re.overlap(self.limits.overlap) as u64;
        let floor = match self.window.start {
            0 => 0,
            start => start + CONTEXT as u64,
        };
        self.state = State::Excerpt {
            from: at.saturating_sub(overlap).max(floor),
            cache: Box::new(self.re.window.create_cache()),
        };
        self.search_window(false);
    }

    /// In window mode, searches each full span the window holds (a span and the look-ahead
    /// context after it), and at the end what is left.
    fn search_window(&mut self, eof: bool) {
        let overlap = self.re.overlap(self.limits.overlap) as u64;
        let span_len = overlap + self.limits.step as u64;
        loop {
            let State::Excerpt { from, cache } = &mut self.state else {
                return;
            };
            let end = self.window.end();
            let full = *from + span_len + CONTEXT as u64 <= end;
            if !full && !eof {
                return;
            }
            let stop = if full { *from + span_len } else { end };
            let start = (*from).min(stop);
            let span = (start - self.window.start) as usize..(stop - self.window.start) as usize;
            let input = Input::new(&self.window.buf).span(span).earliest(true);
            if self.re.window.search_half_with(cache, &input).is_some() {
                return self.done(true);
            } else if !full {
                return self.done(false);
            }
            // A match ending after `stop` and no longer than `overlap` starts after this.
            *from = stop - overlap;
            let keep_from = from.saturating_sub(CONTEXT as u64);
            self.window.forget_before(keep_from, span_len as usize);
        }
    }
}

/// The length and xxh3-128 hash of an output after masking; equal digests mean equal masked
/// contents, up to a hash collision.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct OutputDigest {
    /// Length of the masked content in bytes.
    pub len: u64,
    /// xxh3-128 of the masked content.
    pub hash: u128,
}

impl OutputDigest {
    /// The digest of `content` with every occurrence of `mask` replaced by
    /// [`MASK_REPLACEMENT`] (none if `mask` is empty).
    #[cfg(test)]
    pub fn of(content: &[u8], mask: &[u8]) -> OutputDigest {
        let mut scanner = Scanner::new(mask, None, 0);
        scanner.update(content);
        scanner.finish().digest
    }
}

/// What one pass over an output found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scan {
    /// The masked content's digest.
    pub digest: OutputDigest,
    /// Bytes read, before masking.
    pub raw_len: u64,
    /// Whether the regex, if one was given, matched the masked content.
    pub matched: Option<bool>,
    /// The last bytes of the masked content (as many as asked for, or all of it if shorter).
    pub tail: Vec<u8>,
}

/// Reads the file at `path` once: digest, regex match and tail of its content with `mask`
/// replaced by [`MASK_REPLACEMENT`] (no masking if `mask` is empty).
///
/// # Errors
/// Opening or reading the file failed.
pub fn scan(
    path: impl AsRef<Path>,
    mask: &[u8],
    regex: Option<&StreamRegex>,
    tail: usize,
) -> io::Result<Scan> {
    scan_reader(File::open(path)?, mask, regex, tail)
}

/// [`scan`], on what `r` yields.
///
/// # Errors
/// The first read error, other than `Interrupted`.
pub fn scan_reader(
    r: impl Read,
    mask: &[u8],
    regex: Option<&StreamRegex>,
    tail: usize,
) -> io::Result<Scan> {
    scan_reader_with(r, mask, regex, tail, Limits::DEFAULT)
}

fn scan_reader_with(
    mut r: impl Read,
    mask: &[u8],
    regex: Option<&StreamRegex>,
    tail: usize,
    limits: Limits,
) -> io::Result<Scan> {
    let mut scanner = Scanner::with_limits(mask, regex, tail, limits);
    let mut buf = vec![0; limits.chunk];
    loop {
        match r.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => scanner.update(&buf[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(scanner.finish())
}

/// A [`scan`] fed by hand.
pub struct Scanner<'r> {
    masker: Masker,
    sink: Sink<'r>,
    raw_len: u64,
}

impl<'r> Scanner<'r> {
    /// A scan masking `mask` (nothing if empty), matching `regex` if given and keeping the
    /// last `tail` bytes.
    #[cfg(test)]
    pub fn new(mask: &[u8], regex: Option<&'r StreamRegex>, tail: usize) -> Scanner<'r> {
        Scanner::with_limits(mask, regex, tail, Limits::DEFAULT)
    }

    fn with_limits(
        mask: &[u8],
        regex: Option<&'r StreamRegex>,
        tail: usize,
        limits: Limits,
    ) -> Scanner<'r> {
        Scanner {
            masker: Masker::new(mask),
            sink: Sink {
                hasher: Xxh3::new(),
                len: 0,
                tail: Tail {
                    cap: tail,
                    buf: Vec::new(),
                },
                matcher: regex.map(|re| Matcher::with_limits(re, limits)),
            },
            raw_len: 0,
        }
    }

    /// Feeds the next bytes of the output.
    pub fn update(&mut self, bytes: &[u8]) {
        self.raw_len += bytes.len() as u64;
        self.masker.push(bytes, &mut self.sink);
    }

    /// The scan of everything fed.
    pub fn finish(mut self) -> Scan {
        self.masker.finish(&mut self.sink);
        let Sink {
            hasher,
            len,
            tail,
            matcher,
        } = self.sink;
        Scan {
            digest: OutputDigest {
                len,
                hash: hasher.digest128(),
            },
            raw_len: self.raw_len,
            matched: matcher.map(Matcher::finish),
            tail: tail.finish(),
        }
    }
}

/// Where masked bytes go.
struct Sink<'r> {
    hasher: Xxh3,
    len: u64,
    tail: Tail,
    matcher: Option<Matcher<'r>>,
}

impl Sink<'_> {
    fn put(&mut self, piece: &[u8]) {
        if piece.is_empty() {
            return;
        }
        self.hasher.update(piece);
        self.len += piece.len() as u64;
        self.tail.push(piece);
        if let Some(m) = &mut self.matcher {
            m.feed(piece);
        }
    }
}

/// Replaces the mask as it streams by, carrying fewer than `mask.len()` bytes between pieces.
/// Each piece's masked bytes are passed on in one slice, however many occurrences it has.
struct Masker {
    finder: Option<bstr::Finder<'static>>,
    /// Bytes not yet passed on: an occurrence may start there.
    carry: Vec<u8>,
    /// The carry and the new piece.
    work: Vec<u8>,
    /// The masked bytes to pass on.
    out: Vec<u8>,
}

impl Masker {
    fn new(mask: &[u8]) -> Masker {
        Masker {
            finder: (!mask.is_empty()).then(|| bstr::Finder::new(mask).into_owned()),
            carry: Vec::new(),
            work: Vec::new(),
            out: Vec::new(),
        }
    }

    fn push(&mut self, bytes: &[u8], sink: &mut Sink) {
        let Masker {
            finder,
            carry,
            work,
            out,
        } = self;
        let Some(finder) = finder else {
            sink.put(bytes);
            return;
        };
        let hay: &[u8] = if carry.is_empty() {
            bytes
        } else {
            work.clear();
            work.extend_from_slice(carry);
            work.extend_from_slice(bytes);
            carry.clear();
            work
        };
        let m = finder.needle().len();
        let mut pos = 0;
        // The leftmost occurrence from `pos` in `hay` is the leftmost in the whole content:
        // one starting earlier but running past `hay` would have to start after it.
        out.clear();
        while let Some(i) = finder.find(&hay[pos..]) {
            out.extend_from_slice(&hay[pos..pos + i]);
            out.extend_from_slice(MASK_REPLACEMENT);
            pos += i + m;
        }
        // No occurrence starts before `keep`; one may start after and end in the next piece.
        let keep = pos.max(hay.len().saturating_sub(m - 1));
        if pos == 0 {
            sink.put(&hay[..keep]);
        } else {
            out.extend_from_slice(&hay[pos..keep]);
            sink.put(out);
        }
        carry.extend_from_slice(&hay[keep..]);
    }

    fn finish(&mut self, sink: &mut Sink) {
        sink.put(&self.carry);
        self.carry.clear();
    }
}

/// The last `cap` bytes seen, in at most `2 * cap` bytes.
struct Tail {
    cap: usize,
    buf: Vec<u8>,
}

impl Tail {
    fn push(&mut self, piece: &[u8]) {
        if piece.len() >= self.cap {
            self.buf.clear();
            self.buf.extend_from_slice(&piece[piece.len() - self.cap..]);
            return;
        }
        if self.buf.len() + piece.len() > 2 * self.cap {
            self.buf.drain(..self.buf.len() + piece.len() - self.cap);
        }
        self.buf.extend_from_slice(piece);
    }

    fn finish(mut self) -> Vec<u8> {
        let extra = self.buf.len().saturating_sub(self.cap);
        self.buf.drain(..extra);
        self.buf
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn the_module_example() -> Result<(), Box<dyn std::error::Error>> {
        let re = StreamRegex::new(r"error in <dir>/\w+\.c$")?;
        let out = b"cc /tmp/run1/a.c\nerror in /tmp/run1/a.c";
        let s = scan_reader(&out[..], b"/tmp/run1", Some(&re), 12)?;
        assert_eq!(s.matched, Some(true));
        assert_eq!(s.tail, b"in <dir>/a.c");
        let again = b"cc /tmp/run22/a.c\nerror in /tmp/run22/a.c";
        assert_eq!(s.digest, OutputDigest::of(again, b"/tmp/run22"));
        Ok(())
    }
    use super::*;
    use proptest::prelude::*;
    use regex::bytes::Regex;

    /// What the whole-buffer code computes: masked content, digest, match and tail.
    fn whole(content: &[u8], mask: &[u8], re: Option<&Regex>, tail: usize) -> Scan {
        let masked = if mask.is_empty() {
            content.to_vec()
        } else {
            bstr::ByteSlice::replace(content, mask, MASK_REPLACEMENT)
        };
        Scan {
            digest: OutputDigest {
                len: masked.len() as u64,
                hash: xxhash_rust::xxh3::xxh3_128(&masked),
            },
            raw_len: content.len() as u64,
            matched: re.map(|re| re.is_match(&masked)),
            tail: masked[masked.len().saturating_sub(tail)..].to_vec(),
        }
    }

    /// Yields `data` in reads of the given sizes, in turn.
    struct Pieces<'a> {
        data: &'a [u8],
        sizes: Vec<usize>,
        i: usize,
    }

    impl Read for Pieces<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let want = self.sizes[self.i % self.sizes.len()].max(1);
            self.i += 1;
            let n = want.min(buf.len()).min(self.data.len());
            buf[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    fn limits(chunk: usize) -> Limits {
        Limits {
            chunk,
            ..Limits::DEFAULT
        }
    }

    fn scan_pieces(
        content: &[u8],
        sizes: &[usize],
        mask: &[u8],
        re: Option<&StreamRegex>,
        tail: usize,
        limits: Limits,
    ) -> Scan {
        let r = Pieces {
            data: content,
            sizes: sizes.to_vec(),
            i: 0,
        };
        scan_reader_with(r, mask, re, tail, limits).unwrap()
    }

    /// Scans with every chunk size from 1 to 7 and with the defaults; all must agree with
    /// the whole-buffer answer.
    fn check(content: &[u8], mask: &[u8], pattern: &str, tail: usize) {
        let re = StreamRegex::new(pattern).unwrap();
        let want = whole(content, mask, Some(re.regex()), tail);
        for chunk in (1..=7).chain([CHUNK]) {
            let got = scan_pieces(content, &[chunk], mask, Some(&re), tail, limits(chunk));
            assert_eq!(got, want, "pattern {pattern:?}, chunk {chunk}");
        }
    }

    #[test]
    fn masks_overlapping_occurrences_leftmost_first() {
        for chunk in 1..=7 {
            let got = scan_pieces(b"aaaaa", &[chunk], b"aaa", None, 100, limits(chunk));
            assert_eq!(got.tail, b"<dir>aa");
            let got = scan_pieces(b"aaaaaa", &[chunk], b"aaa", None, 100, limits(chunk));
            assert_eq!(got.tail, b"<dir><dir>");
            let got = scan_pieces(b"abababa", &[chunk], b"aba", None, 100, limits(chunk));
            assert_eq!(got.tail, b"<dir>b<dir>");
        }
    }

    #[test]
    fn masks_occurrences_straddling_chunks() {
        let content = b"x /tmp/dir1/f /tmp/dir1/tmp/dir1 /tmp/dir /tmp/dir1";
        for chunk in 1..=13 {
            let got = scan_pieces(content, &[chunk], b"/tmp/dir1", None, 1000, limits(chunk));
            assert_eq!(got.tail, b"x <dir>/f <dir><dir> /tmp/dir <dir>");
            assert_eq!(got.raw_len, content.len() as u64);
        }
    }

    #[test]
    fn empty_mask_masks_nothing() {
        let got = scan_reader(&b"a<dir>b"[..], b"", None, 3).unwrap();
        assert_eq!(got, whole(b"a<dir>b", b"", None, 3));
        assert_eq!(got.tail, b"r>b");
    }

    #[test]
    fn digests_equal_across_directories_of_other_lengths() {
        let a = OutputDigest::of(b"in /tmp/a: ok\n/tmp/a", b"/tmp/a");
        let b = OutputDigest::of(b"in /var/tmp/bbbb: ok\n/var/tmp/bbbb", b"/var/tmp/bbbb");
        assert_eq!(a, b);
        assert_eq!(a.len, "in <dir>: ok\n<dir>".len() as u64);
        assert_ne!(a, OutputDigest::of(b"in /tmp/a: ok", b"/tmp/a"));
        assert_eq!(OutputDigest::of(b"", b"x"), OutputDigest::of(b"", b""));
    }

    #[test]
    fn tails() {
        let content = b"0123456789";
        for chunk in 1..=4 {
            for (n, want) in [(0, &b""[..]), (3, b"789"), (10, content), (50, content)] {
                let got = scan_pieces(content, &[chunk], b"", None, n, limits(chunk));
                assert_eq!(got.tail, want);
            }
        }
    }

    #[test]
    fn anchors_and_boundaries_at_chunk_edges() {
        let cases: &[(&[u8], &str)] = &[
            (b"abc", "^abc$"),
            (b"xabc", "^abc"),
            (b"abcx", "abc$"),
            (b"abc\n", "abc$"),
            (b"abc\n", r"(?m)abc$"),
            (b"x\nabc\ny", r"(?m)^abc$"),
            (b"x\r\nabc\r\ny", r"(?Rm)^abc$"),
            (b"foo bar", r"\bbar\b"),
            (b"foobar", r"\bbar"),
            (b"foobar", r"\Bbar\z"),
            (b"a_b", r"a\b"),
            (b"", ""),
            (b"", "^$"),
            (b"x", "^$"),
            (b"a\xFFb", r"(?-u:\xFF)b"),
            (b"a\xFFb", r"a.b"),
            (b"a\xC3\xA9b", r"a.b"),
            (b"caf\xC3\xA9!", r"\w+\b"),
            (b"caf\xC3\xA9!", r"caf\b"),
            (b"caf\xC3\xA9!", r"(?-u:caf\b)"),
            (b"\xC3\xA9t\xC3\xA9", r"\b\w{3}\b"),
            (b"\xCE\xB1\xCE\xB2 x", r"\p{Greek}+\s"),
            (b"\xCE\xB1\xCE\xB2x", r"\p{Greek}+\b"),
            (b"ab ab abc", r"(abc|abd)$"),
            (b"xx yy", r"^(?:xx|yy)\s(?:xx|yy)$"),
        ];
        for &(content, pattern) in cases {
            check(content, b"", pattern, 4);
            check(content, b"b", pattern, 4);
        }
    }

    #[test]
    fn regex_runs_on_the_masked_content() {
        check(b"/tmp/q/x", b"/tmp/q", r"^<dir>/x$", 8);
        check(b"/tmp/q/x", b"/tmp/q", r"tmp", 8);
        let re = StreamRegex::new(r"\A<dir>\z").unwrap();
        let got = scan_reader(&b"/tmp/q"[..], b"/tmp/q", Some(&re), 0).unwrap();
        assert_eq!(got.matched, Some(true));
    }

    #[test]
    fn unicode_word_boundary_falls_back_exactly() {
        let re = StreamRegex::new(r"\bword\b").unwrap();
        assert!(re.dfa_can_quit);
        let content = "é ".repeat(1000) + "word é";
        let mut m = re.matcher();
        m.feed(&content.as_bytes()[..10]);
        assert!(
            matches!(m.state, State::Excerpt { .. }),
            "the lazy DFA quit on é"
        );
        check(content.as_bytes(), b"", r"\bword\b", 4);
        check(content.as_bytes(), b"", r"\bwordé", 4);
        check(content.as_bytes(), b"", r"é\b", 4);
        check(content.as_bytes(), b"", r"\bé\B", 4);
        check(b"ascii only word", b"", r"\bword\b", 4);
    }

    #[test]
    fn history_covers_matches_revealed_by_the_quitting_byte() {
        // The lazy DFA quits on the byte that would reveal the match, so the window search
        // must still hold the whole match, whatever the chunking.
        for pattern in [r"\bhello\b", r"hello\b", r"\bhel+o\b", r"hello\W"] {
            let re = StreamRegex::new(pattern).unwrap();
            for pad in 0..24 {
                let content = [".".repeat(pad), " hello".into(), "— x".into()].concat();
                for chunk in 1..=9 {
                    let limits = Limits {
                        overlap: 64,
                        step: 3,
                        ..limits(chunk)
                    };
                    let got = re.is_match_reader_with(content.as_bytes(), limits).unwrap();
                    assert!(got, "{pattern} {pad} {chunk}");
                }
            }
        }
    }

    #[test]
    fn window_search_misses_only_long_straddling_matches() {
        // The documented limit: with a 4-byte overlap, a 10-byte match across two spans is
        // missed, but a match within the overlap is found wherever it falls.
        let re = StreamRegex::new(r"a\w*z").unwrap();
        let small = Limits {
            chunk: 3,
            overlap: 4,
            step: 4,
            window_only: true,
        };
        let content = b"..............abbbbbbbbz";
        assert!(!re.is_match_reader_with(&content[..], small).unwrap());
        assert!(re.regex().is_match(content));
        let bounded = StreamRegex::new(r"a\w{0,2}z").unwrap();
        for pad in 0..12 {
            let content = [&b".".repeat(pad)[..], b"abbz.."].concat();
            assert!(bounded.is_match_reader_with(&content[..], small).unwrap());
        }
    }

    #[test]
    fn impossible_and_anchored_patterns_stop_early() {
        let re = StreamRegex::new(r"\Aabc").unwrap();
        let mut m = re.matcher();
        m.feed(b"x");
        assert_eq!(m.decided(), Some(false));
        let re = StreamRegex::new(r"[a&&b]").unwrap();
        assert_eq!(re.matcher().decided(), Some(false));
        assert!(!re.is_match_reader(&b"ab"[..]).unwrap());
    }

    #[test]
    fn errors_match_the_regex_crate() {
        let bad = String::from("(");
        assert_eq!(
            StreamRegex::new(&bad).unwrap_err(),
            Regex::new(&bad).unwrap_err()
        );
        let re = Regex::new(r"\d+").unwrap();
        assert_eq!(StreamRegex::from_regex(&re).unwrap().as_str(), r"\d+");
    }

    #[test]
    fn scans_files() {
        let dir = std::env::temp_dir().join(format!("stream-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("out");
        let mask = dir.to_str().unwrap().as_bytes().to_vec();
        let content = [b"file ", &mask[..], b"/out\n"].concat();
        std::fs::write(&path, &content).unwrap();
        let re = StreamRegex::new(r"^file <dir>/out$").unwrap();
        assert!(!re.is_match_reader(File::open(&path).unwrap()).unwrap());
        let got = scan(&path, &mask, Some(&re), 64).unwrap();
        assert_eq!(got.matched, Some(false), "$ without (?m) is the end");
        let re = StreamRegex::new(r"(?m)^file <dir>/out$").unwrap();
        let got = scan(&path, &mask, Some(&re), 64).unwrap();
        assert_eq!(got, whole(&content, &mask, Some(re.regex()), 64));
        assert_eq!(got.matched, Some(true));
        assert!(scan(dir.join("missing"), b"", None, 0).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// `len` bytes of log lines, mentioning `mask` now and then, then `last`; never all in
    /// memory.
    struct Generated {
        len: u64,
        pos: u64,
        line: Vec<u8>,
        last: Vec<u8>,
    }

    impl Generated {
        fn new(len: u64, mask: &[u8], last: &[u8]) -> Generated {
            let line = [
                b"info: compiled ",
                mask,
                b"/unit.c in 12 ms \xC3\xA9t\xC3\xA9\n",
            ]
            .concat();
            Generated {
                len,
                pos: 0,
                line,
                last: last.to_vec(),
            }
        }
    }

    impl Read for Generated {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let total = self.len + self.last.len() as u64;
            let mut n = 0;
            while n < buf.len() && self.pos < total {
                let byte = if self.pos < self.len {
                    self.line[(self.pos % self.line.len() as u64) as usize]
                } else {
                    self.last[(self.pos - self.len) as usize]
                };
                buf[n] = byte;
                n += 1;
                self.pos += 1;
            }
            Ok(n)
        }
    }

    /// The process's peak resident size, where Linux tells it.
    fn peak_rss_kib() -> Option<u64> {
        let status = std::fs::read_to_string("/proc/self/status").ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }

    #[test]
    fn feeds_of_any_size() {
        let content = ["é ".repeat(700_000), "word".into()].concat();
        for pattern in [r"\bword\b", r"(?-u:\b)word\z", r"word$"] {
            let re = StreamRegex::new(pattern).unwrap();
            let mut m = re.matcher();
            m.feed(content.as_bytes());
            assert!(m.finish(), "{pattern}");
        }
    }

    #[test]
    fn scans_200_mb_in_small_memory() {
        let mask = b"/tmp/myhill-0123";
        let len = 200 << 20;
        let re = StreamRegex::new(r"FATAL: <dir>/unit\.c:\d+$").unwrap();
        let last = [b"FATAL: ", &mask[..], b"/unit.c:42"].concat();
        let got = scan_reader(Generated::new(len, mask, &last), mask, Some(&re), 32).unwrap();
        assert_eq!(got.matched, Some(true));
        assert_eq!(got.raw_len, len + last.len() as u64);
        assert_eq!(got.tail.len(), 32);
        assert!(got.tail.ends_with(b"FATAL: <dir>/unit.c:42"));
        assert!(
            re.is_match_reader(Generated::new(len, b"<dir>", b"FATAL: <dir>/unit.c:7"))
                .unwrap()
        );
        if let Some(kib) = peak_rss_kib() {
            assert!(kib < 64 << 10, "peak resident size {kib} KiB");
        }
    }

    /// Single bytes, multi-byte characters and invalid UTF-8, and the mask now and then.
    fn content(mask: Vec<u8>) -> impl Strategy<Value = Vec<u8>> {
        let token = prop_oneof![
            8 => prop::sample::select(&b"ab AB_1\n\r<>/tdi"[..]).prop_map(|b| vec![b]),
            1 => prop::sample::select(vec!["é", "α", "\u{2028}", "ß"]).prop_map(|s| s.as_bytes().to_vec()),
            1 => prop::sample::select(vec![0xFFu8, 0x80, 0xC3]).prop_map(|b| vec![b]),
            2 => Just(mask),
        ];
        prop::collection::vec(token, 0..80).prop_map(|v| v.concat())
    }

    fn mask() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            Just(vec![]),
            prop::sample::select(vec!["a", "aa", "aaa", "ab", "aba", "/tmp/d", "é", "b\n"])
                .prop_map(|s| s.as_bytes().to_vec()),
            prop::collection::vec(prop::sample::select(&b"ab/\xC3\xA9"[..]), 1..5),
        ]
    }

    const ATOMS: &[&str] = &[
        "a",
        "b",
        "ab",
        "é",
        "α",
        "<dir>",
        r"\w",
        r"\W",
        r"\d",
        r"\s",
        ".",
        "(?s:.)",
        "[ab]",
        "[^a]",
        r"(?-u:\xFF)",
        r"(?-u:[\x80-\xFF])",
        "^",
        "$",
        "(?m:^)",
        "(?m:$)",
        "(?Rm:$)",
        r"\b",
        r"\B",
        r"(?-u:\b)",
        r"\A",
        r"\z",
        "(?i:A)",
        r"\n",
        r"\p{Greek}",
        r"\b{start}",
        r"\b{end}",
        r"\b{start-half}",
        "",
    ];

    const FILLER: &[&str] = &[
        " ", ".", "é", "\n", "α", "x", "\r\n", "\u{FF}", "—", "\u{A0}",
    ];

    /// Random patterns over [`ATOMS`]: a concatenation of two to four parts, so that most
    /// need something particular in the content.
    fn pattern() -> impl Strategy<Value = String> {
        let atom = prop::sample::select(ATOMS).prop_map(String::from);
        let part = atom.prop_recursive(3, 16, 4, |inner| {
            prop_oneof![
                3 => prop::collection::vec(inner.clone(), 1..4).prop_map(|v| v.concat()),
                2 => (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("(?:{a}|{b})")),
                1 => inner.clone().prop_map(|a| format!("(?:{a})*")),
                1 => inner.clone().prop_map(|a| format!("(?:{a})+")),
                1 => inner.clone().prop_map(|a| format!("(?:{a})?")),
                1 => inner.prop_map(|a| format!("(?:{a}){{1,3}}")),
            ]
        });
        prop::collection::vec(part, 2..5).prop_map(|v| v.concat())
    }

    fn case() -> impl Strategy<Value = (Vec<u8>, Vec<u8>)> {
        mask().prop_flat_map(|m| (content(m.clone()), Just(m)))
    }

    /// Patterns with bounded matches and look-around, mostly Unicode word boundaries, each
    /// with a string it matches in some contexts.
    const PLANTED: &[(&str, &str)] = &[
        (r"\bab\b", "ab"),
        (r"\bab", "ab"),
        (r"ab\b", "ab"),
        (r"\Bab", "xab"),
        (r"ab\B", "abé"),
        (r"\béb", "éb"),
        (r"b\b", "ab"),
        (r"\Bb\B", "abé"),
        (r"(?m)^ab$", "ab\n"),
        (r"(?m)^x ab$", "x ab\r\n"),
        (r"b$", "ab"),
        (r"\b{start}a", "ab"),
        (r"b\b{end}", "ab"),
        (r"a\sb", "a b"),
        (r"\bx\b", "x ab"),
        (r"(?-u:\b)ab", "ab"),
        (r"\w\w\b", "éb"),
        (r"\A\W", "."),
        (r"\b\w{2}\b", "ab"),
        (r"(?:ab|éb)\z", "éb"),
        (r"\bx ab", "x ab"),
        (r"a b\b", "x a b"),
        (r"éb\b", "éb"),
        (r"ab\né", "ab\né"),
        (r"\bé{3}\b", "ééé"),
        (r"\bhello\b", "hello"),
        (r"(?m)^hello world\b", "hello world"),
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn window_search_finds_planted_matches(
            before in prop::collection::vec(prop::sample::select(FILLER), 0..40),
            after in prop::collection::vec(prop::sample::select(FILLER), 0..40),
            (pattern, needle) in prop::sample::select(PLANTED),
            chunk in 1usize..8,
            overlap in 0usize..12,
            step in 1usize..8,
            window_only: bool,
        ) {
            let content = [before.concat(), needle.to_string(), after.concat()].concat();
            let re = StreamRegex::new(pattern).unwrap();
            let limits = Limits { chunk, overlap, step, window_only };
            let got = re.is_match_reader_with(content.as_bytes(), limits).unwrap();
            let want = re.regex().is_match(content.as_bytes());
            if re.max_len.is_some_and(|m| m <= overlap) {
                prop_assert_eq!(got, want, "pattern {:?} in {:?}", pattern, content);
            } else {
                prop_assert!(!got || want, "no false match for {:?} in {:?}", pattern, content);
            }
        }

        #[test]
        fn scan_agrees_with_whole_buffer(
            (content, mask) in case(),
            pattern in pattern(),
            chunk in 1usize..8,
            sizes in prop::collection::vec(1usize..8, 1..6),
            tail in 0usize..12,
        ) {
            let re = StreamRegex::new(&pattern).unwrap();
            let want = whole(&content, &mask, Some(re.regex()), tail);
            let got = scan_pieces(&content, &sizes, &mask, Some(&re), tail, limits(chunk));
            prop_assert_eq!(&got, &want, "pattern {:?}", pattern);
            let plain = re.is_match_reader_with(
                Pieces { data: &content, sizes: sizes.clone(), i: 0 },
                limits(chunk),
            ).unwrap();
            prop_assert_eq!(plain, re.regex().is_match(&content));
        }

        #[test]
        fn window_search_is_exact_within_the_overlap(
            (content, mask) in case(),
            pattern in pattern(),
            chunk in 1usize..8,
            overlap in 0usize..12,
            step in 1usize..8,
        ) {
            let re = StreamRegex::new(&pattern).unwrap();
            let exact = re.max_len.is_some_and(|m| m <= overlap);
            let small = Limits { chunk, overlap, step, window_only: true };
            let got = re.is_match_reader_with(&content[..], small).unwrap();
            let want = re.regex().is_match(&content);
            if exact {
                prop_assert_eq!(got, want, "pattern {:?}", pattern);
            } else {
                prop_assert!(!got || want, "no false match for {:?}", pattern);
            }
            let big = Limits { chunk, overlap: 1 << 20, step, window_only: true };
            let got = scan_pieces(&content, &[chunk], &mask, Some(&re), 5, big);
            prop_assert_eq!(got, whole(&content, &mask, Some(re.regex()), 5));
        }

        #[test]
        fn digest_agrees_with_replace_then_hash(
            (content, mask) in case(),
            sizes in prop::collection::vec(1usize..8, 1..6),
            tail in 0usize..20,
        ) {
            let got = scan_pieces(&content, &sizes, &mask, None, tail, limits(3));
            prop_assert_eq!(&got, &whole(&content, &mask, None, tail));
            prop_assert_eq!(got.digest, OutputDigest::of(&content, &mask));
        }
    }
}
