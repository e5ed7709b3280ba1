//! The REPL on a real terminal (a pseudo-terminal): a long solve shows its bar after the first
//! second, Ctrl-C (the terminal's interrupt character, delivered as SIGINT by the line
//! discipline) stops it with a diagnostic and the session goes on; input typed during a
//! computation is kept; an open entry continues at the continuation prompt.

#![cfg(unix)]

use std::io::{Read, Write};
use std::os::fd::{FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A pseudo-terminal pair: (master, slave).
fn openpty() -> (OwnedFd, OwnedFd) {
    let (mut master, mut slave) = (-1, -1);
    // SAFETY: openpty writes two new file descriptors; null name, termios and window size ask
    // for the defaults.
    let rc = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(rc, 0, "openpty");
    // SAFETY: both descriptors are fresh and owned by nobody else.
    unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) }
}

/// Waits until the output holds `needle` after byte `from`, returning where it ends.
fn wait_for(out: &Mutex<Vec<u8>>, from: usize, needle: &str, limit: Duration) -> Option<usize> {
    let start = Instant::now();
    while start.elapsed() < limit {
        {
            let buf = out.lock().unwrap_or_else(|e| e.into_inner());
            let text = String::from_utf8_lossy(&buf[from.min(buf.len())..]).into_owned();
            if let Some(i) = text.find(needle) {
                return Some(from + i + needle.len());
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    None
}

/// `lg` running on a pseudo-terminal, its output collected by a thread.
struct Terminal {
    child: std::process::Child,
    writer: std::fs::File,
    out: Arc<Mutex<Vec<u8>>>,
    /// How far the output has been read by [`Terminal::expect`].
    at: usize,
}

const LONG: Duration = Duration::from_secs(120);

impl Terminal {
    fn start() -> Terminal {
        let (master, slave) = openpty();
        let slave_in = slave.try_clone().expect("dup");
        let slave_err = slave.try_clone().expect("dup");
        let mut command = Command::new(env!("CARGO_BIN_EXE_lg"));
        command
            .env("NO_COLOR", "1")
            .env("TERM", "xterm")
            .stdin(Stdio::from(slave_in))
            .stdout(Stdio::from(slave))
            .stderr(Stdio::from(slave_err));
        // SAFETY: between fork and exec only async-signal-safe calls: a new session whose
        // controlling terminal is the pseudo-terminal, so that ^C there sends SIGINT to lg.
        unsafe {
            command.pre_exec(|| {
                if libc::setsid() < 0 || libc::ioctl(0, libc::TIOCSCTTY as _, 0) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = command.spawn().expect("lg starts on a pseudo-terminal");
        let mut reader = std::fs::File::from(master.try_clone().expect("dup"));
        let writer = std::fs::File::from(master);
        let out = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&out);
        std::thread::spawn(move || {
            let mut chunk = [0u8; 4096];
            while let Ok(n) = reader.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                sink.lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .extend_from_slice(&chunk[..n]);
            }
        });
        let mut t = Terminal {
            child,
            writer,
            out,
            at: 0,
        };
        t.expect("lg> ");
        t
    }

    fn shown(&self) -> String {
        String::from_utf8_lossy(&self.out.lock().unwrap_or_else(|e| e.into_inner())).into_owned()
    }

    /// Waits for `needle` in the output after what was already expected.
    fn expect(&mut self, needle: &str) {
        match wait_for(&self.out, self.at, needle, LONG) {
            Some(end) => self.at = end,
            None => panic!("`{needle}` never came:\n{}", self.shown()),
        }
    }

    fn type_keys(&mut self, keys: &str) {
        self.writer.write_all(keys.as_bytes()).expect("type");
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        let _ = self.writer.write_all(b":quit\r");
        let _ = self.child.wait();
    }
}

#[test]
fn a_long_solve_shows_progress_and_stops_on_ctrl_c() {
    let mut t = Terminal::start();
    // Misère Kayles on N^9 up to weight 130: 3.4·10^8 positions, tens of seconds of work.
    t.type_keys("let S = solve(octal(\"0.77\", 9, play: \"misere\"), 130)\r");
    t.expect("positions, ");
    let asked = Instant::now();
    t.type_keys("\x03");
    t.expect("stopped with Ctrl-C");
    let stopped = asked.elapsed();
    t.expect("lg> ");
    // The session goes on.
    t.type_keys("6 * 7\r");
    t.expect("42");
    // Not a benchmark: a generous bound that only a missed interrupt would exceed.
    assert!(
        stopped < Duration::from_secs(10),
        "stopped after {stopped:?}"
    );
}

/// An entry typed while another computes is kept and runs next.
#[test]
fn input_typed_during_a_computation_is_kept() {
    let mut t = Terminal::start();
    t.type_keys("let S = solve(octal(\"0.77\", 8, play: \"misere\"), 80)\r");
    std::thread::sleep(Duration::from_millis(300));
    t.type_keys("len(S) > 1000\r");
    t.expect("true");
}

/// An open bracket continues the entry at the continuation prompt; Ctrl-C there abandons it.
#[test]
fn open_entries_continue_at_the_continuation_prompt() {
    let mut t = Terminal::start();
    t.type_keys("let xs = [1, 2,\r");
    t.expect("..> ");
    t.type_keys("3]\r");
    t.expect("lg> ");
    t.type_keys("xs\r");
    t.expect("[1, 2, 3]");
    t.type_keys("(1 +\r");
    t.expect("..> ");
    t.type_keys("\x03");
    t.expect("lg> ");
    t.type_keys("1 + 1\r");
    t.expect("2");
}
