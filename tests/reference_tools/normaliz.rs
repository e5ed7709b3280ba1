//! Running Normaliz (being written).
