//! The kernelspec (`lg kernel install`): the `kernel.json` that tells Jupyter how to start the
//! kernel, written where `jupyter kernelspec install` would write it.

use std::path::{Path, PathBuf};

/// The kernel's name (its folder under `kernels/`).
pub const NAME: &str = "lg";

/// The name notebooks show.
pub const DISPLAY_NAME: &str = "lattice games (.lg)";

/// Where to install.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// The system's data directory (`/usr/local/share/jupyter`).
    System,
    /// The user's data directory (`$JUPYTER_DATA_DIR`, or `~/.local/share/jupyter`).
    User,
    /// `PREFIX/share/jupyter` (a virtual environment's prefix, say).
    Prefix(PathBuf),
}

impl Location {
    /// The folder that holds `kernels/`.
    pub fn data_dir(&self) -> Result<PathBuf, String> {
        match self {
            Location::System => Ok(PathBuf::from("/usr/local/share/jupyter")),
            Location::Prefix(p) => Ok(p.join("share").join("jupyter")),
            Location::User => {
                if let Some(d) = std::env::var_os("JUPYTER_DATA_DIR").filter(|d| !d.is_empty()) {
                    return Ok(PathBuf::from(d));
                }
                if let Some(d) = std::env::var_os("XDG_DATA_HOME").filter(|d| !d.is_empty()) {
                    return Ok(PathBuf::from(d).join("jupyter"));
                }
                std::env::var_os("HOME")
                    .filter(|h| !h.is_empty())
                    .map(|h| {
                        PathBuf::from(h)
                            .join(".local")
                            .join("share")
                            .join("jupyter")
                    })
                    .ok_or_else(|| "HOME is not set; give `--prefix DIR` instead".to_string())
            }
        }
    }
}

/// The text of `kernel.json` for the binary at `exe`.
pub fn kernel_json(exe: &Path) -> String {
    let spec = serde_json::json!({
        "argv": [exe.to_string_lossy(), "kernel", "-f", "{connection_file}"],
        "display_name": DISPLAY_NAME,
        "language": "lg",
        "interrupt_mode": "signal",
        "metadata": { "debugger": false },
    });
    // A `Value` always serializes.
    serde_json::to_string_pretty(&spec).unwrap_or_default()
}

/// Writes the kernelspec for the running binary; returns the folder written.
pub fn install(location: &Location) -> Result<PathBuf, String> {
    let exe =
        std::env::current_exe().map_err(|e| format!("cannot tell where this program is: {e}"))?;
    let dir = location.data_dir()?.join("kernels").join(NAME);
    std::fs::create_dir_all(&dir).map_err(|e| {
        let hint = if *location == Location::System {
            "; `lg kernel install --user` installs it for you alone"
        } else {
            ""
        };
        format!("cannot create {}: {e}{hint}", dir.display())
    })?;
    let file = dir.join("kernel.json");
    std::fs::write(&file, kernel_json(&exe))
        .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spec_starts_this_binary_in_signal_mode() {
        let text = kernel_json(Path::new("/opt/lg/bin/lg"));
        let v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        assert_eq!(
            v["argv"],
            serde_json::json!(["/opt/lg/bin/lg", "kernel", "-f", "{connection_file}"])
        );
        assert_eq!(v["display_name"], "lattice games (.lg)");
        assert_eq!(v["language"], "lg");
        assert_eq!(v["interrupt_mode"], "signal");
    }

    #[test]
    fn a_prefix_holds_share_jupyter() {
        let d = Location::Prefix(PathBuf::from("/tmp/venv"))
            .data_dir()
            .expect("a folder");
        assert_eq!(d, PathBuf::from("/tmp/venv/share/jupyter"));
    }
}
