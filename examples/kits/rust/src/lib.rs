//! What both bots share: a small random number generator (the standard library has none).

use std::time::{SystemTime, UNIX_EPOCH};

/// xorshift64*: fast, and plenty for picking a random legal move.
pub struct Rng(u64);

impl Rng {
    /// Seeded from the first command-line argument, else from the clock and the process id.
    pub fn from_args() -> (Rng, u64) {
        let seed = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or_else(|| {
            let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_nanos() as u64).unwrap_or(1);
            nanos ^ u64::from(std::process::id()) << 32
        });
        (Rng(seed | 1), seed)
    }

    /// A number in 0..n (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}
