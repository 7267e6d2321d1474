//! ishi: a Go engine that speaks GTP. Only the rules core exists so far.

pub mod rules;
