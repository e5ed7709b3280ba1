//! Running 4ti2 (being written).
