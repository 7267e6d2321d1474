# Abalone through GTP (games-protocol.md "Abalone"): the game, the starts, AbaPro notation,
# sumito, illegal moves, undo, the ply cap's end and the score.
# ishi-args: --game abalone --playouts 200

1 ishi-game
#? [abalone]
2 boardsize 8
#? [?unacceptable size]
boardsize 9
3 komi 6.5
#? [?not available in abalone]
4 final_status_list dead
#? [?not available in abalone]
5 known_command komi
#? [false]
6 known_command ishi-start
#? [true]
7 known_command ishi-swap
#? [false]

# Perft from the three starts (margo-abalone.md 4.1); Belgian daisy is the default.
10 ishi-perft 1
#? [52]
11 ishi-perft 2
#? [2692]
ishi-start standard
12 ishi-perft 1
#? [44]
13 ishi-perft 2
#? [1936]
ishi-start german
14 ishi-perft 1
#? [80]
15 ishi-start dutch
#? [?unknown start.*]

# Black moves first; the colours alternate strictly.
ishi-start belgian
20 play w a4b4
#? [?illegal move]
21 genmove w
#? [?not white's turn]
22 showboard
#? [.*a X X \. O O.*black to move.*ply 0 of 400.*]
# Broadside: two spellings of one move (c2,c3 to d2,d3); the listing spells it one way.
23 is_legal b c2c3d2
#? [1]
24 is_legal b c3c2d3
#? [1]
25 all_legal_moves b
#? [.* c2c3d2 .*]
26 all_legal_moves b
#? [!.*c3c2d3.*]
# Malformed text is a syntax error, a wrong shape too.
27 play b a1
#? [?syntax error]
28 play b z1z2
#? [?syntax error]
29 play b a1c1
#? [?syntax error]

# Inline c2,c3 east to c3,c4; then white's a4,b4 pushes the lone c4 to d4 (2 against 1).
30 play b C2C3
#? []
31 play w a4b4
#? []
32 showboard
#? [.*d \. \. \. X .*c \. \. X O O O .*a X X \. \. O .*]
# One against three cannot push.
33 is_legal b c3c4
#? [0]
34 play b c3c4
#? [?illegal move]
35 final_score
#? [0]
36 undo
#? []
37 showboard
#? [.*c \. \. X X O O .*]
undo
38 undo
#? [?cannot undo]

# The search answers a legal move in canonical spelling and plays it.
40 reg_genmove b
#? [[a-i][1-9][a-i][1-9]([a-i][1-9])?]
41 genmove b
#? [[a-i][1-9][a-i][1-9]([a-i][1-9])?]
42 genmove w
#? [[a-i][1-9][a-i][1-9]([a-i][1-9])?]
43 ishi-record
#? [1 [a-i1-9]+ 2 [a-i1-9]+]
