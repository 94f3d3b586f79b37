#!/usr/bin/env node
// checkers.js: an English draughts bot for arena that plays a random legal move.
//
// Protocol (arena's checkers lines): once at the start arena writes our total time in ms and our
// colour ("black" or "white"); then on each of our turns our time left and 8 board lines such as
// ". b . b . b . b" (row 0 at the top, seen from white's side; b/w men, B/W kings, . empty).
// We answer one line: the number of squares the piece visits, then "col row" of each, start first
// ("2 3 2 2 3"). Black men move down (row + 1), white men up; kings both ways, one square.
// Capturing is compulsory (any capture may be chosen), a multi-jump goes on while the piece can
// jump, and a man that reaches the far row is crowned and stops. Usage: node checkers.js
'use strict';
const readline = require('node:readline');

function legalMoves(board, black) {
  const forward = black ? 1 : -1;
  const farRow = black ? 7 : 0;
  const mine = (p) => (black ? p === 'b' || p === 'B' : p === 'w' || p === 'W');
  const theirs = (p) => p !== '.' && p !== 'x' && !mine(p);
  const onBoard = (col, row) => col >= 0 && col < 8 && row >= 0 && row < 8;
  const moves = [];

  // Every way to go on jumping from the end of path (squares as [col, row], start first).
  function jump(path, king) {
    const [col, row] = path[path.length - 1];
    let extended = false;
    for (const dr of [-1, 1]) {
      if (!king && dr !== forward) continue;
      for (const dc of [-1, 1]) {
        const [overCol, overRow, landCol, landRow] = [col + dc, row + dr, col + 2 * dc, row + 2 * dr];
        if (!onBoard(landCol, landRow) || !theirs(board[overRow][overCol]) || board[landRow][landCol] !== '.') continue;
        extended = true;
        const taken = board[overRow][overCol];
        board[overRow][overCol] = 'x'; // stays on the board until the move ends; jumped once
        const longer = [...path, [landCol, landRow]];
        if (!king && landRow === farRow) moves.push(longer); // crowned: the move ends here
        else jump(longer, king);
        board[overRow][overCol] = taken;
      }
    }
    if (!extended && path.length > 1) moves.push(path);
  }

  for (let row = 0; row < 8; row++) {
    for (let col = 0; col < 8; col++) {
      const piece = board[row][col];
      if (!mine(piece)) continue;
      board[row][col] = '.'; // it has left its square: it may land there again
      jump([[col, row]], piece === piece.toUpperCase());
      board[row][col] = piece;
    }
  }
  if (moves.length > 0) return moves; // a capture is compulsory
  for (let row = 0; row < 8; row++) {
    for (let col = 0; col < 8; col++) {
      const piece = board[row][col];
      if (!mine(piece)) continue;
      for (const dr of [-1, 1]) {
        for (const dc of [-1, 1]) {
          const king = piece === piece.toUpperCase();
          if ((king || dr === forward) && onBoard(col + dc, row + dr) && board[row + dr][col + dc] === '.') {
            moves.push([[col, row], [col + dc, row + dr]]);
          }
        }
      }
    }
  }
  return moves;
}

async function main() {
  // One loop over every line, started at once: lines that arrive while nobody iterates may be lost,
  // and leaving a `for await` loop closes the interface. The protocol is a small state machine.
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  const header = [];
  let block = [];
  for await (const line of lines) {
    if (!line.trim()) continue;
    if (header.length < 2) {
      header.push(line.trim()); // total time, then our colour
      if (header.length === 2) console.error(`checkers (JavaScript): ${header[1]}, ${header[0]} ms`);
      continue;
    }
    block.push(line);
    if (block.length < 9) continue; // time left, then 8 board rows
    const board = block.slice(1).map((row) => row.split(/\s+/).filter(Boolean));
    block = [];
    const moves = legalMoves(board, header[1] === 'black');
    const move = moves[Math.floor(Math.random() * moves.length)];
    process.stdout.write(`${move.length} ${move.flat().join(' ')}\n`);
    console.error(`one of ${moves.length} legal moves`);
  }
}

main();
