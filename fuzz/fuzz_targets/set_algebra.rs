//! See `lattice_games::fuzzing::set_algebra`: a crash or a wrong answer (against a brute force) panics.
//! Run with `cargo +nightly fuzz run set_algebra` from the repository root (needs cargo-fuzz).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| lattice_games::fuzzing::set_algebra(data));
