#!/usr/bin/env node
// connect4.js: a Connect Four bot for arena that drops its piece in a random column that is not full.
//
// Protocol (arena's JSON envelope): on each of our turns arena writes one line such as
//   {"type": "game_state", "payload": {"board": [".......", ".......", ".......", ".......",
//    ".......", "...b..."], "turn": "WHITE", "turnNumber": 1}, "timeLeftMs": 59950}
// (6 rows of 7 cells, the top row first; b black, w white, . empty) and we answer one line,
//   {"type": "turn", "payload": 3}
// the column, 0 to 6. stdout is for replies only: log with console.error. Usage: node connect4.js
'use strict';
const readline = require('node:readline');

async function main() {
  // Iterate at once: lines that arrive while the interface exists but nobody iterates may be lost.
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  console.error('connect4 (JavaScript): ready');
  for await (const line of lines) {
    if (!line.trim()) continue;
    const { payload } = JSON.parse(line);
    const legal = [...payload.board[0]].flatMap((cell, col) => (cell === '.' ? [col] : []));
    const column = legal[Math.floor(Math.random() * legal.length)];
    // No flush to call: Node writes to the pipe at once when it has room, else queues the rest
    // (pipes are asynchronous on Linux). Never process.exit() right after a reply: it may be lost.
    process.stdout.write(JSON.stringify({ type: 'turn', payload: column }) + '\n');
    console.error(`turn ${payload.turnNumber}: column ${column} of ${legal.length} legal`);
  }
}

main();
