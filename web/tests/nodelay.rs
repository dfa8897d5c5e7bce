//! The server's accepted connections have `TCP_NODELAY` set (docs/play.md, "How soon a move is
//! seen"): a small write (an event of a seat's stream, an answer) leaves at once instead of
//! waiting, under Nagle's algorithm, for the acknowledgement of the one before it. actix-web
//! leaves the system's default (Nagle on) unless told (`HttpServer::tcp_nodelay`).
//!
//! The server runs in this process, so its end of a connection is one of this process's file
//! descriptors: found by its two addresses, and its option read with `getsockopt`.

use paifu_web::{spawn, Config};
use socket2::SockRef;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::os::fd::BorrowedFd;

/// The option `TCP_NODELAY` of this process's socket from `local` to `peer`, if there is one.
fn nodelay_of(local: SocketAddr, peer: SocketAddr) -> Option<bool> {
    for entry in std::fs::read_dir("/proc/self/fd").unwrap().flatten() {
        let Ok(fd) = entry.file_name().to_string_lossy().parse::<i32>() else { continue };
        // SAFETY: the descriptor is open in this process (listed just now) and only borrowed
        // for the calls below; the connection it may be stays open meanwhile (the client end is
        // held by the caller), so the server does not close it under us. A descriptor closed
        // since the listing answers EBADF, which is skipped.
        let fd = unsafe { BorrowedFd::borrow_raw(fd) };
        let s = SockRef::from(&fd);
        let (Ok(l), Ok(p)) = (s.local_addr(), s.peer_addr()) else { continue };
        if l.as_socket() == Some(local) && p.as_socket() == Some(peer) {
            return s.tcp_nodelay().ok();
        }
    }
    None
}

#[test]
fn the_servers_connections_send_small_writes_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let running = spawn(Config::new(dir.path().join("n.db")), "127.0.0.1:0").unwrap();
    let mut client = TcpStream::connect(running.addr).unwrap();
    // A whole exchange: the server has accepted the connection and served it.
    write!(client, "GET /api/key HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
    let mut first = [0u8; 12];
    client.read_exact(&mut first).unwrap();
    assert!(first.starts_with(b"HTTP/1.1"), "{}", String::from_utf8_lossy(&first));
    let server_end = nodelay_of(running.addr, client.local_addr().unwrap());
    assert_eq!(server_end, Some(true), "the server's end of the connection (None: not found)");
    // The client's own end, for contrast: the system's default is Nagle's algorithm on.
    assert_eq!(nodelay_of(client.local_addr().unwrap(), running.addr), Some(false));
}
