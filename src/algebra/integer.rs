//! Exact integers with a machine-word fast path.
//!
//! [`Integer`] is `i64` while a value fits, and a `BigInt` otherwise; every operation checks for
//! overflow and falls back to `BigInt`, so arithmetic is never silently wrong. Values are kept
//! normalised (a `Big` never holds a number that fits in `i64`), so derived equality and hashing are
//! correct.

use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, Mul, Neg, Sub};
use std::str::FromStr;

use num_bigint::BigInt;
use num_integer::Integer as _;
use num_traits::{Signed, ToPrimitive, Zero};

/// An exact integer.
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum Integer {
    /// A value that fits in a machine word.
    Small(i64),
    /// A value that does not fit in `i64` (boxed, so that an `Integer` is two words: vectors of
    /// small integers, the common case, take half the memory).
    Big(Box<BigInt>),
}

impl Integer {
    /// Zero.
    pub const ZERO: Integer = Integer::Small(0);
    /// One.
    pub const ONE: Integer = Integer::Small(1);

    fn from_big(b: BigInt) -> Integer {
        match b.to_i64() {
            Some(s) => Integer::Small(s),
            None => Integer::Big(Box::new(b)),
        }
    }

    /// The value as a `BigInt`.
    pub fn to_bigint(&self) -> BigInt {
        match self {
            Integer::Small(s) => BigInt::from(*s),
            Integer::Big(b) => (**b).clone(),
        }
    }

    /// The value as `i64`, when it fits.
    pub fn to_i64(&self) -> Option<i64> {
        match self {
            Integer::Small(s) => Some(*s),
            Integer::Big(_) => None,
        }
    }

    /// Whether the value is 0.
    pub fn is_zero(&self) -> bool {
        matches!(self, Integer::Small(0))
    }

    /// -1, 0 or 1.
    pub fn signum(&self) -> i32 {
        match self {
            Integer::Small(s) => s.signum() as i32,
            Integer::Big(b) => {
                if b.is_negative() {
                    -1
                } else {
                    1
                }
            }
        }
    }

    /// The absolute value.
    pub fn abs(&self) -> Integer {
        if self.signum() < 0 {
            -self
        } else {
            self.clone()
        }
    }

    /// Floor division; `None` when dividing by zero.
    pub fn div_floor(&self, other: &Integer) -> Option<Integer> {
        if other.is_zero() {
            return None;
        }
        if let (Integer::Small(a), Integer::Small(b)) = (self, other) {
            if !(*a == i64::MIN && *b == -1) {
                return Some(Integer::Small(a.div_floor(b)));
            }
        }
        Some(Integer::from_big(
            self.to_bigint().div_floor(&other.to_bigint()),
        ))
    }

    /// The remainder of floor division (same sign as the divisor); `None` when dividing by zero.
    pub fn mod_floor(&self, other: &Integer) -> Option<Integer> {
        if other.is_zero() {
            return None;
        }
        if let (Integer::Small(a), Integer::Small(b)) = (self, other) {
            if *b != -1 {
                return Some(Integer::Small(a.mod_floor(b)));
            }
            return Some(Integer::ZERO);
        }
        Some(Integer::from_big(
            self.to_bigint().mod_floor(&other.to_bigint()),
        ))
    }

    /// Whether the integer is odd.
    pub fn is_odd(&self) -> bool {
        match self {
            Integer::Small(x) => x & 1 == 1,
            Integer::Big(b) => num_integer::Integer::is_odd(&**b),
        }
    }

    /// Whether `other` divides `self` (0 divides only 0).
    pub fn is_multiple_of(&self, other: &Integer) -> bool {
        match self.mod_floor(other) {
            Some(r) => r.is_zero(),
            None => self.is_zero(),
        }
    }

    /// The greatest common divisor (nonnegative).
    pub fn gcd(&self, other: &Integer) -> Integer {
        if let (Integer::Small(a), Integer::Small(b)) = (self, other) {
            let g = a.unsigned_abs().gcd(&b.unsigned_abs());
            if let Ok(g) = i64::try_from(g) {
                return Integer::Small(g);
            }
        }
        Integer::from_big(self.to_bigint().gcd(&other.to_bigint()))
    }

    /// `self^exp`.
    pub fn pow(&self, exp: u32) -> Integer {
        if let Integer::Small(a) = self {
            if let Some(p) = a.checked_pow(exp) {
                return Integer::Small(p);
            }
        }
        Integer::from_big(num_traits::pow(self.to_bigint(), exp as usize))
    }

    /// The number of bits of the absolute value (0 for 0).
    pub fn bits(&self) -> u64 {
        match self {
            Integer::Small(s) => 64 - s.unsigned_abs().leading_zeros() as u64,
            Integer::Big(b) => b.bits(),
        }
    }
}

impl Default for Integer {
    fn default() -> Self {
        Integer::ZERO
    }
}

impl From<i64> for Integer {
    fn from(v: i64) -> Self {
        Integer::Small(v)
    }
}

impl From<i32> for Integer {
    fn from(v: i32) -> Self {
        Integer::Small(v as i64)
    }
}

impl From<usize> for Integer {
    fn from(v: usize) -> Self {
        match i64::try_from(v) {
            Ok(s) => Integer::Small(s),
            Err(_) => Integer::Big(Box::new(BigInt::from(v))),
        }
    }
}

impl From<BigInt> for Integer {
    fn from(v: BigInt) -> Self {
        Integer::from_big(v)
    }
}

impl From<&BigInt> for Integer {
    fn from(v: &BigInt) -> Self {
        match v.to_i64() {
            Some(s) => Integer::Small(s),
            None => Integer::Big(Box::new(v.clone())),
        }
    }
}

impl FromStr for Integer {
    type Err = num_bigint::ParseBigIntError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.parse::<i64>() {
            Ok(v) => Ok(Integer::Small(v)),
            Err(_) => s.parse::<BigInt>().map(Integer::from_big),
        }
    }
}

impl fmt::Display for Integer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Integer::Small(s) => write!(f, "{s}"),
            Integer::Big(b) => write!(f, "{b}"),
        }
    }
}

impl fmt::Debug for Integer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl Ord for Integer {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (Integer::Small(a), Integer::Small(b)) => a.cmp(b),
            _ => self.to_bigint().cmp(&other.to_bigint()),
        }
    }
}

impl PartialOrd for Integer {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

macro_rules! checked_op {
    ($trait:ident, $method:ident, $checked:ident, $big:tt) => {
        impl $trait<&Integer> for &Integer {
            type Output = Integer;
            fn $method(self, rhs: &Integer) -> Integer {
                if let (Integer::Small(a), Integer::Small(b)) = (self, rhs) {
                    if let Some(r) = a.$checked(*b) {
                        return Integer::Small(r);
                    }
                }
                Integer::from_big(self.to_bigint() $big rhs.to_bigint())
            }
        }
        impl $trait<Integer> for Integer {
            type Output = Integer;
            fn $method(self, rhs: Integer) -> Integer {
                (&self).$method(&rhs)
            }
        }
        impl $trait<&Integer> for Integer {
            type Output = Integer;
            fn $method(self, rhs: &Integer) -> Integer {
                (&self).$method(rhs)
            }
        }
    };
}

checked_op!(Add, add, checked_add, +);
checked_op!(Sub, sub, checked_sub, -);
checked_op!(Mul, mul, checked_mul, *);

impl Neg for &Integer {
    type Output = Integer;
    fn neg(self) -> Integer {
        match self {
            Integer::Small(a) => match a.checked_neg() {
                Some(r) => Integer::Small(r),
                None => Integer::from_big(-BigInt::from(*a)),
            },
            Integer::Big(b) => Integer::from_big(-&**b),
        }
    }
}

impl Neg for Integer {
    type Output = Integer;
    fn neg(self) -> Integer {
        -&self
    }
}

impl Zero for Integer {
    fn zero() -> Self {
        Integer::ZERO
    }
    fn is_zero(&self) -> bool {
        Integer::is_zero(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn big(i: &Integer) -> BigInt {
        i.to_bigint()
    }

    proptest! {
        #[test]
        fn arithmetic_agrees_with_bigint(a in any::<i64>(), b in any::<i64>()) {
            let (x, y) = (Integer::from(a), Integer::from(b));
            let (bx, by) = (BigInt::from(a), BigInt::from(b));
            prop_assert_eq!(big(&(&x + &y)), &bx + &by);
            prop_assert_eq!(big(&(&x - &y)), &bx - &by);
            prop_assert_eq!(big(&(&x * &y)), &bx * &by);
            prop_assert_eq!(big(&-&x), -&bx);
            prop_assert_eq!(x.cmp(&y), bx.cmp(&by));
            if b != 0 {
                prop_assert_eq!(big(&x.div_floor(&y).unwrap()), bx.div_floor(&by));
                prop_assert_eq!(big(&x.mod_floor(&y).unwrap()), bx.mod_floor(&by));
            }
            prop_assert_eq!(big(&x.gcd(&y)), bx.gcd(&by));
        }

        #[test]
        fn results_are_normalised(a in any::<i64>(), b in any::<i64>()) {
            // (a*b) - (a*b) + a must come back as a machine word, so equality and hashing agree.
            let (x, y) = (Integer::from(a), Integer::from(b));
            let p = &x * &y;
            let back = &(&p - &p) + &x;
            prop_assert!(matches!(back, Integer::Small(v) if v == a));
        }
    }

    #[test]
    fn overflow_falls_back_to_bigint() {
        let m = Integer::from(i64::MAX);
        let s = &m + &Integer::ONE;
        assert_eq!(s.to_string(), "9223372036854775808");
        assert_eq!(
            Integer::from(i64::MIN).abs().to_string(),
            "9223372036854775808"
        );
        assert_eq!(
            Integer::from(2).pow(100).to_string(),
            "1267650600228229401496703205376"
        );
        assert_eq!(
            Integer::from(i64::MIN)
                .div_floor(&Integer::from(-1))
                .unwrap()
                .to_string(),
            "9223372036854775808"
        );
        assert!(Integer::from(5).div_floor(&Integer::ZERO).is_none());
    }
}
