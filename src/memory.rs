//! One memory budget for every computation that can grow.
//!
//! Work whose size can be told (or estimated) before it allocates asks [`check`] first and is
//! refused with a [`TooMuchMemory`] naming what it would need and what the budget allows, instead
//! of growing until the allocator aborts the process.
//!
//! The budget is what a new computation may still allocate:
//! - by default three quarters of the memory this process can still get: the least of the
//!   machine's available memory (`MemAvailable`), the room left under the process's cgroup limit
//!   (v2 `memory.max`, v1 `memory.limit_in_bytes`) and the room left under `ulimit -v` (the
//!   address-space limit, less the address space already mapped);
//! - with a limit set by the user (`lg --max-memory 4G`, the `LG_MAX_MEMORY` environment variable,
//!   or `set_limits(max_memory: ...)`), that limit less what the process already holds, and never
//!   more than the default.
//!
//! Everything here reads `/proc` and `/sys` as text: no system calls beyond file reads.

use std::sync::atomic::{AtomicU64, Ordering};

/// The user's limit in bytes, 0 when none is set.
static USER_LIMIT: AtomicU64 = AtomicU64::new(0);

/// The share of the available memory a computation may take by default: 3/4.
const SHARE_NUMERATOR: u64 = 3;
const SHARE_DENOMINATOR: u64 = 4;

/// When nothing can be read (not Linux, say): assume 4 GiB are available.
const FALLBACK_AVAILABLE: u64 = 4 << 30;

/// Work refused because it would not fit in the budget.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooMuchMemory {
    /// What the work is, as a phrase ("the 264 000 unimodular cones of the decomposition").
    pub what: String,
    /// The bytes it would need (an estimate where the work is not done yet).
    pub need: u64,
    /// The bytes the budget allowed when it was asked.
    pub budget: u64,
}

impl std::fmt::Display for TooMuchMemory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} would take about {}, more than the memory budget of {} ({})",
            self.what,
            human(self.need),
            human(self.budget),
            match limit() {
                Some(l) => format!("the {} limit less what the session holds", human(l)),
                None => "3/4 of the memory free to this process".to_string(),
            }
        )
    }
}

impl std::error::Error for TooMuchMemory {}

/// The user's limit on the process's memory, if one is set.
pub fn limit() -> Option<u64> {
    match USER_LIMIT.load(Ordering::Relaxed) {
        0 => None,
        l => Some(l),
    }
}

/// Sets (or with `None` lifts) the user's limit on the process's memory.
pub fn set_limit(bytes: Option<u64>) {
    USER_LIMIT.store(bytes.map_or(0, |b| b.max(1)), Ordering::Relaxed);
}

/// Reads `LG_MAX_MEMORY` (a size such as `4G`, see [`parse_size`]) into the user's limit.
/// An unreadable value is returned as an error message and changes nothing.
pub fn limit_from_env() -> Result<(), String> {
    match std::env::var("LG_MAX_MEMORY") {
        Ok(text) if !text.trim().is_empty() => {
            let bytes = parse_size(&text).map_err(|e| format!("LG_MAX_MEMORY: {e}"))?;
            set_limit(Some(bytes));
            Ok(())
        }
        _ => Ok(()),
    }
}

/// The bytes a new computation may allocate now.
pub fn budget() -> u64 {
    let user = limit();
    budget_given(user, user.map_or(0, |_| resident()), available())
}

/// The budget under a user's limit (if any), the process's resident memory and the memory it
/// can still get.
fn budget_given(limit: Option<u64>, resident: u64, available: u64) -> u64 {
    let default = available / SHARE_DENOMINATOR * SHARE_NUMERATOR;
    match limit {
        Some(l) => l.saturating_sub(resident).min(default),
        None => default,
    }
}

/// Refuses work needing `need` bytes when that is more than the budget; `what` names the work.
pub fn check(need: u64, what: impl FnOnce() -> String) -> Result<(), TooMuchMemory> {
    let budget = budget();
    if need > budget {
        return Err(TooMuchMemory {
            what: what(),
            need,
            budget,
        });
    }
    Ok(())
}

/// For a table growing one item at a time: when it reaches `len` items, a power of two from 4096
/// on, refuses the next doubling (2·len items of `each` bytes) if it would not fit. `what` names
/// the table; the check reads /proc only at those lengths.
pub fn check_doubling(
    len: usize,
    each: u64,
    what: impl FnOnce() -> String,
) -> Result<(), TooMuchMemory> {
    if len >= 1 << 12 && len.is_power_of_two() {
        check((2 * len as u64).saturating_mul(each), what)?;
    }
    Ok(())
}

/// The memory this process can still get: the least of the machine's, the cgroup's and the
/// address-space limit's room.
pub fn available() -> u64 {
    let machine = meminfo_available().unwrap_or(FALLBACK_AVAILABLE);
    let cgroup = cgroup_room().unwrap_or(u64::MAX);
    let address_space = address_space_room().unwrap_or(u64::MAX);
    machine.min(cgroup).min(address_space)
}

/// Where each part of the default budget comes from, for `set_limits()` and `--help` text:
/// (machine available, cgroup room, address-space room), `None` where there is no such limit.
pub fn sources() -> (u64, Option<u64>, Option<u64>) {
    (
        meminfo_available().unwrap_or(FALLBACK_AVAILABLE),
        cgroup_room(),
        address_space_room(),
    )
}

/// The process's resident memory in bytes (VmRSS), 0 when unknown.
pub fn resident() -> u64 {
    status_field("VmRSS:").unwrap_or(0)
}

/// A size in bytes from text: a whole number with an optional unit K, M, G or T (powers of
/// 1024; `KiB`, `MB`, `g` and the like are read the same way), or a decimal with at most three
/// places before a unit (`1.5G`).
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let digits_end = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(digits_end);
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        "t" | "tb" | "tib" => 40,
        other => {
            return Err(format!(
                "`{other}` is not a unit of memory: write a size such as 4G, 512M or 2000000000"
            ))
        }
    };
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    if whole.is_empty() && fraction.is_empty() {
        return Err(format!(
            "`{t}` is not a size: write a size such as 4G, 512M or 2000000000"
        ));
    }
    if fraction.len() > 3 || fraction.contains('.') || (shift == 0 && !fraction.is_empty()) {
        return Err(format!(
            "`{t}` is not a size: write whole bytes, or at most three decimals before a unit (1.5G)"
        ));
    }
    let parse = |s: &str| -> Result<u128, String> {
        if s.is_empty() {
            Ok(0)
        } else {
            s.parse::<u128>().map_err(|_| format!("`{t}` is too large"))
        }
    };
    let scale = 10u128.pow(fraction.len() as u32);
    let thousandths = parse(whole)?
        .checked_mul(scale)
        .and_then(|w| w.checked_add(parse(fraction).ok()?))
        .ok_or_else(|| format!("`{t}` is too large"))?;
    let bytes = thousandths
        .checked_mul(1u128 << shift)
        .map(|b| b / scale)
        .filter(|&b| b <= u128::from(u64::MAX))
        .ok_or_else(|| format!("`{t}` is too large"))?;
    if bytes == 0 {
        return Err(format!("`{t}` leaves no memory to compute with"));
    }
    Ok(bytes as u64)
}

/// A size for people: `812 KiB`, `37 MiB`, `3.4 GiB`.
pub fn human(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["bytes", "KiB", "MiB", "GiB", "TiB"];
    let mut unit = 0;
    let mut scaled = u128::from(bytes) * 10;
    while scaled >= 10 * 1024 && unit + 1 < UNITS.len() {
        scaled /= 1024;
        unit += 1;
    }
    if unit >= 3 && scaled < 100 {
        format!("{}.{} {}", scaled / 10, scaled % 10, UNITS[unit])
    } else {
        format!("{} {}", scaled / 10, UNITS[unit])
    }
}

fn meminfo_available() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? * 1024)
}

/// A `Vm…:` field of /proc/self/status in bytes.
fn status_field(name: &str) -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = text.lines().find(|l| l.starts_with(name))?;
    Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? * 1024)
}

/// Limits this large mean "no limit" (cgroup v1 writes 2^63 rounded to a page).
const UNLIMITED: u64 = 1 << 60;

/// The room left under the process's cgroup memory limit, if it has one.
fn cgroup_room() -> Option<u64> {
    let groups = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let read = |path: String| -> Option<u64> {
        std::fs::read_to_string(path)
            .ok()?
            .trim()
            .parse::<u64>()
            .ok()
    };
    let mut candidates: Vec<(String, String)> = Vec::new();
    for line in groups.lines() {
        let mut parts = line.splitn(3, ':');
        let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
        let path = path.trim_end_matches('/');
        if controllers.is_empty() {
            for base in [format!("/sys/fs/cgroup{path}"), "/sys/fs/cgroup".into()] {
                candidates.push((
                    format!("{base}/memory.max"),
                    format!("{base}/memory.current"),
                ));
            }
        } else if controllers.split(',').any(|c| c == "memory") {
            for base in [
                format!("/sys/fs/cgroup/memory{path}"),
                "/sys/fs/cgroup/memory".into(),
            ] {
                candidates.push((
                    format!("{base}/memory.limit_in_bytes"),
                    format!("{base}/memory.usage_in_bytes"),
                ));
            }
        }
    }
    candidates
        .into_iter()
        .filter_map(|(max, current)| {
            let max = read(max)?;
            (max < UNLIMITED).then(|| max.saturating_sub(read(current).unwrap_or(0)))
        })
        .min()
}

/// The room left under `ulimit -v` (RLIMIT_AS, soft), if set: the limit less the address
/// space already mapped.
fn address_space_room() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = text.lines().find(|l| l.starts_with("Max address space"))?;
    let soft = line
        .trim_start_matches("Max address space")
        .split_whitespace()
        .next()?;
    let limit = soft.parse::<u64>().ok()?;
    Some(limit.saturating_sub(status_field("VmSize:").unwrap_or(0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(parse_size("4G"), Ok(4 << 30));
        assert_eq!(parse_size(" 512m "), Ok(512 << 20));
        assert_eq!(parse_size("1.5GiB"), Ok(3 << 29));
        assert_eq!(parse_size("2000000000"), Ok(2_000_000_000));
        assert_eq!(parse_size("10KB"), Ok(10 << 10));
        assert!(parse_size("4X").is_err());
        assert!(parse_size("").is_err());
        assert!(parse_size("0").is_err());
        assert!(parse_size("1.5").is_err());
        assert!(parse_size("1.2.3G").is_err());
        assert!(parse_size("99999999999999999999999T").is_err());
    }

    #[test]
    fn sizes_print_for_people() {
        assert_eq!(human(812), "812 bytes");
        assert_eq!(human(37 << 20), "37 MiB");
        assert_eq!(human((34 << 30) / 10), "3.3 GiB");
        assert_eq!(human(24 << 30), "24 GiB");
    }

    #[test]
    fn a_user_limit_counts_what_the_process_holds_and_never_raises_the_default() {
        assert_eq!(budget_given(None, 0, 8 << 30), 6 << 30);
        assert_eq!(budget_given(Some(1 << 30), 256 << 20, 8 << 30), 768 << 20);
        assert_eq!(budget_given(Some(100 << 30), 0, 8 << 30), 6 << 30);
        assert_eq!(budget_given(Some(1 << 20), 2 << 20, 8 << 30), 0);
    }

    #[test]
    fn the_budget_is_positive_and_bounded_by_what_is_available() {
        let b = budget();
        assert!(b > 0);
        assert!(b <= available());
    }
}
