//! The HTTP side: serves the page (built into the binary), `/status`, and `/ws`, where each
//! WebSocket is one browser session with an engine of its own. Knows the limits (games at
//! once, idle time, message size, same-origin sockets) and the relay loop; the checks on a
//! message live in [`crate::message`], the engine in [`crate::engine_process`].

use crate::engine_process::EngineProcess;
use crate::message::{self, Refusal};
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Messages a session holds while its engine answers an earlier one; more close the session.
pub const MAXIMUM_WAITING_MESSAGES: usize = 64;

/// The longest one engine answer may take (the levels' searches take seconds): past it the
/// engine is taken to be stuck and the session ends.
pub const MAXIMUM_ANSWER_TIME: Duration = Duration::from_secs(600);

/// WebSocket messages above this are dropped by the protocol layer with the connection;
/// between [`message::MAXIMUM_MESSAGE_BYTES`] and this they are answered `? message too long`.
const MAXIMUM_FRAME_BYTES: usize = 64 * 1024;
const _: () = assert!(MAXIMUM_FRAME_BYTES > message::MAXIMUM_MESSAGE_BYTES);

/// What the operator chose on the command line.
#[derive(Clone, Debug)]
pub struct Config {
    /// The program run as each session's engine.
    pub engine_program: PathBuf,
    /// Its arguments (a seed of its own is added for each session).
    pub engine_arguments: Vec<String>,
    /// Sessions (engines) at once.
    pub maximum_games: usize,
    /// A session with no message for this long ends.
    pub idle_timeout: Duration,
    /// Session n's engine gets this seed plus n.
    pub seed: u64,
}

/// The server's shared state.
struct Shared {
    config: Config,
    /// One permit per session that may run.
    games: Arc<Semaphore>,
    /// Engines running now.
    running: AtomicUsize,
    /// Numbers the sessions, for their seeds and logs.
    sessions: AtomicU64,
}

/// The page, its script and its style, built into the binary.
const PAGE: &str = include_str!("../static/index.html");
const SCRIPT: &str = include_str!("../static/app.js");
const STYLE: &str = include_str!("../static/style.css");

/// The application: every route of the server.
pub fn router(config: Config) -> Router {
    let shared = Arc::new(Shared {
        games: Arc::new(Semaphore::new(config.maximum_games)),
        config,
        running: AtomicUsize::new(0),
        sessions: AtomicU64::new(0),
    });
    Router::new()
        .route(
            "/",
            get(|| async { asset("text/html; charset=utf-8", PAGE) }),
        )
        .route(
            "/app.js",
            get(|| async { asset("text/javascript; charset=utf-8", SCRIPT) }),
        )
        .route(
            "/style.css",
            get(|| async { asset("text/css; charset=utf-8", STYLE) }),
        )
        .route("/status", get(status))
        .route("/ws", get(upgrade))
        .with_state(shared)
}

fn asset(content_type: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

/// `/status`: engines running and the limit, as JSON.
async fn status(State(shared): State<Arc<Shared>>) -> Response {
    let body = format!(
        "{{\"games\":{},\"maximum_games\":{}}}",
        shared.running.load(Ordering::SeqCst),
        shared.config.maximum_games
    );
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// Whether the request's `Origin` (sent by every browser on a WebSocket) names the host it
/// was sent to, so another site open in the same browser cannot drive engines here.
/// Requests without an `Origin` (not from a browser page) pass.
fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let host = headers
        .get(header::HOST)
        .and_then(|host| host.to_str().ok());
    match (origin.to_str().ok(), host) {
        (Some(origin), Some(host)) => {
            origin
                .strip_prefix("http://")
                .or_else(|| origin.strip_prefix("https://"))
                == Some(host)
        }
        _ => false,
    }
}

/// `/ws`: one browser session.
async fn upgrade(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    socket: WebSocketUpgrade,
) -> Response {
    if !same_origin(&headers) {
        return (StatusCode::FORBIDDEN, "cross-origin sockets are refused").into_response();
    }
    let permit = shared.games.clone().try_acquire_owned().ok();
    socket
        .max_message_size(MAXIMUM_FRAME_BYTES)
        .max_frame_size(MAXIMUM_FRAME_BYTES)
        .on_upgrade(move |socket| async move {
            match permit {
                Some(permit) => run_session(shared, socket, permit).await,
                None => {
                    let answer = format!(
                        "? server busy: at most {} games at once",
                        shared.config.maximum_games
                    );
                    close(socket, &answer).await;
                }
            }
        })
}

/// Sends a last message and closes the socket.
async fn close(mut socket: WebSocket, last: &str) {
    let _ = socket.send(Message::Text(last.into())).await;
    let reason = last.trim_start_matches("? ");
    let frame = CloseFrame {
        code: 1000,
        reason: reason.chars().take(100).collect::<String>().into(),
    };
    let _ = socket.send(Message::Close(Some(frame))).await;
}

/// What a browser message asks of the session.
enum Request {
    /// A checked command for the engine.
    Command(String),
    /// An answer to send without asking the engine.
    Refuse(Refusal),
    /// Nothing to do (ping, pong).
    Nothing,
    /// The browser left.
    End,
}

fn request(message: Option<Result<Message, axum::Error>>) -> Request {
    match message {
        Some(Ok(Message::Text(text))) => match message::check(text.as_str()) {
            Ok(line) => Request::Command(line),
            Err(refusal) => Request::Refuse(refusal),
        },
        Some(Ok(Message::Binary(_))) => Request::Refuse(Refusal::Binary),
        Some(Ok(Message::Ping(_) | Message::Pong(_))) => Request::Nothing,
        Some(Ok(Message::Close(_)) | Err(_)) | None => Request::End,
    }
}

/// Relays one browser session to an engine of its own until the browser leaves, the session
/// idles past the limit, or the engine ends.
async fn run_session(shared: Arc<Shared>, mut socket: WebSocket, permit: OwnedSemaphorePermit) {
    let number = shared.sessions.fetch_add(1, Ordering::SeqCst) + 1;
    let mut arguments = shared.config.engine_arguments.clone();
    arguments.push("--seed".to_string());
    arguments.push(shared.config.seed.wrapping_add(number).to_string());
    let mut engine = match EngineProcess::start(&shared.config.engine_program, &arguments) {
        Ok(engine) => engine,
        Err(error) => {
            log::error!("session {number}: the engine did not start: {error}");
            close(socket, "? the engine did not start").await;
            return;
        }
    };
    shared.running.fetch_add(1, Ordering::SeqCst);
    log::info!("session {number}: started");
    let ending = relay(&shared.config, &mut socket, &mut engine).await;
    log::info!("session {number}: {ending}");
    engine.stop().await;
    shared.running.fetch_sub(1, Ordering::SeqCst);
    drop(permit);
    if ending != "the browser left" {
        close(socket, &format!("? {ending}")).await;
    }
}

/// The relay loop; returns why it ended.
async fn relay(
    config: &Config,
    socket: &mut WebSocket,
    engine: &mut EngineProcess,
) -> &'static str {
    let mut waiting: VecDeque<Request> = VecDeque::new();
    loop {
        let next = match waiting.pop_front() {
            Some(next) => next,
            None => match tokio::time::timeout(config.idle_timeout, socket.recv()).await {
                Ok(message) => request(message),
                Err(_) => return "idle timeout",
            },
        };
        let line = match next {
            Request::Command(line) => line,
            Request::Refuse(refusal) => {
                if socket
                    .send(Message::Text(refusal.answer().into()))
                    .await
                    .is_err()
                {
                    return "the browser left";
                }
                continue;
            }
            Request::Nothing => continue,
            Request::End => return "the browser left",
        };
        // The engine answers while the socket is watched: a browser that leaves ends the
        // engine at once (mid-search), and messages sent meanwhile wait their turn.
        let answer = {
            let ask = tokio::time::timeout(MAXIMUM_ANSWER_TIME, engine.ask(&line));
            tokio::pin!(ask);
            loop {
                tokio::select! {
                    answer = &mut ask => break answer,
                    message = socket.recv() => match request(message) {
                        Request::End => return "the browser left",
                        Request::Nothing => {}
                        other if waiting.len() < MAXIMUM_WAITING_MESSAGES => waiting.push_back(other),
                        _ => return "too many messages waiting",
                    },
                }
            }
        };
        let text = match answer {
            Ok(Ok(text)) => text,
            Ok(Err(error)) => {
                log::warn!("engine: {error}");
                return "the engine stopped";
            }
            Err(_) => return "the engine took too long",
        };
        if socket.send(Message::Text(text.into())).await.is_err() {
            return "the browser left";
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(origin: Option<&str>, host: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::HOST, HeaderValue::from_str(host).unwrap());
        if let Some(origin) = origin {
            headers.insert(header::ORIGIN, HeaderValue::from_str(origin).unwrap());
        }
        headers
    }

    #[test]
    fn sockets_from_another_site_are_refused() {
        assert!(same_origin(&headers(None, "127.0.0.1:8080")));
        assert!(same_origin(&headers(
            Some("http://127.0.0.1:8080"),
            "127.0.0.1:8080"
        )));
        assert!(!same_origin(&headers(
            Some("http://evil.example"),
            "127.0.0.1:8080"
        )));
        assert!(!same_origin(&headers(
            Some("http://127.0.0.1:9999"),
            "127.0.0.1:8080"
        )));
        assert!(!same_origin(&headers(Some("null"), "127.0.0.1:8080")));
    }
}
