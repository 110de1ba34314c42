//! The passes for a directory tree: whole files, references between them, each file in turn.

mod files;

pub use files::{FilesBypass, FilesDelete, FilesEach, FilesHoist};
