//! The commands end to end with test-only backends.
