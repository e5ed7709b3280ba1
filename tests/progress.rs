//! Live progress and Ctrl-C on a real terminal: the REPL runs on a pseudo-terminal, a long solve
//! shows its bar after the first second, Ctrl-C (the terminal's interrupt character, delivered as
//! SIGINT by the line discipline) stops it with a diagnostic, and the session goes on.

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

#[test]
fn a_long_solve_shows_progress_and_stops_on_ctrl_c() {
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
    let mut child = command.spawn().expect("lg starts on a pseudo-terminal");
    let mut reader = std::fs::File::from(master.try_clone().expect("dup"));
    let mut writer = std::fs::File::from(master);
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
    let long = Duration::from_secs(120);
    let shown = |out: &Mutex<Vec<u8>>| {
        String::from_utf8_lossy(&out.lock().unwrap_or_else(|e| e.into_inner())).into_owned()
    };
    let at =
        wait_for(&out, 0, "lg> ", long).unwrap_or_else(|| panic!("no prompt: {}", shown(&out)));
    // Misère Kayles on N^9 up to weight 130: 3.4·10^8 positions, tens of seconds of work.
    writer
        .write_all(b"let S = solve(octal(\"0.77\", 9, play: \"misere\"), 130)\r")
        .expect("type");
    let at = wait_for(&out, at, "positions, ", long)
        .unwrap_or_else(|| panic!("no progress bar: {}", shown(&out)));
    let asked = Instant::now();
    writer.write_all(b"\x03").expect("Ctrl-C");
    let at = wait_for(&out, at, "stopped with Ctrl-C", long)
        .unwrap_or_else(|| panic!("not stopped: {}", shown(&out)));
    let stopped = asked.elapsed();
    let at =
        wait_for(&out, at, "lg> ", long).unwrap_or_else(|| panic!("no prompt: {}", shown(&out)));
    // The session goes on, with its bindings.
    writer.write_all(b"6 * 7\r").expect("type");
    wait_for(&out, at, "42", long).unwrap_or_else(|| panic!("session lost: {}", shown(&out)));
    writer.write_all(b":quit\r").expect("type");
    let _ = child.wait();
    // Not a benchmark: a generous bound that only a missed interrupt would exceed.
    assert!(
        stopped < Duration::from_secs(10),
        "stopped after {stopped:?}"
    );
}
