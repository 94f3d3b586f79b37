//! An English draughts bot for arena that plays a random legal move.
//!
//! Protocol (arena's checkers lines): once at the start arena writes our total time in ms and our
//! colour ("black" or "white"); then on each of our turns our time left and 8 board lines such as
//! ". b . b . b . b" (row 0 at the top, seen from white's side; b/w men, B/W kings, . empty).
//! We answer one line: the number of squares the piece visits, then "col row" of each, start first
//! ("2 3 2 2 3"). Black men move down (row + 1), white men up; kings both ways, one square.
//! Capturing is compulsory (any capture may be chosen), a multi-jump goes on while the piece can
//! jump, and a man that reaches the far row is crowned and stops. Usage: checkers [SEED]

use std::io::{self, BufRead, Write};

use arena_starter_kit::Rng;

type Square = (i32, i32); // (col, row)
type Move = Vec<Square>; // every square the piece visits, start first

struct Position {
    board: [[u8; 8]; 8], // board[row][col]
    black: bool,
}

impl Position {
    fn forward(&self) -> i32 { if self.black { 1 } else { -1 } }
    fn far_row(&self) -> i32 { if self.black { 7 } else { 0 } }
    fn mine(&self, p: u8) -> bool { if self.black { p == b'b' || p == b'B' } else { p == b'w' || p == b'W' } }
    fn theirs(&self, p: u8) -> bool { p != b'.' && p != b'x' && !self.mine(p) }
    fn at(&self, (col, row): Square) -> Option<u8> {
        ((0..8).contains(&col) && (0..8).contains(&row)).then(|| self.board[row as usize][col as usize])
    }
    fn set(&mut self, (col, row): Square, piece: u8) { self.board[row as usize][col as usize] = piece; }

    /// Every way to go on jumping from the end of `path`.
    fn jump(&mut self, path: &mut Move, king: bool, out: &mut Vec<Move>) {
        let (col, row) = *path.last().unwrap();
        let mut extended = false;
        for dr in [-1, 1] {
            if !king && dr != self.forward() { continue; }
            for dc in [-1, 1] {
                let (over, land) = ((col + dc, row + dr), (col + 2 * dc, row + 2 * dr));
                if self.at(land) != Some(b'.') || !self.at(over).is_some_and(|p| self.theirs(p)) { continue; }
                extended = true;
                let taken = self.at(over).unwrap();
                self.set(over, b'x'); // stays on the board until the move ends; jumped once
                path.push(land);
                if !king && land.1 == self.far_row() {
                    out.push(path.clone()); // crowned: the move ends here
                } else {
                    self.jump(path, king, out);
                }
                path.pop();
                self.set(over, taken);
            }
        }
        if !extended && path.len() > 1 { out.push(path.clone()); }
    }

    fn legal_moves(&mut self) -> Vec<Move> {
        let mut moves = Vec::new();
        let squares: Vec<Square> = (0..8).flat_map(|row| (0..8).map(move |col| (col, row))).collect();
        for &square in &squares {
            let piece = self.at(square).unwrap();
            if !self.mine(piece) { continue; }
            self.set(square, b'.'); // it has left its square: it may land there again
            self.jump(&mut vec![square], piece.is_ascii_uppercase(), &mut moves);
            self.set(square, piece);
        }
        if !moves.is_empty() { return moves; } // a capture is compulsory
        for &(col, row) in &squares {
            let piece = self.at((col, row)).unwrap();
            if !self.mine(piece) { continue; }
            for dr in [-1, 1] {
                for dc in [-1, 1] {
                    let to = (col + dc, row + dr);
                    if (piece.is_ascii_uppercase() || dr == self.forward()) && self.at(to) == Some(b'.') {
                        moves.push(vec![(col, row), to]);
                    }
                }
            }
        }
        moves
    }
}

fn main() -> io::Result<()> {
    let (mut rng, seed) = Rng::from_args();
    let mut lines = io::stdin().lock().lines();
    let mut next_line = move || -> io::Result<Option<String>> { lines.next().transpose() };
    let (Some(total), Some(colour)) = (next_line()?, next_line()?) else { return Ok(()) };
    let mut position = Position { board: [[b'.'; 8]; 8], black: colour.trim() == "black" };
    eprintln!("checkers (Rust): {}, {} ms, seed {seed}", colour.trim(), total.trim());
    let stdout = io::stdout();
    while let Some(left) = next_line()? {
        for row in 0..8 {
            let line = next_line()?.unwrap_or_default();
            let cells: Vec<u8> = line.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
            position.board[row].copy_from_slice(&cells[..8]);
        }
        let moves = position.legal_moves();
        let chosen = &moves[rng.below(moves.len())];
        let squares: Vec<String> = chosen.iter().map(|(col, row)| format!("{col} {row}")).collect();
        let mut out = stdout.lock();
        writeln!(out, "{} {}", chosen.len(), squares.join(" "))?;
        out.flush()?; // an unflushed reply never arrives
        eprintln!("{} ms left: one of {} legal moves", left.trim(), moves.len());
    }
    Ok(())
}
