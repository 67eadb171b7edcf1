//! What every family shares: errors and argument checks, the handle, element types, pointer
//! spaces, enums.

pub mod batch;
pub mod check;
pub mod error;
pub mod handle;
pub mod index_base;
pub mod math_mode;
pub mod memory;
pub mod op;
pub mod scalar;
pub mod side;
pub mod uplo;

pub use error::{Error, Result, Status};
pub use handle::{Backend, BackendChoice, Handle};
pub use math_mode::MathMode;
pub use op::Op;
pub use scalar::Scalar;
pub use side::Side;
pub use uplo::Uplo;
