//! Cutting an input into atomic units at a granularity, and rendering kept units back to bytes.
//!
//! Main types: [`Granularity`] (bytes, lines, tokens) and [`Units`]. Unit `i` is a byte range of
//! the input; the ranges tile the input exactly, so rendering every unit gives the input back.
//!
//! ```
//! use myhill::text::{Granularity, IdSet, Units};
//! let units = Units::cut(b"int x = 42;\n", Granularity::Tokens);
//! assert_eq!(units.len(), 9); // int, " ", x, " ", =, " ", 42, ;, "\n"
//! let lines = Units::cut(b"a\nb\nc", Granularity::Lines);
//! assert_eq!(lines.render(&IdSet::from_sorted(&[0, 2])), b"a\nc");
//! ```
//!
//! Tokens are the lexemes of [`crate::text::lex`]: words, numbers, whole string literals and comments,
//! runs of whitespace, and any other single byte. Lines keep their `\n`. Limits: unit
//! boundaries are `u32`, so inputs are at most 4 GiB.

use crate::idset::IdSet;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

/// How an input is cut into units.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Granularity {
    /// Every byte is a unit.
    Bytes,
    /// Every line, with its newline, is a unit.
    Lines,
    /// Every lexeme of [`crate::text::lex`] is a unit.
    Tokens,
}

impl Granularity {
    /// Every granularity.
    pub const ALL: [Granularity; 3] = [Granularity::Bytes, Granularity::Lines, Granularity::Tokens];

    /// Its name, as `--units` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Granularity::Bytes => "bytes",
            Granularity::Lines => "lines",
            Granularity::Tokens => "tokens",
        }
    }
}

impl fmt::Display for Granularity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a granularity.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseGranularityError(pub String);

impl fmt::Display for ParseGranularityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown unit granularity {:?}: use bytes, lines or tokens",
            self.0
        )
    }
}

impl std::error::Error for ParseGranularityError {}

impl FromStr for Granularity {
    type Err = ParseGranularityError;
    fn from_str(s: &str) -> Result<Self, ParseGranularityError> {
        match s {
            "bytes" | "byte" | "chars" => Ok(Granularity::Bytes),
            "lines" | "line" => Ok(Granularity::Lines),
            "tokens" | "token" => Ok(Granularity::Tokens),
            other => Err(ParseGranularityError(other.to_string())),
        }
    }
}

/// An input cut into units: unit `i` is `data[bounds[i]..bounds[i + 1]]`.
#[derive(Clone, Debug)]
pub struct Units {
    data: Arc<Vec<u8>>,
    bounds: Vec<u32>,
}

impl Units {
    /// Cuts `input` at `granularity`.
    pub fn cut(input: &[u8], granularity: Granularity) -> Units {
        Units::cut_shared(Arc::new(input.to_vec()), granularity)
    }

    /// Cuts `input` at `granularity`, sharing its bytes instead of copying them.
    pub fn cut_shared(input: Arc<Vec<u8>>, granularity: Granularity) -> Units {
        assert!(
            input.len() < u32::MAX as usize,
            "inputs are limited to 4 GiB"
        );
        let bounds = match granularity {
            Granularity::Bytes => (0..=input.len() as u32).collect(),
            Granularity::Lines => line_bounds(&input),
            Granularity::Tokens => token_bounds(&input),
        };
        Units {
            data: input,
            bounds,
        }
    }

    /// The units of `data` that start at `bounds` (ascending, from 0, with `data`'s length
    /// last), sharing its bytes.
    pub(crate) fn tiling(data: Arc<Vec<u8>>, bounds: Vec<u32>) -> Units {
        debug_assert!(bounds.first() == Some(&0) && bounds.last() == Some(&(data.len() as u32)));
        debug_assert!(bounds.is_sorted());
        Units { data, bounds }
    }

    /// Units given piece by piece (for hand-built examples); empty pieces are allowed.
    pub fn from_pieces<P: AsRef<[u8]>>(pieces: impl IntoIterator<Item = P>) -> Units {
        let mut data = Vec::new();
        let mut bounds = vec![0u32];
        for p in pieces {
            data.extend_from_slice(p.as_ref());
            bounds.push(data.len() as u32);
        }
        Units {
            data: Arc::new(data),
            bounds,
        }
    }

    /// Number of units.
    pub fn len(&self) -> usize {
        self.bounds.len() - 1
    }

    /// Whether there are no units.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every unit.
    pub fn all(&self) -> IdSet {
        IdSet::range(0, self.len() as u32)
    }

    /// The bytes of unit `i`.
    pub fn unit(&self, i: u32) -> &[u8] {
        &self.data[self.bounds[i as usize] as usize..self.bounds[i as usize + 1] as usize]
    }

    /// Byte offset where unit `i` starts (`i == len()` gives the input's length).
    pub fn offset(&self, i: u32) -> usize {
        self.bounds[i as usize] as usize
    }

    /// The whole input.
    pub fn data(&self) -> &[u8] {
        &self.data
    }

    /// Number of bytes the kept units render to.
    pub fn rendered_len(&self, kept: &IdSet) -> usize {
        kept.runs()
            .iter()
            .map(|&(s, e)| (self.bounds[e as usize] - self.bounds[s as usize]) as usize)
            .sum()
    }

    /// The bytes of the kept units, in order: one copy per run.
    pub fn render(&self, kept: &IdSet) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.rendered_len(kept));
        for &(s, e) in kept.runs() {
            out.extend_from_slice(
                &self.data[self.bounds[s as usize] as usize..self.bounds[e as usize] as usize],
            );
        }
        out
    }
}

fn line_bounds(input: &[u8]) -> Vec<u32> {
    let mut bounds = vec![0u32];
    for (i, &b) in input.iter().enumerate() {
        if b == b'\n' {
            bounds.push(i as u32 + 1);
        }
    }
    if *bounds.last().unwrap() as usize != input.len() {
        bounds.push(input.len() as u32);
    }
    bounds
}

fn token_bounds(input: &[u8]) -> Vec<u32> {
    let mut bounds = vec![0u32];
    bounds.extend(crate::lex::lex(input).iter().map(|l| l.end as u32));
    bounds
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn tokens_are_the_lexemes() {
        let u = Units::cut(b"int x1 = 4.5e3;  // hi\n", Granularity::Tokens);
        let pieces: Vec<&[u8]> = (0..u.len() as u32).map(|i| u.unit(i)).collect();
        let want: Vec<&[u8]> = vec![
            b"int", b" ", b"x1", b" ", b"=", b" ", b"4.5e3", b";", b"  ", b"// hi\n",
        ];
        assert_eq!(pieces, want);
    }

    #[test]
    fn lines_keep_newlines_and_a_final_partial_line() {
        let u = Units::cut(b"a\n\nbc", Granularity::Lines);
        assert_eq!(u.len(), 3);
        assert_eq!(u.unit(1), b"\n");
        assert_eq!(u.unit(2), b"bc");
        assert_eq!(Units::cut(b"", Granularity::Lines).len(), 0);
    }

    proptest! {
        #[test]
        fn every_granularity_round_trips(input in proptest::collection::vec(any::<u8>(), 0..300)) {
            for g in Granularity::ALL {
                let u = Units::cut(&input, g);
                prop_assert_eq!(u.render(&u.all()), input.clone());
                for i in 0..u.len() as u32 {
                    prop_assert!(!u.unit(i).is_empty());
                }
            }
        }

        #[test]
        fn rendering_a_subset_concatenates_its_units(
            input in proptest::collection::vec(any::<u8>(), 0..200),
            keep in proptest::collection::vec(any::<bool>(), 0..200),
        ) {
            let u = Units::cut(&input, Granularity::Tokens);
            let kept: IdSet = (0..u.len() as u32).filter(|&i| *keep.get(i as usize).unwrap_or(&true)).collect();
            let want: Vec<u8> = kept.iter().flat_map(|i| u.unit(i).to_vec()).collect();
            prop_assert_eq!(u.render(&kept), want);
            prop_assert_eq!(u.rendered_len(&kept), u.render(&kept).len());
        }
    }
}
