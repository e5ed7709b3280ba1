//! Arithmetic periodicity, G(n + p) = G(n) + s for every n ≥ n0, proved from finitely many values
//! for two classes of repeating codes (subtraction games with an infinite subtraction set are the
//! main example; Nim is the simplest).
//!
//! **Every heap below.** If d0 = 0 and every digit d_j (j ≥ 1) allows leaving 0 and 1 heaps,
//! then G(n) = n: every heap 0..n−1 is an option, and an option of two or more heaps (total < n)
//! has value at most their XOR, which is at most their sum, below n. (`0.[3]` is Nim, `0.[7]`.)
//!
//! **Eventually periodic taking codes.** Let d0 = 0, let d_j allow only 0 or 1 heaps for
//! j ≤ m, and let d_j ∈ {0, 3} with d_{j+q} = d_j for j > m (the all-but subtraction game N ∖ X
//! has q = 1 and m = max X). For n > m the options of heap n have the values
//!
//!   Opt(n) = {G(n − j) : 1 ≤ j ≤ m, d_j allows one heap} ∪ U_{n mod q}(n − m),
//!
//! where U_t(k) = {G(i) : 0 ≤ i < k, d_{t−i} = 3} (the digit index read modulo q past m). Let
//! q divide p, K ≥ 1 and s = G(K + p) − G(K) ≥ 0, and suppose
//!
//!   (a) G(i + p) = G(i) + s for K ≤ i < K + m, and
//!   (b) U_t(K + p) = [0, s) ∪ (U_t(K) + s) for every residue t modulo q.
//!
//! Then G(n + p) = G(n) + s for every n ≥ K. Proof, by induction on n ≥ K + m (smaller n are
//! (a)): n > m, so Opt(n + p) is given by the formula. Each G(n + p − j), 1 ≤ j ≤ m, is
//! G(n − j) + s by induction (K ≤ n − j < n). U_t(n + p − m) is U_t(K + p) together with the
//! G(i + p) = G(i) + s for K ≤ i < n − m with the same residue (q | p), so by (b) it is
//! [0, s) ∪ (U_t(n − m) + s). Hence Opt(n + p) = [0, s) ∪ (Opt(n) + s), whose mex is
//! mex Opt(n) + s.
//!
//! Once (p, s) is proved from K, a smaller (p′, s′) holding on K ≤ n < K + p holds for every
//! n ≥ K (G(n + p′) = G(n − p + p′) + s = G(n − p) + s′ + s = G(n) + s′), and the identity seen on
//! the values from n0 up to K then holds from n0.

use crate::game::heap::HeapCode;

/// Which argument proves an arithmetic periodicity.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArithmeticArgument {
    /// d0 = 0 and every d_j allows 0 and 1 heaps: G(n) = n.
    EveryHeapBelow,
    /// The eventually periodic taking codes: conditions (a) and (b) checked from heap `from`
    /// with period `checked_period`, for the code's m and q.
    Taking {
        /// m: the digits after d_m are 0 or 3 and repeat.
        m: usize,
        /// q: their period.
        q: usize,
        /// K, where (a) and (b) were checked.
        from: usize,
        /// The period (a multiple of q) the conditions were checked with.
        checked_period: usize,
    },
}

/// The shape of a code in the second class: m, q, and for each residue r of j modulo q (j > m)
/// whether d_j = 3.
struct Taking {
    m: usize,
    q: usize,
    three: Vec<bool>,
}

/// Whether `code` is in the first class.
pub fn every_heap_below(code: &HeapCode) -> bool {
    let Some((m, q)) = code.repeating_tail() else {
        return false;
    };
    code.digit(0).is_some_and(|d| d.is_zero())
        && (1..=m + q).all(|j| code.digit(j).is_some_and(|d| d.allows(0) && d.allows(1)))
}

fn taking(code: &HeapCode) -> Option<Taking> {
    let (m, q) = code.repeating_tail()?;
    let mask = |j: usize| code.digit(j).and_then(|d| d.plain_mask());
    if mask(0)? != 0 {
        return None;
    }
    if (1..=m).any(|j| mask(j).is_none_or(|d| d & !3 != 0)) {
        return None;
    }
    let mut three = vec![false; q];
    for j in m + 1..=m + q {
        match mask(j)? {
            0 => {}
            3 => three[j % q] = true,
            _ => return None,
        }
    }
    Some(Taking { m, q, three })
}

/// Why neither class covers `code` (for the report of an unproved period).
pub fn not_covered(code: &HeapCode) -> Option<String> {
    if every_heap_below(code) || taking(code).is_some() {
        return None;
    }
    Some("the code is outside the classes arithmetic periodicity is proved for (no splitting, and a repeating tail of digits 0 and 3; or every digit allowing 0 and 1 heaps)".into())
}

/// A proof that G(n + p) = G(n) + s for every n ≥ n0, for the candidate (n0, p, s) the values
/// `g` show (the identity holds on every computed n ≥ n0), or `None`.
pub fn prove(
    code: &HeapCode,
    g: &[u32],
    n0: usize,
    p: usize,
    s: i64,
) -> Option<ArithmeticArgument> {
    if every_heap_below(code) {
        // G(n) = n for every n; the candidate must say so.
        return (p as i64 == s && g.iter().enumerate().all(|(i, &v)| v as usize == i))
            .then_some(ArithmeticArgument::EveryHeapBelow);
    }
    let t = taking(code)?;
    if s < 0 {
        return None;
    }
    // A multiple of q: the identity for it holds on the values from n0 too.
    let big = p / gcd(p, t.q) * t.q;
    let big_s = s * (big / p) as i64;
    let s_big = usize::try_from(big_s).ok()?;
    let n = g.len().checked_sub(1)?;
    let start = n0.max(1);
    // (a) holds for K ≥ n0 wherever the values reach (K + m − 1 + P ≤ n); the identity itself
    // is checked here rather than assumed.
    let holds = |i: usize| i64::from(g[i + big]) - i64::from(g[i]) == big_s;
    let in_residue = |tt: usize, i: usize| -> bool {
        // d_{tt − i} = 3 with the index read modulo q past m: tt − i ≡ r (mod q), three[r].
        t.three[(tt + t.q * (i / t.q + 1) - i) % t.q]
    };
    let top = *g.iter().max()? as usize + s_big + 2;
    // Two counters per value and residue: refuse what would not fit in a few hundred MB.
    if (t.q as u64).saturating_mul(top as u64) > 50_000_000 {
        return None;
    }
    // For each residue: membership in A = U_t(K), in B = U_t(K + P), and how many values v
    // have [v ∈ B] ≠ [v ∈ [0, s) ∪ (A + s)].
    struct Residue {
        a: Vec<u32>,
        b: Vec<u32>,
        mismatched: usize,
    }
    let target = |r: &Residue, v: usize| v < s_big || r.a[v - s_big] > 0;
    let mut residues: Vec<Residue> = Vec::with_capacity(t.q);
    for tt in 0..t.q {
        let mut r = Residue {
            a: vec![0; top],
            b: vec![0; top],
            mismatched: 0,
        };
        for i in 0..start.min(g.len()) {
            if in_residue(tt, i) {
                r.a[g[i] as usize] += 1;
            }
        }
        for i in 0..(start + big).min(g.len()) {
            if in_residue(tt, i) {
                r.b[g[i] as usize] += 1;
            }
        }
        r.mismatched = (0..top).filter(|&v| (r.b[v] > 0) != target(&r, v)).count();
        residues.push(r);
    }
    let mut k = start;
    while k + big + t.m.max(1) - 1 <= n {
        // The smaller period p needs its identity seen on K ≤ n < K + P as well.
        if k + big - 1 + p <= n
            && (k..k + t.m).all(holds)
            && residues.iter().all(|r| r.mismatched == 0)
        {
            return Some(ArithmeticArgument::Taking {
                m: t.m,
                q: t.q,
                from: k,
                checked_period: big,
            });
        }
        // K → K + 1: G(K) joins A and G(K + P) joins B, for the residues that take them.
        for (tt, r) in residues.iter_mut().enumerate() {
            if in_residue(tt, k) {
                let v = g[k] as usize;
                let before = |r: &Residue, w: usize| (r.b[w] > 0) != target(r, w);
                let w = v + s_big;
                let was = before(r, w);
                r.a[v] += 1;
                let now = before(r, w);
                r.mismatched = r.mismatched + usize::from(now) - usize::from(was);
            }
            if in_residue(tt, k + big) {
                let v = g[k + big] as usize;
                let was = (r.b[v] > 0) != target(r, v);
                r.b[v] += 1;
                let now = (r.b[v] > 0) != target(r, v);
                r.mismatched = r.mismatched + usize::from(now) - usize::from(was);
            }
        }
        k += 1;
    }
    None
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}
