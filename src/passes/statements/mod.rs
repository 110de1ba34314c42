//! The passes for statement code (C, C++ and their kin): top-level forms, function bodies and
//! class members in chunks, dead declarations, control constructs, builtin types.

mod chunks;
mod constructs;
mod dead;
mod declarations;
mod roots;
mod types;

pub use chunks::TopChunks;
pub use constructs::Constructs;
pub use dead::DeadDeclarations;
pub use roots::RootForms;
pub use types::BuiltinTypes;
