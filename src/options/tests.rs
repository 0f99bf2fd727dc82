//! The options layer.
