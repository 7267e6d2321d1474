# Margo through GTP (games-protocol.md "Margo"): the game, sizes, the designer's vertices,
# platforms, swap, illegal moves, undo, the end with no legal move and the score.
# ishi-args: --game margo --playouts 200

1 ishi-game
#? [margo]
2 boardsize 3
#? [?unacceptable size]
3 boardsize 10
#? [?unacceptable size]
4 komi 6.5
#? [?not available in margo]
5 loadsgf game.sgf
#? [?not available in margo]
6 known_command ishi-swap
#? [true]
7 known_command ishi-start
#? [false]
8 ishi-game chess
#? [?unknown game]

# Perft from the empty 6x6 board (margo-abalone.md 4.2); swap adds one move per first move.
boardsize 6
10 ishi-perft 1
#? [36]
11 ishi-perft 2
#? [1296]
ishi-swap off
12 ishi-perft 2
#? [1260]
13 ishi-perft 3
#? [42840]
ishi-swap on
14 all_legal_moves b
#? [A1 C1 E1 G1 I1 K1 A3 C3 .* I11 K11]

# Vertices: holes are letter/number with even letter index and odd number (A1, C1 ... K11);
# level 1 points odd/even (B2 ...) need a complete platform; mixed parity names no point.
20 play b B2
#? [?illegal move]
21 play b F7
#? [?illegal move]
22 play b L1
#? [?illegal move]
23 play b 5
#? [?syntax error]

# Either colour may start (here white, as the designer has it); then they alternate.
24 play w e5
#? []
25 play w C3
#? [?illegal move]
26 play b E5
#? [?illegal move]
# The swap: black takes over white's first ball; white moves next.
27 play b swap
#? []
28 showboard
#? [.*  5 \. \. X \. \. \..*balls: black \(X\) 1, white \(O\) 0.*]
29 play b C3
#? [?illegal move]
30 play w swap
#? [?illegal move]
31 ishi-record
#? [1 E5\*]
32 final_score
#? [B\+1]
33 genmove w
#? [[A-K](1|3|5|7|9|11)]
34 undo
#? []
35 undo
#? []
36 undo
#? []
37 undo
#? [?cannot undo]

# A platform of mixed colours carries a ball: B2 rests on A1, C1, A3, C3.
play b A1
play w C1
play b A3
play w C3
40 is_legal b B2
#? [1]
41 play b B2
#? []
42 showboard
#? [.*level 1.*X.*]
43 final_score
#? [B\+1]
clear_board

# A whole 4x4 game (ishi's own, seed 3): white starts; after move 32 white has no legal move,
# so the game is over; black has 12 balls in play, white 2 (zombies under black balls).
boardsize 4
play w C5
play b E3
play w C3
play b E5
play w E7
play b C1
play w E1
play b G1
play w G5
play b A3
play w C7
play b A5
play w G3
play b G7
play w G5
play b D4
play w B4
play b A7
play w D6
play b G7
play w E7
play b B4
play w G3
play b G7
play w G5
play b G3
play w F4
play b G7
play w G5
play b C7
play w D6
play b G7
50 all_legal_moves w
#? []
51 genmove w
#? [?game over]
52 genmove b
#? [?game over]
53 play w A1
#? [?illegal move]
59 ishi-illegal_reason w A1
#? [game_over]
54 final_score
#? [B\+10]
55 showboard
#? [.*o.*balls: black \(X\) 12, white \(O\) 2.*]
56 reg_genmove w
#? [?game over]
57 undo
#? []
# B4 names a column whose only point (level 1) holds a ball.
60 ishi-illegal_reason b B4
#? [occupied]
58 all_legal_moves b
#? [.+]
