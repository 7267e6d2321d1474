# The computer opponent of a game app, Margo (README "Embedding ishi in an app").
# ishi-args: --game margo --playouts 200

ishi-level easy
1 ishi-level
#? [easy]
2 ishi-illegal_reason b B2
#? [no_platform]
3 ishi-illegal_reason b F7
#? [no_point]
4 ishi-illegal_reason b swap
#? [swap_not_allowed]
5 ishi-illegal_reason w E5
#? []
6 play w E5
#? []
7 ishi-illegal_reason w C3
#? [wrong_turn]
# E5 names a column: its hole is taken, and the level-2 point above waits for a platform.
8 ishi-illegal_reason b E5
#? [no_platform]
9 ishi-illegal_reason b swap
#? []
10 ishi-hint b
#? [([A-K](1|3|5|7|9|11))|swap]
# The hint changed nothing: without it the engine plays G7 here (deterministic mode).
11 genmove b
#? [G7]
12 undo
#? []
13 undo
#? []
# Suicide: a black ball in the corner A1 between white C1 and A3 has no freedom.
play b K11
play w C1
play b K9
play w A3
14 ishi-illegal_reason b A1
#? [suicide]
15 ishi-illegal_reason b C3
#? []
16 final_score
#? [0]
17 ishi-illegal_reason b L1
#? [off_board]

# Situational superko on 4x4: black E3 captures white C3; white's retake would repeat the
# position with black to move.
boardsize 4
play w E5
play b C5
play w C3
play b A3
play w E1
play b C1
play w G3
play b E3
18 ishi-illegal_reason w C3
#? [superko]
19 play w C3
#? [?illegal move]

