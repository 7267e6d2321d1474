//! `ishi-web`: play ishi in a browser. A small server serves one page that draws Go, Margo
//! and Abalone boards and gives each browser session an engine of its own in a child
//! process, relaying GTP over a WebSocket, one command per message. The page knows no rules:
//! every move, reason, capture and score comes from the engine (`docs/board.md`).
//!
//! Floors, each using only those below it: [`server`] (routes, limits, the relay loop) ->
//! [`engine_process`] (one engine, a line in and its answer out) and [`message`] (what a
//! browser may send).

pub mod engine_process;
pub mod message;
pub mod server;
