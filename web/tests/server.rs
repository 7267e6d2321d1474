//! The server as browsers and attackers meet it: the real `ishi-web` binary on a free port,
//! spoken to over WebSockets (tokio-tungstenite) and plain HTTP. Several games at once, the
//! limit on games, a session that leaves mid-search, an idle session, hostile messages and
//! cross-site sockets.

use futures_util::{SinkExt, StreamExt};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{connect_async, MaybeTlsStream, WebSocketStream};

type Socket = WebSocketStream<MaybeTlsStream<tokio::net::TcpStream>>;

/// A running server, killed when dropped.
struct Server {
    child: Child,
    address: String,
}

impl Server {
    fn start(arguments: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ishi-web"))
            .args(["--port", "0"])
            .args(arguments)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("ishi-web starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout is piped"))
            .read_line(&mut line)
            .expect("ishi-web prints its address");
        let address = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Server { child, address }
    }

    async fn connect(&self) -> Socket {
        let (socket, _) = connect_async(format!("ws://{}/ws", self.address))
            .await
            .expect("the socket opens");
        socket
    }

    /// A plain HTTP GET: (status line, body).
    fn get(&self, path: &str) -> (String, String) {
        let mut stream = TcpStream::connect(&self.address).expect("the server listens");
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            self.address
        )
        .expect("the request is sent");
        let mut response = String::new();
        stream
            .read_to_string(&mut response)
            .expect("the response is read");
        let status = response.lines().next().unwrap_or_default().to_string();
        let body = response
            .split_once("\r\n\r\n")
            .map(|(_, body)| body.to_string())
            .unwrap_or_default();
        (status, body)
    }

    /// Engines running, from `/status`.
    fn games(&self) -> usize {
        let (_, body) = self.get("/status");
        body.split("\"games\":")
            .nth(1)
            .and_then(|rest| rest.split(',').next())
            .and_then(|number| number.trim().parse().ok())
            .unwrap_or_else(|| panic!("no game count in {body:?}"))
    }

    /// Waits until `/status` reports `count` engines.
    fn wait_for_games(&self, count: usize, limit: Duration) -> Duration {
        let started = Instant::now();
        while self.games() != count {
            assert!(
                started.elapsed() < limit,
                "{} games instead of {count} after {limit:?}",
                self.games()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        started.elapsed()
    }

    /// The server's child processes (its engines), from /proc.
    fn engine_processes(&self) -> usize {
        let parent = self.child.id().to_string();
        std::fs::read_dir("/proc")
            .map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .filter_map(|entry| std::fs::read_to_string(entry.path().join("stat")).ok())
                    .filter(|stat| {
                        // pid (name) state ppid ...: the name may hold spaces, so read after ')'.
                        stat.rsplit_once(')')
                            .and_then(|(_, rest)| rest.split_whitespace().nth(1))
                            == Some(parent.as_str())
                    })
                    .count()
            })
            .unwrap_or(0)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Sends a text message and returns the next text answer.
async fn ask(socket: &mut Socket, text: &str) -> String {
    socket
        .send(Message::Text(text.into()))
        .await
        .expect("the message is sent");
    next_text(socket).await.expect("an answer comes")
}

/// The next text message, `None` when the socket closes first.
async fn next_text(socket: &mut Socket) -> Option<String> {
    loop {
        match tokio::time::timeout(Duration::from_secs(120), socket.next()).await {
            Ok(Some(Ok(Message::Text(text)))) => return Some(text.to_string()),
            Ok(Some(Ok(Message::Close(_)) | Err(_)) | None) => return None,
            Ok(Some(Ok(_))) => continue,
            Err(_) => panic!("no answer within two minutes"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_and_its_files_are_served() {
    let server = Server::start(&[]);
    let (status, body) = server.get("/");
    assert!(status.contains("200"), "{status}");
    assert!(body.contains("<svg id=\"board\""), "{body}");
    for path in ["/app.js", "/style.css"] {
        let (status, body) = server.get(path);
        assert!(
            status.contains("200") && !body.is_empty(),
            "{path}: {status}"
        );
    }
    let (status, _) = server.get("/nothing-here");
    assert!(status.contains("404"), "{status}");
    assert_eq!(server.games(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eight_games_at_once_each_with_an_engine_of_its_own() {
    let server = Server::start(&["--max-games", "8"]);
    let started = Instant::now();
    let mut games = Vec::new();
    for game in 0..8 {
        let mut socket = server.connect().await;
        games.push(tokio::spawn(async move {
            let kind = ["go", "margo", "abalone"][game % 3];
            assert_eq!(
                ask(&mut socket, &format!("1 ishi-game {kind}")).await,
                "=1 "
            );
            assert_eq!(ask(&mut socket, "2 ishi-level easy").await, "=2 ");
            let mut moves = 0;
            for turn in 0..16 {
                let color = ["b", "w"][turn % 2];
                let answer = ask(&mut socket, &format!("{} genmove {color}", turn + 3)).await;
                assert!(
                    answer.starts_with(&format!("={}", turn + 3)),
                    "{kind}: {answer}"
                );
                if answer.ends_with("resign") {
                    break;
                }
                moves += 1;
            }
            let board = ask(&mut socket, "99 ishi-board").await;
            assert!(board.contains(&format!("\"game\":\"{kind}\"")), "{board}");
            (socket, moves)
        }));
    }
    let mut sockets = Vec::new();
    let mut total = 0;
    for game in games {
        let (socket, moves) = game.await.expect("the game ran");
        total += moves;
        sockets.push(socket);
    }
    assert_eq!(server.games(), 8);
    assert_eq!(server.engine_processes(), 8);
    eprintln!(
        "8 games at once: {total} engine moves in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    for mut socket in sockets {
        socket.close(None).await.expect("the socket closes");
    }
    server.wait_for_games(0, Duration::from_secs(10));
    assert_eq!(server.engine_processes(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn beyond_the_limit_a_browser_is_told_the_server_is_busy() {
    let server = Server::start(&["--max-games", "2"]);
    let mut first = server.connect().await;
    let mut second = server.connect().await;
    assert_eq!(ask(&mut first, "name").await, "= ishi");
    assert_eq!(ask(&mut second, "name").await, "= ishi");
    let mut third = server.connect().await;
    let refusal = next_text(&mut third).await.expect("a refusal");
    assert_eq!(refusal, "? server busy: at most 2 games at once");
    assert!(next_text(&mut third).await.is_none(), "the socket closes");
    first.close(None).await.expect("the socket closes");
    server.wait_for_games(1, Duration::from_secs(5));
    let mut fourth = server.connect().await;
    assert_eq!(ask(&mut fourth, "name").await, "= ishi");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_that_leaves_mid_search_ends_its_engine_at_once() {
    // A 60-second search: only killing the engine ends it within the test's limit.
    let server = Server::start(&["--move-time", "60"]);
    let mut leaving = server.connect().await;
    let mut staying = server.connect().await;
    assert_eq!(ask(&mut leaving, "1 boardsize 19").await, "=1 ");
    leaving
        .send(Message::Text("2 genmove b".into()))
        .await
        .expect("sent");
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(server.engine_processes(), 2);
    drop(leaving);
    let waited = server.wait_for_games(1, Duration::from_secs(5));
    assert_eq!(server.engine_processes(), 1);
    eprintln!(
        "engine ended {} ms after its browser left",
        waited.as_millis()
    );
    // The other session never noticed.
    assert_eq!(ask(&mut staying, "3 ishi-level easy").await, "=3 ");
    assert!(ask(&mut staying, "4 genmove b").await.starts_with("=4 "));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_session_ends() {
    let server = Server::start(&["--idle-timeout", "1"]);
    let mut socket = server.connect().await;
    assert_eq!(ask(&mut socket, "name").await, "= ishi");
    let started = Instant::now();
    assert_eq!(
        next_text(&mut socket).await.as_deref(),
        Some("? idle timeout")
    );
    assert!(next_text(&mut socket).await.is_none(), "the socket closes");
    assert!(started.elapsed() < Duration::from_secs(5));
    server.wait_for_games(0, Duration::from_secs(5));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_messages_get_an_error_and_nothing_else() {
    let server = Server::start(&[]);
    let mut socket = server.connect().await;
    let file = std::env::temp_dir().join(format!("ishi-web-test-{}.sgf", std::process::id()));
    let cases = [
        (
            "1 name\n2 quit".to_string(),
            "? one command per message: no control characters",
        ),
        (
            "clear_board\r\nplay b E5".to_string(),
            "? one command per message: no control characters",
        ),
        (
            "name\u{0}".to_string(),
            "? one command per message: no control characters",
        ),
        ("quit".to_string(), "? command not allowed here: quit"),
        (
            "loadsgf /etc/passwd".to_string(),
            "? command not allowed here: loadsgf",
        ),
        (
            format!("printsgf {}", file.display()),
            "? command not allowed here: printsgf",
        ),
        (
            "kata-analyze 10".to_string(),
            "? command not allowed here: kata-analyze",
        ),
        ("# interrupt".to_string(), "? command not allowed here: #"),
        ("   ".to_string(), "? empty message"),
        (
            format!("play b {}", "A".repeat(5000)),
            "? message too long (at most 4096 bytes)",
        ),
    ];
    for (message, expected) in &cases {
        assert_eq!(ask(&mut socket, message).await, *expected, "{message:?}");
    }
    socket
        .send(Message::Binary(vec![1, 2, 3].into()))
        .await
        .expect("sent");
    assert_eq!(
        next_text(&mut socket).await.as_deref(),
        Some("? text messages only")
    );
    assert!(!file.exists(), "printsgf wrote {}", file.display());
    // The engine is the same one, with its game intact: nothing reached it.
    assert_eq!(ask(&mut socket, "5 play b E5").await, "=5 ");
    assert_eq!(ask(&mut socket, "6 name").await, "=6 ishi");
    assert!(ask(&mut socket, "7 ishi-board")
        .await
        .contains("\"moves\":1"));
    // A malformed command the engine itself refuses is answered, not fatal.
    assert_eq!(ask(&mut socket, "8 play b Z99").await, "?8 illegal move");
    // Beyond the frame limit the protocol layer drops the connection; others go on.
    let mut other = server.connect().await;
    socket
        .send(Message::Text("x".repeat(200_000).into()))
        .await
        .ok();
    assert!(next_text(&mut socket).await.is_none(), "the socket closes");
    assert_eq!(ask(&mut other, "name").await, "= ishi");
    server.wait_for_games(1, Duration::from_secs(5));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sockets_opened_by_another_site_are_refused() {
    let server = Server::start(&[]);
    let mut request = format!("ws://{}/ws", server.address)
        .into_client_request()
        .expect("a request");
    request
        .headers_mut()
        .insert("Origin", "http://evil.example".parse().expect("a header"));
    assert!(connect_async(request).await.is_err());
    let mut request = format!("ws://{}/ws", server.address)
        .into_client_request()
        .expect("a request");
    let origin = format!("http://{}", server.address);
    request
        .headers_mut()
        .insert("Origin", origin.parse().expect("a header"));
    let (mut socket, _) = connect_async(request).await.expect("same origin opens");
    assert_eq!(ask(&mut socket, "name").await, "= ishi");
}
