// checkers.cpp: an English draughts bot for arena that plays a random legal move.
//
// Protocol (arena's checkers lines): once at the start arena writes our total time in ms and our
// colour ("black" or "white"); then on each of our turns our time left and 8 board lines such as
// ". b . b . b . b" (row 0 at the top, seen from white's side; b/w men, B/W kings, . empty).
// We answer one line: the number of squares the piece visits, then "col row" of each, start first
// ("2 3 2 2 3"). Black men move down (row + 1), white men up; kings both ways, one square.
// Capturing is compulsory (any capture may be chosen), a multi-jump goes on while the piece can
// jump, and a man that reaches the far row is crowned and stops. Usage: checkers [SEED]
#include <array>
#include <cctype>
#include <iostream>
#include <random>
#include <string>
#include <utility>
#include <vector>

using Square = std::pair<int, int>;  // col, row
using Move = std::vector<Square>;     // every square the piece visits, start first

struct Position {
    std::array<std::array<char, 8>, 8> board{};  // board[row][col]
    bool black = true;

    int forward() const { return black ? 1 : -1; }
    int far_row() const { return black ? 7 : 0; }
    bool mine(char p) const { return black ? (p == 'b' || p == 'B') : (p == 'w' || p == 'W'); }
    bool theirs(char p) const { return p != '.' && p != 'x' && !mine(p); }
    static bool on_board(int col, int row) { return col >= 0 && col < 8 && row >= 0 && row < 8; }

    // Every way to go on jumping from the end of path.
    void jump(Move& path, bool king, std::vector<Move>& out) {
        auto [col, row] = path.back();
        bool extended = false;
        for (int dr : {-1, 1}) {
            if (!king && dr != forward()) continue;
            for (int dc : {-1, 1}) {
                int oc = col + dc, orow = row + dr, lc = col + 2 * dc, lr = row + 2 * dr;
                if (!on_board(lc, lr) || !theirs(board[orow][oc]) || board[lr][lc] != '.') continue;
                extended = true;
                char taken = board[orow][oc];
                board[orow][oc] = 'x';  // stays on the board until the move ends; jumped once
                path.emplace_back(lc, lr);
                if (!king && lr == far_row())
                    out.push_back(path);  // crowned: the move ends here
                else
                    jump(path, king, out);
                path.pop_back();
                board[orow][oc] = taken;
            }
        }
        if (!extended && path.size() > 1) out.push_back(path);
    }

    std::vector<Move> legal_moves() {
        std::vector<Move> moves;
        for (int row = 0; row < 8; ++row)
            for (int col = 0; col < 8; ++col)
                if (char piece = board[row][col]; mine(piece)) {
                    Move path{{col, row}};
                    board[row][col] = '.';  // it has left its square: it may land there again
                    jump(path, std::isupper(static_cast<unsigned char>(piece)), moves);
                    board[row][col] = piece;
                }
        if (!moves.empty()) return moves;  // a capture is compulsory
        for (int row = 0; row < 8; ++row)
            for (int col = 0; col < 8; ++col) {
                if (!mine(board[row][col])) continue;
                bool king = std::isupper(static_cast<unsigned char>(board[row][col]));
                for (int dr : {-1, 1})
                    for (int dc : {-1, 1})
                        if ((king || dr == forward()) && on_board(col + dc, row + dr) && board[row + dr][col + dc] == '.')
                            moves.push_back({{col, row}, {col + dc, row + dr}});
            }
        return moves;
    }
};

int main(int argc, char** argv) {
    std::ios::sync_with_stdio(false);
    unsigned seed = argc > 1 ? static_cast<unsigned>(std::stoul(argv[1])) : std::random_device{}();
    std::mt19937 rng(seed);
    long total_ms, left_ms;
    std::string colour;
    if (!(std::cin >> total_ms >> colour)) return 1;
    Position position;
    position.black = colour == "black";
    std::cerr << "checkers (C++): " << colour << ", " << total_ms << " ms, seed " << seed << std::endl;
    while (std::cin >> left_ms) {  // whitespace-separated words: the line ends do not matter
        for (auto& row : position.board)
            for (char& cell : row)
                if (!(std::cin >> cell)) return 1;
        auto moves = position.legal_moves();
        if (moves.empty()) return 1;  // no move: we have lost, arena never asks then
        const Move& move = moves[std::uniform_int_distribution<size_t>(0, moves.size() - 1)(rng)];
        std::cout << move.size();
        for (auto [col, row] : move) std::cout << ' ' << col << ' ' << row;
        std::cout << std::endl;  // std::endl flushes: an unflushed reply never arrives
        std::cerr << left_ms << " ms left: one of " << moves.size() << " legal moves\n";
    }
    return 0;
}
