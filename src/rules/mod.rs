//! The rules core: knows Go, nothing of search or GTP. No threads, no I/O, no logging.

pub mod color;
pub mod sgf;
