//! A Connect Four bot for arena that drops its piece in a random column that is not full.
//!
//! Protocol (arena's JSON envelope): on each of our turns arena writes one line such as
//!   {"type": "game_state", "payload": {"board": [".......", ".......", ".......", ".......",
//!    ".......", "...b..."], "turn": "WHITE", "turnNumber": 1}, "timeLeftMs": 59950}
//! (6 rows of 7 cells, the top row first; b black, w white, . empty) and we answer one line,
//!   {"type": "turn", "payload": 3}
//! the column, 0 to 6. stdout is for replies only: log with eprintln!. Usage: connect4 [SEED]

use std::io::{self, BufRead, Write};

use arena_starter_kit::Rng;

/// The rows of the line's "board" array, or None. Not a general JSON parser (serde_json is one
/// line in Cargo.toml when you have crates.io): enough for this one message.
fn read_board(line: &str) -> Option<Vec<&str>> {
    let after_key = &line[line.find("\"board\"")?..];
    let array = &after_key[after_key.find('[')? + 1..];
    let array = &array[..array.find(']')?];
    let rows: Vec<&str> = array.split(',').map(|cell| cell.trim().trim_matches('"')).collect();
    (rows.len() == 6 && rows.iter().all(|row| row.len() == 7)).then_some(rows)
}

fn main() -> io::Result<()> {
    let (mut rng, seed) = Rng::from_args();
    eprintln!("connect4 (Rust): seed {seed}");
    let stdout = io::stdout();
    for line in io::stdin().lock().lines() {
        let line = line?;
        let Some(board) = read_board(&line) else {
            eprintln!("no board in this line: {line}");
            std::process::exit(1);
        };
        // The top cell is free: the column is not full.
        let legal: Vec<usize> = board[0].bytes().enumerate().filter(|&(_, cell)| cell == b'.').map(|(col, _)| col).collect();
        let column = legal[rng.below(legal.len())];
        let mut out = stdout.lock();
        writeln!(out, "{{\"type\": \"turn\", \"payload\": {column}}}")?;
        out.flush()?; // line buffering is promised only on a terminal: an unflushed reply never arrives
        eprintln!("column {column} of {} legal", legal.len());
    }
    Ok(()) // end of input: the game is over
}
