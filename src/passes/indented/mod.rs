//! The passes for indented code (Python, YAML, make): blocks found by their indentation.

mod indent;

pub use indent::IndentBlocks;
