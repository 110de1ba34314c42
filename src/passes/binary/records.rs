//! Length-aware deletion: delete inside length-prefixed records and fix every enclosing length.
//!
//! Main type: [`LengthAware`], a [`crate::passes::Pass`]. Many binary formats are records that say
//! how long they are (type-length-value, chunks, atoms, boxes), and records that hold
//! records. Deleting anything inside one breaks its length and its parents' lengths, so a
//! deletion-only reducer can drop whole top-level records and nothing else. This pass infers
//! the record layout from the bytes, no format known in advance, and proposes deletions that
//! change every enclosing length field by what they remove.
//!
//! **Inferring the layout.** A layout says where the records start (after a header of up to
//! 16 bytes, a magic number say), how long a record header is (1 to 8 bytes), where in it the
//! length is (1, 2 or 4 bytes, little- or big-endian) and what the length counts (the bytes
//! after the header, from the field on, or the whole record). A layout fits if it reads the
//! input from its start to its very last byte as a chain of records; a record whose value
//! reads the same way, to its very last byte, is a container. A container's children may
//! start 4 bytes into its value, after a form type: RIFF's and IFF's lists (`LIST`, a u32
//! length, `movi`, then chunks), so a stream of `[4-byte id][u32 LE or BE length][payload]`
//! chunks with such lists nested in it is read as a tree. Of the layouts that fit, the
//! one that finds the most containers wins (each is a coincidence random bytes rarely make;
//! only kinds of record that always read as containers count), then the earliest start, the
//! most records, the widest length field and the shortest header; it must find at least [`LengthAware::MIN_RECORDS`] records and
//! [`LengthAware::MIN_CONTAINERS`] containers, or the pass proposes nothing: random bytes
//! almost never read that way.
//!
//! **Candidates**, in one sweep (`patch.rs`), every enclosing length field changed by what a
//! deletion removes (changes of one field add up across the sweep): runs of sibling records
//! (the top level's or one container's: halves, quarters, eighths and so on) and single
//! records deleted, largest first, and every child of a container; each record's value cut to
//! nothing, to one grain and to its front half, or its front half deleted (a kind's grain is
//! the largest power of two up to 8 dividing all its value lengths: 4 for u32 values); each
//! container replaced by one of the containers directly inside it. A pass costs at most one
//! test per candidate, a few per record; halving runs find one needed record among `n`
//! siblings in about `2 log2 n` tests.
//!
//! ```
//! use myhill::{FnOracle, eval::EvalOptions, passes::{Cx, LengthAware, Pass}};
//! // Records: [type][u8 length of the value][value]; type 1 holds records. `Some(found)`
//! // if every length is right, `found` if a type 9 record lies two lists deep or more.
//! fn read(b: &[u8], depth: u32) -> Option<bool> {
//!     let (mut x, mut found) = (0, false);
//!     while x < b.len() {
//!         let end = x + 2 + *b.get(x + 1)? as usize;
//!         let value = b.get(x + 2..end)?;
//!         found |= match b[x] {
//!             1 => read(value, depth + 1)?,
//!             9 => depth >= 2,
//!             _ => false,
//!         };
//!         x = end;
//!     }
//!     Some(found)
//! }
//! let record = |kind: u8, value: &[u8]| [&[kind, value.len() as u8][..], value].concat();
//! let leaves = |n: u8| (0..n).flat_map(|k| record(2, &[k; 3])).collect::<Vec<u8>>();
//! let inner = [leaves(2), record(9, &[7, 7]), leaves(2)].concat();
//! let input = [
//!     record(1, &leaves(3)),
//!     record(1, &[record(1, &inner), leaves(2)].concat()),
//!     record(1, &leaves(2)),
//! ]
//! .concat();
//! let oracle = FnOracle::new(|b: &[u8]| read(b, 0) == Some(true));
//! let mut cx = Cx::new(input, &oracle, EvalOptions::default());
//! LengthAware::default().run(&mut cx).unwrap();
//! assert_eq!(cx.best(), [1, 4, 1, 2, 9, 0]);
//! ```
//!
//! Limits: one layout per input, the same at every depth; lengths stored as plain unsigned
//! integers (no varints); no trailer after a record's value (PNG's CRC) and no padding byte
//! after an odd-length one (RIFF's), so PNG is not read, and a RIFF file only if every chunk
//! has an even length; inputs over 4 MiB are left alone. notes/length-aware.md measures it.

use crate::cx::Cx;
use crate::passes::patch::{Cut, Patch, sweep};
use crate::report::{Counter, Stop};
use crate::schedule::Pass;

/// Deletes records, fixing enclosing lengths; see the module doc.
#[derive(Clone, Debug, Default)]
pub struct LengthAware {
    /// The layout believed on an earlier run: kept while it still reads the input, which a
    /// small input may do with too few records to be believed on its own.
    layout: Option<Layout>,
    /// The grain of each kind of leaf record, learnt on every run under that layout.
    grains: Grains,
}

impl LengthAware {
    /// A layout must find at least this many records to be believed.
    pub const MIN_RECORDS: usize = 8;
    /// ... and this many containers: each is a chain of records that ends exactly where its
    /// parent says, which random bytes read under some layout about once in a hundred
    /// records.
    pub const MIN_CONTAINERS: usize = 3;
    /// Larger inputs are left to other passes.
    pub const MAX_BYTES: usize = 4 << 20;
}

/// What a length counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Base {
    /// The bytes after the header.
    Value,
    /// The bytes from the length field on.
    Field,
    /// The whole record.
    Record,
}

/// Where records are and how long they say they are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Layout {
    start: usize,
    header: usize,
    len_at: usize,
    width: usize,
    big_endian: bool,
    base: Base,
    /// Bytes at the start of a container's value before its first child: 0, or
    /// [`FORM_BYTES`] for the form type of RIFF's and IFF's lists (`LIST` length `movi` ...).
    form: usize,
}

/// The form type of a RIFF- or IFF-like list: four bytes between its header and its children.
const FORM_BYTES: usize = 4;

/// One record: its bytes, its length field, and its place in the tree.
#[derive(Clone, Debug)]
struct Record {
    start: usize,
    end: usize,
    parent: Option<usize>,
    container: bool,
}

fn read(bytes: &[u8], at: usize, width: usize, big_endian: bool) -> Option<u64> {
    let field = bytes.get(at..at + width)?;
    let mut v = 0u64;
    for k in 0..width {
        let b = if big_endian {
            field[k]
        } else {
            field[width - 1 - k]
        };
        v = (v << 8) | b as u64;
    }
    Some(v)
}

impl Layout {
    /// Where the record at `x` ends, if its length is plausible within `limit`.
    fn record_end(&self, input: &[u8], x: usize, limit: usize) -> Option<usize> {
        let v = usize::try_from(read(input, x + self.len_at, self.width, self.big_endian)?).ok()?;
        let end = match self.base {
            Base::Value => x.checked_add(self.header)?.checked_add(v)?,
            Base::Field => x.checked_add(self.len_at)?.checked_add(v)?,
            Base::Record => x.checked_add(v)?,
        };
        (end >= x + self.header && end <= limit).then_some(end)
    }

    /// The records from `from` to exactly `to`, if the bytes read that way.
    fn chain(&self, input: &[u8], from: usize, to: usize) -> Option<Vec<(usize, usize)>> {
        let mut out = Vec::new();
        let mut x = from;
        while x < to {
            let end = self.record_end(input, x, to)?;
            out.push((x, end));
            x = end;
        }
        Some(out)
    }

    /// The record tree of `input`, or `None` if the top level does not read to the end.
    fn tree(&self, input: &[u8]) -> Option<Vec<Record>> {
        let top = self.chain(input, self.start, input.len())?;
        let mut records: Vec<Record> = Vec::new();
        // (record span, parent, depth) still to look into.
        let mut todo: Vec<((usize, usize), Option<usize>, usize)> =
            top.into_iter().rev().map(|r| (r, None, 0)).collect();
        while let Some(((start, end), parent, depth)) = todo.pop() {
            let index = records.len();
            records.push(Record {
                start,
                end,
                parent,
                container: false,
            });
            let first = start + self.header + self.form;
            if depth < 16
                && end >= first + self.header
                && let Some(children) = self.chain(input, first, end)
            {
                records[index].container = true;
                todo.extend(
                    children
                        .into_iter()
                        .rev()
                        .map(|c| (c, Some(index), depth + 1)),
                );
            }
        }
        Some(records)
    }

    /// The header bytes of record `r` other than its length: its type, in most formats.
    fn kind<'a>(&self, input: &'a [u8], r: &Record) -> (&'a [u8], &'a [u8]) {
        let header = &input[r.start..r.start + self.header];
        (&header[..self.len_at], &header[self.len_at + self.width..])
    }

    /// Keeps as containers only the records of kinds whose every record with room for a
    /// child reads as a container: a leaf whose bytes happen to read as records is a leaf.
    fn settle_containers(&self, input: &[u8], records: &mut [Record]) {
        if self.header == self.width {
            return;
        }
        let mut kinds: std::collections::HashMap<(&[u8], &[u8]), bool> = Default::default();
        for r in records.iter() {
            if r.end - r.start >= 2 * self.header + self.form {
                *kinds.entry(self.kind(input, r)).or_insert(true) &= r.container;
            }
        }
        for r in records.iter_mut() {
            r.container &= kinds.get(&self.kind(input, r)).copied().unwrap_or(false);
        }
    }

    /// The bytes of record `r`'s length field.
    fn field(&self, r: &Record) -> (usize, usize) {
        let at = r.start + self.len_at;
        (at, at + self.width)
    }
}

/// Every layout [`infer`] tries on an input of `len` bytes.
fn layouts(len: usize) -> impl Iterator<Item = Layout> {
    let widths = [1usize, 2, 4];
    (0..=len.min(16)).flat_map(move |start| {
        (1..=8usize).flat_map(move |header| {
            widths
                .into_iter()
                .filter(move |&width| width <= header)
                .flat_map(move |width| {
                    (0..=header - width).flat_map(move |len_at| {
                        let orders: &[bool] = if width == 1 { &[false] } else { &[false, true] };
                        orders.iter().flat_map(move |&big_endian| {
                            [Base::Value, Base::Field, Base::Record]
                                .into_iter()
                                .flat_map(move |base| {
                                    [0, FORM_BYTES].into_iter().map(move |form| Layout {
                                        start,
                                        header,
                                        len_at,
                                        width,
                                        big_endian,
                                        base,
                                        form,
                                    })
                                })
                        })
                    })
                })
        })
    })
}

/// The layout of `input` that finds the most containers, with its tree, if one is believable.
fn infer(input: &[u8]) -> Option<(Layout, Vec<Record>)> {
    if input.len() > LengthAware::MAX_BYTES {
        return None;
    }
    let score = |t: &[Record], l: &Layout| {
        let containers = t.iter().filter(|r| r.container).count();
        (
            containers,
            std::cmp::Reverse(l.start),
            t.len(),
            l.width,
            std::cmp::Reverse(l.header),
            std::cmp::Reverse(l.form),
        )
    };
    let mut best: Option<(Layout, Vec<Record>)> = None;
    for layout in layouts(input.len()) {
        let Some(mut tree) = layout.tree(input) else {
            continue;
        };
        layout.settle_containers(input, &mut tree);
        if best
            .as_ref()
            .is_none_or(|(b, t)| score(&tree, &layout) > score(t, b))
        {
            best = Some((layout, tree));
        }
    }
    best.filter(|(_, tree)| {
        tree.len() >= LengthAware::MIN_RECORDS
            && tree.iter().filter(|r| r.container).count() >= LengthAware::MIN_CONTAINERS
    })
}

/// `cuts` plus every length field enclosing a change of `removed` bytes inside record `r`
/// (its own and its ancestors') changed by `-removed`.
fn with_fixups(
    layout: &Layout,
    records: &[Record],
    mut at: Option<usize>,
    removed: usize,
    mut cuts: Vec<Cut>,
) -> Option<Patch> {
    while let Some(r) = at {
        let (s, e) = layout.field(&records[r]);
        cuts.push(Cut {
            start: s,
            end: e,
            with: Vec::new(),
            adjust: Some((layout.big_endian, -(removed as i64))),
        });
        at = records[r].parent;
    }
    Patch::of(cuts)
}

/// Runs of consecutive siblings to delete, as `(first, last)` indices into `siblings`: the
/// list halved, then in quarters, eighths and so on, every run at least two long (single
/// records are deleted on their own).
fn sibling_runs(siblings: &[usize]) -> Vec<(usize, usize)> {
    let n = siblings.len();
    let mut runs = Vec::new();
    let mut parts = 2;
    while parts <= n {
        for k in 0..parts {
            let (from, to) = (k * n / parts, (k + 1) * n / parts);
            if to - from >= 2 {
                runs.push((siblings[from], siblings[to - 1]));
            }
        }
        parts *= 2;
    }
    runs
}

/// The kind of a record (its header bytes other than the length) and how long its value is.
type Grains = std::collections::HashMap<Vec<u8>, usize>;

/// Adds to `grains` each kind of leaf record's value lengths: a kind's grain is the largest
/// power of two up to 8 that divides every value length of that kind seen so far (4 for a
/// record of u32 values, 1 for text). A value cut keeps a multiple of it.
fn learn_grains(layout: &Layout, input: &[u8], records: &[Record], grains: &mut Grains) {
    for r in records.iter().filter(|r| !r.container) {
        let len = r.end - r.start - layout.header;
        let (before, after) = layout.kind(input, r);
        let g = grains.entry([before, after].concat()).or_insert(8);
        while !len.is_multiple_of(*g) {
            *g /= 2;
        }
    }
}

/// The candidates on `input` under `layout`, the ones that remove most first: a candidate
/// that covers another is always tried before it, so the length changes of two accepted
/// candidates never count the same bytes twice.
fn candidates(layout: Layout, input: &[u8], records: &[Record], grains: &Grains) -> Vec<Patch> {
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); records.len() + 1];
    for (i, r) in records.iter().enumerate() {
        children[r.parent.map_or(0, |p| p + 1)].push(i);
    }
    let mut deletions = Vec::new();
    let mut values = Vec::new();
    let mut hoists = Vec::new();
    for (slot, siblings) in children.iter().enumerate() {
        let parent = slot.checked_sub(1);
        for (first, last) in sibling_runs(siblings) {
            let (start, end) = (records[first].start, records[last].end);
            deletions.extend(with_fixups(
                &layout,
                records,
                parent,
                end - start,
                vec![Cut::delete(start, end)],
            ));
        }
    }
    for (i, r) in records.iter().enumerate() {
        let size = r.end - r.start;
        deletions.extend(with_fixups(
            &layout,
            records,
            r.parent,
            size,
            vec![Cut::delete(r.start, r.end)],
        ));
        let value = r.start + layout.header;
        let len = r.end - value;
        let grain = if r.container {
            1
        } else {
            let (before, after) = layout.kind(input, r);
            grains.get(&[before, after].concat()).copied().unwrap_or(1)
        };
        if r.container {
            // Every child deleted: the form type stays.
            deletions.extend(with_fixups(
                &layout,
                records,
                Some(i),
                len - layout.form,
                vec![Cut::delete(value + layout.form, r.end)],
            ));
        }
        let half = len / 2 / grain * grain;
        // A container's value is cut too: a leaf may read as a container by chance (a tag
        // whose value bytes happen to read as an empty record).
        let mut keeps = vec![0, grain.min(len), half];
        keeps.dedup();
        let form = if r.container { Some(layout.form) } else { None };
        for keep in keeps.into_iter().filter(|&k| k < len && Some(k) != form) {
            values.extend(with_fixups(
                &layout,
                records,
                Some(i),
                len - keep,
                vec![Cut::delete(value + keep, r.end)],
            ));
        }
        // The back half kept instead of the front: what a record needs may lie past its middle.
        if !r.container && half > 0 {
            values.extend(with_fixups(
                &layout,
                records,
                Some(i),
                half,
                vec![Cut::delete(value, value + half)],
            ));
        }
        if r.container {
            for c in records
                .iter()
                .filter(|c| c.parent == Some(i) && c.container)
            {
                let removed = size - (c.end - c.start);
                hoists.extend(with_fixups(
                    &layout,
                    records,
                    r.parent,
                    removed,
                    vec![Cut::delete(r.start, c.start), Cut::delete(c.end, r.end)],
                ));
            }
        }
    }
    let by_size = |v: &mut Vec<Patch>| v.sort_by_key(|p| std::cmp::Reverse(p.removed()));
    by_size(&mut deletions);
    by_size(&mut values);
    by_size(&mut hoists);
    deletions.into_iter().chain(values).chain(hoists).collect()
}

impl Pass for LengthAware {
    fn name(&self) -> String {
        "length-aware".into()
    }

    fn run(&mut self, cx: &mut Cx) -> Result<(), Stop> {
        let input = cx.best();
        let kept = self.layout.and_then(|l| {
            let mut tree = l.tree(input)?;
            l.settle_containers(input, &mut tree);
            Some((l, tree))
        });
        let Some((layout, records)) = kept.or_else(|| infer(input)) else {
            return Ok(());
        };
        if self.layout != Some(layout) {
            self.grains.clear();
        }
        learn_grains(&layout, input, &records, &mut self.grains);
        let candidates = candidates(layout, input, &records, &self.grains);
        if self.layout != Some(layout) {
            cx.count(Counter::LengthAwareLayoutsFound, 1);
            self.layout = Some(layout);
        }
        sweep(cx, &candidates).map(drop)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Records `[type][u16 LE length][value]` after a 4-byte magic; type 0x10 holds records.
    fn tlv(depth: u32, seed: &mut u64) -> Vec<u8> {
        let mut out = Vec::new();
        let count = 2 + (*seed % 3) as usize;
        for _ in 0..count {
            *seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let value = if depth > 0 && seed.is_multiple_of(2) {
                (0x10u8, tlv(depth - 1, seed))
            } else {
                let len = (*seed >> 40) as usize % 9;
                (1u8 + (*seed >> 20) as u8 % 14, vec![0xAB; len])
            };
            out.push(value.0);
            out.extend((value.1.len() as u16).to_le_bytes());
            out.extend(value.1);
        }
        out
    }

    #[test]
    fn the_layout_of_nested_records_is_found() {
        let mut seed = 7;
        let mut input = b"MHR1".to_vec();
        input.extend(tlv(3, &mut seed));
        let (layout, records) = infer(&input).unwrap();
        assert_eq!(
            (layout.start, layout.header, layout.len_at, layout.width),
            (4, 3, 1, 2)
        );
        assert!(!layout.big_endian && layout.base == Base::Value);
        assert!(records.iter().any(|r| r.container));
    }

    /// A chunk `[id][u32 length][payload]`, the length little- or big-endian.
    fn chunk(id: &[u8; 4], payload: &[u8], big_endian: bool) -> Vec<u8> {
        let len = payload.len() as u32;
        let len = if big_endian {
            len.to_be_bytes()
        } else {
            len.to_le_bytes()
        };
        [&id[..], &len, payload].concat()
    }

    /// A list chunk: its form type, then its children.
    fn list(form: &[u8; 4], children: &[Vec<u8>], big_endian: bool) -> Vec<u8> {
        chunk(
            b"LIST",
            &[&form[..], &children.concat()].concat(),
            big_endian,
        )
    }

    /// A strict reader of the chunks in `b`: `Some(found)` if every length is right and every
    /// list holds a form type and chunks that fill it exactly, `found` if a `BAD!` chunk lies
    /// in a `trak` list inside another list.
    fn riff_read(b: &[u8], depth: u32, form: &[u8], big_endian: bool) -> Option<bool> {
        let (mut x, mut found) = (0, false);
        while x < b.len() {
            let field: [u8; 4] = b.get(x + 4..x + 8)?.try_into().ok()?;
            let len = if big_endian {
                u32::from_be_bytes(field)
            } else {
                u32::from_le_bytes(field)
            } as usize;
            let payload = b.get(x + 8..x + 8 + len)?;
            found |= match &b[x..x + 4] {
                b"LIST" => riff_read(payload.get(4..)?, depth + 1, &payload[..4], big_endian)?,
                b"BAD!" => depth >= 2 && form == b"trak",
                b"TEXT" | b"INDX" => false,
                _ => return None,
            };
            x += 8 + len;
        }
        Some(found)
    }

    /// A RIFF-like file: a magic, then `lists` top-level lists of text and index chunks with
    /// lists inside, the `BAD!` chunk in a `trak` list inside list number `needle`.
    fn riff_like(lists: usize, needle: usize, big_endian: bool) -> Vec<u8> {
        let c = |id: &[u8; 4], payload: &[u8]| chunk(id, payload, big_endian);
        let l = |form: &[u8; 4], children: &[Vec<u8>]| list(form, children, big_endian);
        let mut out = b"MHCK".to_vec();
        for k in 0..lists {
            let text = c(b"TEXT", format!("take {k} of the night scene").as_bytes());
            let index = c(b"INDX", &[(k % 251) as u8; 12]);
            let mut inner = vec![c(b"TEXT", b"left"), index.clone()];
            if k == needle {
                inner.push(c(b"BAD!", &[7; 6]));
            }
            let trak = l(b"trak", &inner);
            let meta = l(b"meta", &[text.clone(), c(b"TEXT", b"cam")]);
            out.extend(l(b"movi", &[text, meta, trak, index]));
        }
        out
    }

    #[test]
    fn riff_like_lists_are_read_after_their_form_type() {
        for big_endian in [false, true] {
            let input = riff_like(6, 3, big_endian);
            let (layout, records) = infer(&input).expect("a layout");
            assert_eq!(
                (layout.start, layout.header, layout.len_at, layout.width),
                (4, 8, 4, 4)
            );
            assert_eq!(
                (layout.big_endian, layout.base, layout.form),
                (big_endian, Base::Value, FORM_BYTES)
            );
            // Every LIST is a container, and nothing else is.
            for r in &records {
                assert_eq!(r.container, &input[r.start..r.start + 4] == b"LIST");
            }
            assert_eq!(records.iter().filter(|r| r.container).count(), 6 * 3);
        }
    }

    #[test]
    fn a_riff_like_file_loses_whole_chunks_and_runs_of_them_with_every_length_fixed() {
        use crate::{FnOracle, eval::EvalOptions};
        use std::sync::atomic::{AtomicUsize, Ordering};
        for big_endian in [false, true] {
            let input = riff_like(64, 41, big_endian);
            let tests = AtomicUsize::new(0);
            let oracle = FnOracle::new(|b: &[u8]| {
                tests.fetch_add(1, Ordering::Relaxed);
                b.starts_with(b"MHCK") && riff_read(&b[4..], 0, b"", big_endian) == Some(true)
            });
            let mut cx = Cx::new(input.clone(), &oracle, EvalOptions::default());
            let mut pass = LengthAware::default();
            for _ in 0..4 {
                pass.run(&mut cx).unwrap();
            }
            let c = |id: &[u8; 4], payload: &[u8]| chunk(id, payload, big_endian);
            let l = |form: &[u8; 4], children: &[Vec<u8>]| list(form, children, big_endian);
            let smallest = [
                b"MHCK".to_vec(),
                l(b"movi", &[l(b"trak", &[c(b"BAD!", &[])])]),
            ]
            .concat();
            assert_eq!(cx.best(), smallest);
            // Runs of the 64 top-level lists go by halves: far fewer tests than one a chunk.
            let tests = tests.load(Ordering::Relaxed);
            assert!(tests <= 50, "{tests} tests");
        }
    }

    #[test]
    fn random_bytes_have_no_believable_layout() {
        let mut x = 0x9e3779b97f4a7c15u64;
        for len in [64, 200, 512, 1000, 2048, 4096, 4096, 4096, 8192, 8192] {
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    (x >> 24) as u8
                })
                .collect();
            assert!(infer(&bytes).is_none(), "{len} random bytes");
        }
    }

    proptest! {
        #[test]
        fn every_candidate_keeps_every_length_right(seed in any::<u64>()) {
            let mut s = seed;
            let mut input = b"MHR1".to_vec();
            input.extend(tlv(3, &mut s));
            let Some((layout, records)) = infer(&input) else { return Ok(()); };
            let mut grains = Grains::default();
            learn_grains(&layout, &input, &records, &mut grains);
            for patch in candidates(layout, &input, &records, &grains) {
                prop_assert!(patch.removed() > 0);
                let Some(out) = apply(&input, &patch) else { continue };
                // Still reads to the end under the same layout.
                prop_assert!(layout.tree(&out).is_some(), "{:?}", patch);
            }
        }
    }

    fn apply(input: &[u8], patch: &Patch) -> Option<Vec<u8>> {
        let mut out = Vec::new();
        let mut at = 0;
        for c in patch.cuts() {
            out.extend_from_slice(&input[at..c.start]);
            match c.adjust {
                Some((big, d)) => out.extend(crate::passes::patch::adjusted(
                    &input[c.start..c.end],
                    big,
                    d,
                )?),
                None => out.extend_from_slice(&c.with),
            }
            at = c.end;
        }
        out.extend_from_slice(&input[at..]);
        Some(out)
    }
}
