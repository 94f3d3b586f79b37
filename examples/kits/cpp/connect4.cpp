// connect4.cpp: a Connect Four bot for arena that drops its piece in a random column that is not full.
//
// Protocol (arena's JSON envelope): on each of our turns arena writes one line such as
//   {"type": "game_state", "payload": {"board": [".......", ".......", ".......", ".......",
//    ".......", "...b..."], "turn": "WHITE", "turnNumber": 1}, "timeLeftMs": 59950}
// (6 rows of 7 cells, the top row first; b black, w white, . empty) and we answer one line,
//   {"type": "turn", "payload": 3}
// the column, 0 to 6. stdout is for replies only: log to std::cerr. Usage: connect4 [SEED]
#include <iostream>
#include <random>
#include <string>
#include <vector>

// The rows of the line's "board" array (empty when there is none). Not a general JSON parser:
// enough for this one message, whatever its spacing or key order.
static std::vector<std::string> read_board(const std::string& line) {
    std::vector<std::string> rows;
    auto pos = line.find("\"board\"");
    if (pos == std::string::npos || (pos = line.find('[', pos)) == std::string::npos) return rows;
    auto end = line.find(']', pos);
    while (rows.size() < 6) {
        auto open = line.find('"', pos);
        if (open == std::string::npos || open > end) return {};
        auto close = line.find('"', open + 1);
        if (close == std::string::npos || close - open - 1 != 7) return {};
        rows.push_back(line.substr(open + 1, close - open - 1));
        pos = close + 1;
    }
    return rows;
}

int main(int argc, char** argv) {
    std::ios::sync_with_stdio(false);
    unsigned seed = argc > 1 ? static_cast<unsigned>(std::stoul(argv[1])) : std::random_device{}();
    std::mt19937 rng(seed);
    std::cerr << "connect4 (C++): seed " << seed << std::endl;
    std::string line;
    while (std::getline(std::cin, line)) {
        auto board = read_board(line);
        if (board.size() != 6) {
            std::cerr << "no board in this line: " << line << std::endl;
            return 1;
        }
        std::vector<int> legal;
        for (int col = 0; col < 7; ++col)
            if (board[0][col] == '.') legal.push_back(col);  // the top cell is free: not full
        if (legal.empty()) return 1;                           // arena never asks then
        int column = legal[std::uniform_int_distribution<size_t>(0, legal.size() - 1)(rng)];
        // std::endl flushes: without a flush the reply waits in a buffer and we lose on time.
        std::cout << "{\"type\": \"turn\", \"payload\": " << column << "}" << std::endl;
        std::cerr << "column " << column << " of " << legal.size() << " legal\n";
    }
    return 0;  // end of input: the game is over
}
