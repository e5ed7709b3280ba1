//! Squarefree games in normal play on N^d: P = P0 + 2N^d with P0 = P ∩ {0,1}^d ([GM09] Theorem
//! 6.11 for the Erratum's corrected notion of squarefree), and P0 by the Erratum's Theorem 3 in
//! O(2^d |Γ|) time and O(2^d) space.
//!
//! The outcome of p depends only on p mod 2, and a legal option p − γ of p ∈ {0,1}^d reduces to
//! p XOR m_γ, where m_γ has a 1 at the positive entry i of γ and at each odd entry. With ℓ
//! positive on Γ and on each e_j, ℓ_i > |γ_j|·ℓ_j ≥ ℓ_j for each negative entry γ_j, so once the
//! coordinates are numbered by increasing ℓ (bit 0 the lightest), the reduced option p XOR m_γ
//! clears bit i and changes only lower bits: it is a smaller number than p. One ascending pass
//! therefore evaluates {0,1}^d. Blocks of 64 positions are evaluated at once for moves whose bit i
//! is above the block: the option word is another (earlier) block with its bits permuted by an
//! XOR of their index, six swap stages at most.

use super::{functional, SolveError};
use crate::algebra::{Cone, Polyhedron, Vector};
use crate::game::axioms::{is_squarefree, is_weakly_squarefree};
use crate::game::LatticeGame;

/// P0 = P ∩ {0,1}^d of a squarefree game in normal play: the stratification P = P0 + 2N^d.
#[derive(Clone, Debug)]
pub struct SquarefreeSolution {
    d: usize,
    /// Coordinate of each bit of an index (bit b stands for coordinate `coordinate[b]`).
    coordinate: Vec<usize>,
    bits: Vec<u64>,
}

/// The largest d the table is built for (2^32 bits = 512 MiB).
pub const MAX_SQUAREFREE_DIM: usize = 32;

fn permute_xor(mut w: u64, m: u64) -> u64 {
    const MASKS: [u64; 6] = [
        0x5555_5555_5555_5555,
        0x3333_3333_3333_3333,
        0x0F0F_0F0F_0F0F_0F0F,
        0x00FF_00FF_00FF_00FF,
        0x0000_FFFF_0000_FFFF,
        0x0000_0000_FFFF_FFFF,
    ];
    for (k, mask) in MASKS.iter().enumerate() {
        if m >> k & 1 == 1 {
            let s = 1 << k;
            w = ((w & mask) << s) | ((w >> s) & mask);
        }
    }
    w
}

/// Computes P0 for a squarefree game in normal play on N^d, or says why the algorithm does not
/// apply (another board, defeated positions, a rule set only weakly squarefree or neither).
pub fn squarefree_p0(game: &LatticeGame) -> Result<SquarefreeSolution, SolveError> {
    let d = game.dim();
    let on_orthant = matches!(
        game.board().polyhedron(),
        Polyhedron::Cone(Cone::Orthant(_))
    );
    if !on_orthant {
        return Err(SolveError::NotSquarefree(
            "the squarefree algorithm needs the board N^d (Π = R^d_+); this board is another polyhedron, so give a region to solve".into(),
        ));
    }
    if !game.board().is_normal_play() {
        return Err(SolveError::NotSquarefree(
            "the squarefree algorithm is for normal play; this board has defeated positions, so give a region to solve".into(),
        ));
    }
    if !is_squarefree(game.rules()) {
        let bad = game
            .rules()
            .moves()
            .iter()
            .find(|m| {
                let pos: Vec<_> = m.0.iter().filter(|x| x.signum() > 0).collect();
                pos.len() != 1 || pos[0].to_i64() != Some(1)
            })
            .cloned();
        let why = match bad {
            Some(m) => format!("the move {m} does not have exactly one positive entry equal to 1"),
            None => "a move breaks the Erratum's Proposition 1".into(),
        };
        let weak = if is_weakly_squarefree(game.rules()) {
            " It is only weakly squarefree ([GM09] Proposition 6.2), for which P = P0 + 2N^d fails (the Erratum's example is {(1,0,0), (0,1,0), (0,0,1), (1,1,0)})."
        } else {
            ""
        };
        return Err(SolveError::NotSquarefree(format!(
            "the rule set is not squarefree in the Erratum's sense (Proposition 1): {why}.{weak} Give a region to solve instead"
        )));
    }
    if d > MAX_SQUAREFREE_DIM {
        return Err(SolveError::TooLarge {
            detail: format!("{{0,1}}^{d} has 2^{d} positions; the squarefree table goes up to d = {MAX_SQUAREFREE_DIM}"),
        });
    }
    let ell = functional(game, None)?;
    let mut coordinate: Vec<usize> = (0..d).collect();
    coordinate.sort_by_key(|&j| (ell[j], j));
    let mut bit_of = vec![0usize; d];
    for (b, &j) in coordinate.iter().enumerate() {
        bit_of[j] = b;
    }
    // (bit of the positive entry, XOR mask) for each move.
    let mut high: Vec<(usize, u64)> = Vec::new();
    let mut low: Vec<(usize, u64)> = Vec::new();
    for m in game.rules().moves() {
        let mut mask = 0u64;
        let mut top = 0;
        for (j, x) in m.0.iter().enumerate() {
            let b = bit_of[j];
            if x.signum() > 0 {
                top = b;
                mask |= 1 << b;
            } else if !x.is_multiple_of(&crate::algebra::Integer::from(2)) {
                mask |= 1 << b;
            }
        }
        debug_assert!(mask >> top == 1, "only lower bits change");
        if top >= 6 {
            high.push((top, mask));
        } else {
            low.push((top, mask));
        }
    }
    let n: u64 = 1 << d;
    let blocks = n.div_ceil(64) as usize;
    let mut bits = vec![0u64; blocks];
    let block_len = n.min(64) as usize;
    for b in 0..blocks {
        if b % 4096 == 0 && crate::interrupt::requested() {
            return Err(SolveError::Interrupted);
        }
        let index = (b as u64) << 6;
        let mut ext = 0u64;
        for &(top, mask) in &high {
            if index >> top & 1 == 1 {
                let src = (index ^ mask) >> 6;
                ext |= permute_xor(bits[src as usize], mask & 63);
            }
        }
        let mut word = 0u64;
        for t in 0..block_len {
            if ext >> t & 1 == 1 {
                continue;
            }
            let has_p_option = low
                .iter()
                .any(|&(top, mask)| t >> top & 1 == 1 && word >> (t ^ mask as usize) & 1 == 1);
            if !has_p_option {
                word |= 1 << t;
            }
        }
        bits[b] = word;
    }
    Ok(SquarefreeSolution {
        d,
        coordinate,
        bits,
    })
}

impl SquarefreeSolution {
    /// The dimension d.
    pub fn dim(&self) -> usize {
        self.d
    }

    fn index(&self, p: &[bool]) -> u64 {
        self.coordinate
            .iter()
            .enumerate()
            .map(|(b, &j)| u64::from(p[j]) << b)
            .sum()
    }

    /// Whether p ∈ N^d (given mod 2: true for odd coordinates) is a P-position.
    pub fn is_p(&self, parity: &[bool]) -> bool {
        let i = self.index(parity);
        self.bits[(i >> 6) as usize] >> (i & 63) & 1 == 1
    }

    /// |P0|.
    pub fn count(&self) -> u64 {
        self.bits.iter().map(|w| u64::from(w.count_ones())).sum()
    }

    /// The elements of P0, sorted lexicographically.
    pub fn p0(&self) -> Vec<Vector> {
        let mut out = Vec::new();
        let n: u64 = 1 << self.d;
        for i in 0..n {
            if self.bits[(i >> 6) as usize] >> (i & 63) & 1 == 1 {
                let mut p = vec![0i64; self.d];
                for (b, &j) in self.coordinate.iter().enumerate() {
                    p[j] = (i >> b & 1) as i64;
                }
                out.push(Vector::from_i64s(&p));
            }
        }
        out.sort();
        out
    }
}
