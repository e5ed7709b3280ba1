//! The Jupyter kernel driven by a real client: Python's `jupyter_client` (execute, MIME bundles,
//! errors, completion, inspection, is_complete, interrupt, restart, shutdown), then the shipped
//! notebook executed with `nbclient` and rendered to HTML with `nbconvert`
//! (tests/jupyter/drive_kernel.py). The Python packages live in a virtual environment that
//! `.ci/run` creates (`target/jupyter-venv`, or `LG_JUPYTER_PYTHON`); without it the test is
//! skipped with a message, except in CI (`CI=true`), where it fails.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The Python with jupyter_client, nbclient and nbconvert, if there is one.
fn python() -> Option<PathBuf> {
    let candidate = std::env::var_os("LG_JUPYTER_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("target/jupyter-venv/bin/python")
        });
    let ok = Command::new(&candidate)
        .args(["-c", "import jupyter_client, nbclient, nbconvert, nbformat"])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if ok {
        return Some(candidate);
    }
    if std::env::var("CI").map(|v| v == "true").unwrap_or(false) {
        panic!(
            "{} has no jupyter_client/nbclient/nbconvert, but CI must drive the kernel (.ci/run creates the virtual environment)",
            candidate.display()
        );
    }
    eprintln!(
        "SKIPPED: no Python with jupyter_client, nbclient and nbconvert at {} (run .ci/run, or set LG_JUPYTER_PYTHON)",
        candidate.display()
    );
    None
}

#[test]
fn a_jupyter_client_drives_the_kernel_and_the_tour_notebook_runs() {
    let Some(python) = python() else { return };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let work = std::env::temp_dir().join(format!("lg-kernel-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).expect("a scratch folder");
    let install = Command::new(env!("CARGO_BIN_EXE_lg"))
        .args(["kernel", "install", "--prefix"])
        .arg(&work)
        .output()
        .expect("lg runs");
    assert!(
        install.status.success(),
        "{}",
        String::from_utf8_lossy(&install.stderr)
    );
    let spec = work.join("share/jupyter/kernels/lg/kernel.json");
    let text = std::fs::read_to_string(&spec).expect("the kernelspec was written");
    assert!(text.contains("\"interrupt_mode\": \"signal\""), "{text}");

    // Output to files, not pipes, and a time limit: a kernel left behind by a failure would hold
    // pipes open and hang the test.
    let log = |name: &str| std::fs::File::create(work.join(name)).expect("a log file");
    let mut child = Command::new(&python)
        .arg(root.join("tests/jupyter/drive_kernel.py"))
        .arg(root.join("examples/notebooks/tour.ipynb"))
        .arg(&work)
        .env("JUPYTER_PATH", work.join("share/jupyter"))
        // Kernels' runtime files (connection files) in the scratch folder, not the user's.
        .env("JUPYTER_RUNTIME_DIR", work.join("runtime"))
        .env("JUPYTER_PLATFORM_DIRS", "1")
        .stdout(log("driver.out"))
        .stderr(log("driver.err"))
        .spawn()
        .expect("python runs");
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("the driver can be waited for") {
            break Some(status);
        }
        if start.elapsed() > Duration::from_secs(600) {
            let _ = child.kill();
            break None;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let out = std::fs::read_to_string(work.join("driver.out")).unwrap_or_default();
    let err = std::fs::read_to_string(work.join("driver.err")).unwrap_or_default();
    assert!(
        status.is_some_and(|s| s.success()) && out.contains("all kernel checks passed"),
        "the kernel checks failed ({status:?}):\n{out}\n{err}"
    );
    let html = std::fs::read_to_string(work.join("tour.html")).expect("the rendered notebook");
    assert!(
        html.contains("lattice games"),
        "the notebook's own text is in the HTML"
    );
    // What each cell of the tour shows (text and LaTeX forms; the SVG is checked by the driver).
    let outputs = std::fs::read_to_string(work.join("tour_outputs.txt")).expect("the outputs");
    insta::assert_snapshot!("tour_notebook_outputs", outputs);
    let _ = std::fs::remove_dir_all(&work);
}
